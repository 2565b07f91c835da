#!/bin/sh
# Prints the version `make` stamps into ccm and its packages: X.Y.Z on a
# vX.Y.Z tag; after one (or without any, from 0.0.0),
# X.Y.Z+git.N.HASH, N commits later; ".dirty" when the tree has changes.
# Every form is a valid Debian and RPM version and sorts after the tag.
cd "$(dirname "$0")/.." || exit 1
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo 0.0.0+unknown
	exit 0
fi
dirty=
git diff --quiet HEAD -- 2>/dev/null || dirty=.dirty
if tag=$(git describe --tags --match 'v[0-9]*' --abbrev=0 2>/dev/null); then
	base=${tag#v}
	n=$(git rev-list --count "$tag..HEAD")
else
	base=0.0.0
	n=$(git rev-list --count HEAD)
fi
if [ "$n" = 0 ]; then
	echo "$base${dirty:++git$dirty}"
else
	echo "$base+git.$n.$(git rev-parse --short=12 HEAD)$dirty"
fi
