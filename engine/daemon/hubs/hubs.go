// Package hubs opens a watching daemon's shared event sources, one of
// each for the whole process: the polling hub, the inotify hub (unless
// every watch is polled or inotify is unavailable: then everything is
// polled), the mount table's hub and the spotter of who writes a
// contested resource's paths. The engine gets them as Watchers, the
// reload loop as a reload.Watcher.
package hubs

import (
	"context"
	"log/slog"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/watchers/inotify"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
	"github.com/reactive-ccm/ccm/watchers/poll"
	"github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/writer"
)

// Hubs are the shared event sources of one process.
type Hubs struct {
	poll    *poll.Hub
	inotify *inotify.Hub // nil when everything is polled
	// mounts watches the mount table; it starts with its first watch.
	mounts *mountinfo.Hub
	// writers watches who changes the paths of fighting resources.
	writers *writer.Spotter
	// Interval is how often what is polled is polled.
	Interval time.Duration
}

// Open opens the hubs until ctx ends: with pollEvery set every watch is
// polled that often (--poll), else what inotify cannot watch is polled
// every interval.
func Open(ctx context.Context, log *slog.Logger, pollEvery, interval time.Duration) *Hubs {
	h := &Hubs{poll: poll.New(ctx), Interval: interval, writers: writer.New(log)}
	h.mounts = mountinfo.New(ctx, log, func(_ string, notify func()) func() { return h.poll.Every(h.Interval, notify) })
	if pollEvery > 0 {
		h.Interval = pollEvery
		log.Info("polling every watched resource", "interval", pollEvery)
		return h
	}
	hub, err := inotify.New(ctx, log, func(_ string, notify func()) func() {
		return h.poll.Every(h.Interval, notify)
	})
	if err != nil {
		log.Warn("inotify unavailable; polling every watched resource", "interval", h.Interval, "error", err)
		return h
	}
	h.inotify = hub
	return h
}

// Watchers are the hubs as the engine routes resources' watches to them;
// without inotify the engine polls paths and trees itself.
func (h *Hubs) Watchers() engine.Watchers {
	w := engine.Watchers{Poll: h.poll.Every, Units: systemd.Default().Watch, Mounts: h.mounts.Watch, Ready: systemd.Default().Ready,
		Writers: func(paths []string) engine.Witness { return h.writers.Watch(paths) }}
	if h.inotify != nil {
		w.Paths = h.inotify.WatchPolled
		w.Trees = h.inotify.WatchTree
		w.Flush = h.inotify.Flush
	}
	return w
}

// WatchFile watches one of ccm's own input files, or polls it.
func (h *Hubs) WatchFile(path string, notify func()) (cancel func()) {
	if h.inotify != nil {
		return h.inotify.Watch(path, notify)
	}
	return h.poll.Every(h.Interval, notify)
}

// WatchTree watches every file under root, or polls it.
func (h *Hubs) WatchTree(root string, notify func()) (cancel func()) {
	if h.inotify != nil {
		return h.inotify.WatchTree(root, notify)
	}
	return h.poll.Every(h.Interval, notify)
}

// Counts says what the hubs hold, for the daemon's health: the
// directories inotify watches, the registrations polled, and inotify's
// queue overflows.
func (h *Hubs) Counts() (watches, polled int, overflows uint64) {
	if h.inotify == nil {
		return 0, h.poll.Len(), 0
	}
	st := h.inotify.Stats()
	return st.Dirs, st.Polled, st.Overflows
}
