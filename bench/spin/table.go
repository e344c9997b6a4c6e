package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kivi-go/kivi/bench/systems"
)

type header struct {
	Date, Command, Spin, GCC, Go string
	CPUs, Repeats                int
	GCCFlags                     string
}

type report struct {
	Header header
	Rows   []row
}

// row is one line of the table: medians over the repeats.
type row struct {
	Model string
	Size  int
	Mode  string
	// Pair is the SPIN mode an engine row is compared with.
	Pair        string `json:",omitempty"`
	States      int64
	Transitions int64
	// CountMatch: States equals our exact count. Exact modes must match;
	// lossy ones (hash compaction, bitstate) may store fewer.
	CountMatch bool
	Exact      bool
	// WallS is the child process's wall time (start to exit); SearchS the
	// time the engine itself reports (pan's "elapsed time", Stats.Elapsed).
	WallS, SearchS float64
	StatesPerS     float64 // States / WallS
	RSSBytes       int64   // peak RSS (wait4 Maxrss)
	BytesPerState  float64 // RSSBytes / States
	// CompileS is spin -a plus gcc (SPIN rows); EndToEndS adds it to WallS.
	CompileS, EndToEndS float64
	// WallRatio and RSSRatio are ours / the paired SPIN mode; VsExhaustive
	// is our wall time / SPIN exhaustive's.
	WallRatio, RSSRatio, VsExhaustive float64 `json:",omitempty"`
}

type sample struct {
	states, transitions int64
	wall, search        time.Duration
	rss                 int64
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func (b *bench) row(m systems.Model, n int, mode, pair string, runs []sample, exact int64) row {
	var walls, searches []time.Duration
	var rss, states, trans []int64
	for _, r := range runs {
		walls, searches = append(walls, r.wall), append(searches, r.search)
		rss, states, trans = append(rss, r.rss), append(states, r.states), append(trans, r.transitions)
	}
	r := row{Model: m.Name, Size: n, Mode: mode, Pair: pair,
		States: median(states), Transitions: median(trans),
		WallS: median(walls).Seconds(), SearchS: median(searches).Seconds(), RSSBytes: median(rss),
		Exact: !strings.Contains(mode, "hc") && !strings.Contains(mode, "bitstate")}
	r.CountMatch = r.States == exact
	if r.WallS > 0 {
		r.StatesPerS = float64(r.States) / r.WallS
	}
	if r.States > 0 {
		r.BytesPerState = float64(r.RSSBytes) / float64(r.States)
	}
	return r
}

func ratio(x float64) string {
	if x == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f", x)
}

// markdown renders the table with its provenance.
func markdown(rows []row, h header) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Date %s; `%s`; %s; gcc %s (%s); %s; %d CPUs; medians of %d runs.\n\n",
		h.Date, h.Command, h.Spin, h.GCC, h.GCCFlags, h.Go, h.CPUs, h.Repeats)
	sb.WriteString("| model | size | mode | states | transitions | same count | wall s | search s | states/s | peak RSS MB | B/state | compile s | end-to-end s | wall ours/pair | RSS ours/pair | wall ours/exhaustive |\n")
	sb.WriteString("|---|---:|---|---:|---:|:-:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		same := "yes"
		if !r.CountMatch {
			same = "no"
			if !r.Exact {
				same = "lossy"
			}
		}
		comp := ""
		if r.CompileS > 0 {
			comp = fmt.Sprintf("%.2f", r.CompileS)
		}
		fmt.Fprintf(&sb, "| %s | %d | %s | %d | %d | %s | %.3f | %.3f | %.3g | %.1f | %.0f | %s | %.3f | %s | %s | %s |\n",
			r.Model, r.Size, r.Mode, r.States, r.Transitions, same, r.WallS, r.SearchS, r.StatesPerS,
			float64(r.RSSBytes)/(1<<20), r.BytesPerState, comp, r.EndToEndS,
			ratio(r.WallRatio), ratio(r.RSSRatio), ratio(r.VsExhaustive))
	}
	return sb.String()
}
