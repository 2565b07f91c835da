// Command benchtable reads the output of `go test -bench` and prints the
// rows that compare ccm with the floor (testdata/floor) as a table: each
// figure ccm-UNIT beside floor-UNIT and their ratio x-floor-UNIT, with the
// drifts each left unrepaired (ccm-left-wrong, floor-left-wrong). make
// bench prints it after the benchmarks' own output.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	if err := table(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// row is one benchmark line's comparison of one unit.
type row struct {
	bench, unit        string
	ccm, floor, ratio  string
	wrongCCM, wrongFlr string
}

// table writes the rows of the benchmark lines in r to w.
func table(r io.Reader, w io.Writer) error {
	var rows []row
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		rows = append(rows, rowsOf(sc.Text())...)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tfigure\tccm\tfloor\t× floor\tleft wrong ccm / floor\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s / %s\t\n", r.bench, r.unit, r.ccm, r.floor, r.ratio, r.wrongCCM, r.wrongFlr)
	}
	return tw.Flush()
}

// rowsOf returns the rows of one line of `go test -bench` output: a
// benchmark's name, its iterations, then pairs of a value and its unit.
func rowsOf(line string) []row {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
		return nil
	}
	m := map[string]string{}
	var units []string
	for i := 2; i+1 < len(f); i += 2 {
		if _, err := strconv.ParseFloat(f[i], 64); err != nil {
			return nil
		}
		m[f[i+1]] = f[i]
		if unit, ok := strings.CutPrefix(f[i+1], "x-floor-"); ok {
			units = append(units, unit)
		}
	}
	slices.Sort(units)
	name := strings.TrimPrefix(f[0], "Benchmark")
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		name = name[:i] // the GOMAXPROCS suffix
	}
	var rows []row
	for _, u := range units {
		rows = append(rows, row{bench: name, unit: u, ccm: or(m["ccm-"+u]), floor: or(m["floor-"+u]),
			ratio: m["x-floor-"+u], wrongCCM: or(m["ccm-left-wrong"]), wrongFlr: or(m["floor-left-wrong"])})
	}
	return rows
}

// or stands a dash for a figure the line does not have.
func or(v string) string {
	if v == "" {
		return "-"
	}
	return v
}
