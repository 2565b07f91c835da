package memory

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const smapsSample = `00400000-0100e000 r-xp 00000000 fd:00 1234                               /usr/bin/ccm
Size:              12344 kB
Rss:                9000 kB
Anonymous:             0 kB
0100e000-01bf6000 r--p 00c0e000 fd:00 1234                               /usr/bin/ccm
Size:              12192 kB
Anonymous:             0 kB
01bf6000-01c40000 rw-p 017f6000 fd:00 1234                               /usr/bin/ccm
Anonymous:           296 kB
01c40000-01c50000 r--p 00000000 fd:00 1234                               /usr/bin/ccm
Anonymous:            64 kB
02000000-02100000 r--p 00000000 fd:00 99                                 /usr/bin/ccm-other
Anonymous:             0 kB
c000000000-c004000000 rw-p 00000000 00:00 0
Anonymous:          4096 kB
7f0000000000-7f0000001000 r-xp 00000000 fd:00 77                         /usr/lib/x86_64-linux-gnu/libc.so.6
Anonymous:             0 kB
`

func TestProgramMappingsAreTheProgramsUnwrittenReadOnlyOnes(t *testing.T) {
	got := programMappings([]byte(smapsSample), "/usr/bin/ccm")
	want := []mapping{{0x400000, 0x100e000}, {0x100e000, 0x1bf6000}}
	if !slices.Equal(got, want) {
		t.Fatalf("mappings %x, want %x: the data, a written read-only mapping, another program and libc stay", got, want)
	}
}

func TestTrimProgramGivesBackTheProgramsPages(t *testing.T) {
	before := programRSS(t)
	if err := TrimProgram(); err != nil {
		t.Fatal(err)
	}
	// The test keeps running (its own code faults back in), so less,
	// not none.
	if after := programRSS(t); after >= before {
		t.Fatalf("the program's resident pages went from %d to %d kB, want fewer", before, after)
	}
}

// programRSS sums the resident kB of the test binary's read-only
// mappings.
func programRSS(t *testing.T) int {
	t.Helper()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	total, in := 0, false
	for _, line := range strings.Split(string(smaps), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			in = len(f) == 6 && f[5] == exe && (f[1] == "r-xp" || f[1] == "r--p")
		case in && len(f) >= 2 && f[0] == "Rss:":
			kb, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			total += kb
		}
	}
	return total
}
