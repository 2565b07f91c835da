#!/usr/bin/env bash
# dist.sh DIST ARCH... — the release of ccm, into DIST (made anew): for each
# ARCH (amd64, arm64, armv7, 386, riscv64) an archive
# ccm-VERSION-linux-ARCH.tar.gz, a .deb and an .rpm, then SHA256SUMS of them
# all. `make dist` runs it with VERSION and COMMIT (packaging/version.sh,
# git rev-parse HEAD) to stamp into the binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

# nfpm, the packager goreleaser uses, pinned here.
NFPM_MODULE=github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2

dist=$1
shift
[ $# -gt 0 ] || { echo "usage: dist.sh DIST ARCH..." >&2; exit 2; }
GO=${GO:-go}
: "${VERSION:?set VERSION (packaging/version.sh)}" "${COMMIT:?set COMMIT (git rev-parse HEAD)}"
# Man page dates, archive and package times: the commit's, so two builds
# of one commit give the same files.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
ldflags="-s -w -X github.com/reactive-ccm/ccm/internal/buildinfo.version=$VERSION -X github.com/reactive-ccm/ccm/internal/buildinfo.commit=$COMMIT"

rm -rf "$dist"
stage=$dist/stage
mkdir -p "$stage/tools" "$stage/share/completions"
stage=$(cd "$stage" && pwd)
GOBIN=$stage/tools $GO install "$NFPM_MODULE"

# Man pages and completions come from a build for this machine: they are
# the same for every architecture. Its manpages tag adds the man-pages
# command, which the binaries that ship leave out.
$GO build -tags manpages -trimpath -ldflags "$ldflags" -o "$stage/tools/ccm" ./cmd/ccm
"$stage/tools/ccm" man-pages "$stage/share/man/man1"
gzip -9n "$stage"/share/man/man1/*.1
for sh in bash zsh fish; do
	"$stage/tools/ccm" completion "$sh" >"$stage/share/completions/ccm.$sh"
done

tarball() { # DIR NAME: DIR/NAME into DIST/NAME.tar.gz, owned by root, at SOURCE_DATE_EPOCH
	tar -C "$1" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -cf - "$2" |
		gzip -9n >"$dist/$2.tar.gz"
}

for arch in "$@"; do
	case $arch in
	armv7) goarch=arm goarm=7 nfpmarch=arm7 ;;
	amd64 | arm64 | 386 | riscv64) goarch=$arch goarm= nfpmarch=$arch ;;
	*) echo "dist.sh: unknown architecture $arch" >&2; exit 2 ;;
	esac
	name=ccm-$VERSION-linux-$arch
	dir=$stage/$arch/$name
	mkdir -p "$dir"
	GOOS=linux GOARCH=$goarch GOARM=$goarm CGO_ENABLED=0 \
		$GO build -trimpath -ldflags "$ldflags" -o "$dir/ccm" ./cmd/ccm
	cp README.md packaging/ccm-agent.service packaging/agent.yaml packaging/manifest.yaml "$dir/"
	cp -r "$stage/share/man" "$stage/share/completions" "$dir/"
	tarball "$stage/$arch" "$name"
	for format in deb rpm; do
		CCM_ARCH=$nfpmarch CCM_VERSION=$VERSION CCM_BINARY=$dir/ccm CCM_SHARE=$stage/share \
			"$stage/tools/nfpm" package --config packaging/nfpm.yaml --packager "$format" --target "$dist/"
	done
done
rm -rf "$stage"
(cd "$dist" && sha256sum -- *.tar.gz *.deb *.rpm >SHA256SUMS)
