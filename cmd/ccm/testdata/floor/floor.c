/*
 * floor: the least a program can do for what the benchmarks ask of ccm, as
 * the floor they report ccm's figures against. It manages the benchmark's
 * layout (ROOT/files/dK/fI holding "content of file I\n", 500 files a
 * directory) with the minimal system calls: a check is one fstatat, and an
 * open, read and compare when the size is right; a write is a temporary
 * file created beside the target, written, synced and renamed over it.
 * There is no parsing, no logging, no scheduling and no safety beyond
 * O_NOFOLLOW.
 *
 *   floor oneshot ROOT N fsync|syncfs|nosync
 *       converge once and exit: fsync syncs each file before its rename;
 *       syncfs writes every temporary file, syncs the filesystem once,
 *       then renames (a group commit); nosync never syncs.
 *   floor watch ROOT N
 *       converge, print "ready", then repair drift from inotify events
 *       until killed: one blocking read per wake-up, events filtered by
 *       name without allocating, a renamed-away or removed directory made
 *       again and refilled at once.
 *
 * Built by the benchmarks of cmd/ccm with the system's C compiler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define PER_DIR 500

static const char *root;
static long nfiles;
static int filesfd = -1;
static int *dirfd_of; /* per directory index */
static int *wd_of;    /* per directory index: its inotify watch */
static long ndirs;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int content(long i, char *buf) { return sprintf(buf, "content of file %ld\n", i); }

/* good reports whether file i holds its content. */
static int good(long i)
{
	char name[32], want[64], have[65];
	struct stat st;
	int n = content(i, want);
	sprintf(name, "f%ld", i);
	int dfd = dirfd_of[i / PER_DIR];
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) || st.st_size != n ||
	    (st.st_mode & 07777) != 0644)
		return 0;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t got = read(fd, have, sizeof have);
	close(fd);
	return got == n && memcmp(have, want, n) == 0;
}

/* stage writes file i's content to its temporary file, synced when sync. */
static void stage(long i, int sync)
{
	char tmp[40], buf[64];
	int n = content(i, buf);
	sprintf(tmp, ".f%ld.tmp", i);
	int fd = openat(dirfd_of[i / PER_DIR], tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		die("create");
	if (fchmod(fd, 0644) != 0 || write(fd, buf, n) != n)
		die("write");
	if (sync && fsync(fd) != 0)
		die("fsync");
	close(fd);
}

static void commit(long i)
{
	char tmp[40], name[32];
	sprintf(tmp, ".f%ld.tmp", i);
	sprintf(name, "f%ld", i);
	int dfd = dirfd_of[i / PER_DIR];
	if (renameat(dfd, tmp, dfd, name) != 0)
		die("rename");
}

static void repair(long i)
{
	if (good(i))
		return;
	stage(i, 1);
	commit(i);
}

/* opendir_k opens (making it first when missing) directory k. */
static void opendir_k(long k)
{
	char name[32];
	sprintf(name, "d%ld", k);
	if (dirfd_of[k] >= 0)
		close(dirfd_of[k]);
	if (mkdirat(filesfd, name, 0755) != 0 && errno != EEXIST)
		die("mkdir");
	dirfd_of[k] = openat(filesfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd_of[k] < 0)
		die("open dir");
}

static void setup(void)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/files", root);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		die("mkdir files");
	filesfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (filesfd < 0)
		die("open files");
	ndirs = (nfiles + PER_DIR - 1) / PER_DIR;
	dirfd_of = malloc(ndirs * sizeof *dirfd_of);
	wd_of = malloc(ndirs * sizeof *wd_of);
	for (long k = 0; k < ndirs; k++) {
		dirfd_of[k] = -1;
		wd_of[k] = -1;
		opendir_k(k);
	}
}

static void oneshot(const char *mode)
{
	int group = strcmp(mode, "syncfs") == 0, sync = strcmp(mode, "fsync") == 0;
	char *todo = calloc(nfiles, 1);
	for (long i = 0; i < nfiles; i++) {
		if (good(i))
			continue;
		todo[i] = 1;
		stage(i, sync);
		if (!group)
			commit(i);
	}
	if (!group)
		return;
	int fs = openat(filesfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fs < 0 || syncfs(fs) != 0)
		die("syncfs");
	close(fs);
	for (long i = 0; i < nfiles; i++)
		if (todo[i])
			commit(i);
}

/* A directory's own watch: its files' changes and its own fate. */
#define DIR_MASK (IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

static void watch_dir(int in, long k)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/files/d%ld", root, k);
	wd_of[k] = inotify_add_watch(in, path, DIR_MASK);
	if (wd_of[k] < 0)
		die("inotify_add_watch");
}

/* restore makes directory k again, watches it and refills it. */
static void restore(int in, long k)
{
	opendir_k(k);
	watch_dir(in, k);
	for (long i = k * PER_DIR; i < nfiles && i < (k + 1) * PER_DIR; i++)
		repair(i);
}

/* file_of parses "fI" into I when I belongs in directory k, else -1. */
static long file_of(const char *name, long k)
{
	if (name[0] != 'f' || name[1] < '0' || name[1] > '9')
		return -1;
	char *end;
	long i = strtol(name + 1, &end, 10);
	if (*end != 0 || i >= nfiles || i / PER_DIR != k)
		return -1;
	return i;
}

static long dir_of_wd(int wd)
{
	for (long k = 0; k < ndirs; k++)
		if (wd_of[k] == wd)
			return k;
	return -1;
}

static void event(int in, int fileswd, struct inotify_event *ev)
{
	if (ev->wd == fileswd) {
		/* files/ itself: a directory of ours renamed away or removed. */
		long k = ev->len && ev->name[0] == 'd' ? strtol(ev->name + 1, NULL, 10) : -1;
		if (k >= 0 && k < ndirs && (ev->mask & (IN_MOVED_FROM | IN_DELETE)))
			restore(in, k);
		return;
	}
	long k = dir_of_wd(ev->wd);
	if (k < 0 || (ev->mask & (IN_MOVE_SELF | IN_DELETE_SELF | IN_IGNORED)))
		return;
	long i = ev->len ? file_of(ev->name, k) : -1;
	if (i >= 0)
		repair(i);
}

static void watch(void)
{
	for (long i = 0; i < nfiles; i++)
		repair(i);
	int in = inotify_init1(IN_CLOEXEC);
	if (in < 0)
		die("inotify_init1");
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/files", root);
	int fileswd = inotify_add_watch(in, path, IN_MOVED_FROM | IN_DELETE | IN_ONLYDIR);
	if (fileswd < 0)
		die("inotify_add_watch");
	for (long k = 0; k < ndirs; k++)
		watch_dir(in, k);
	/* Drift while the watches were being armed. */
	for (long i = 0; i < nfiles; i++)
		repair(i);
	printf("ready\n");
	fflush(stdout);
	static char buf[64 << 10] __attribute__((aligned(__alignof__(struct inotify_event))));
	for (;;) {
		ssize_t n = read(in, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("read");
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			event(in, fileswd, ev);
			p += sizeof *ev + ev->len;
		}
	}
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: floor oneshot ROOT N fsync|syncfs|nosync | floor watch ROOT N\n");
		return 2;
	}
	umask(022);
	root = argv[2];
	nfiles = atol(argv[3]);
	setup();
	if (strcmp(argv[1], "oneshot") == 0 && argc == 5)
		oneshot(argv[4]);
	else if (strcmp(argv[1], "watch") == 0)
		watch();
	else
		return 2;
	return 0;
}
