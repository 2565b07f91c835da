#!/bin/sh
# fuzz.sh TIME PKG TARGET runs one fuzz target for TIME from its seed corpus.
# Go's fuzzer can end with "context deadline exceeded" when its time runs out
# while a worker is still busy on an input (seen on a loaded machine); that
# is no finding, so such a run is tried once more. A real finding writes its
# input under testdata/fuzz and fails at once.
set -u
GO=${GO:-go}
out=$("$GO" test -run '^$' -fuzz "^$3\$" -fuzztime "$1" "$2" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 0 ] && printf '%s' "$out" | grep -q 'context deadline exceeded' &&
	! printf '%s' "$out" | grep -q 'Failing input written'; then
	echo "fuzz: $3 ran out of time mid-input, not on a finding; running it again"
	exec "$GO" test -run '^$' -fuzz "^$3\$" -fuzztime "$1" "$2"
fi
exit "$rc"
