package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kivi-go/kivi/bench/systems"
)

type config struct {
	models, sizes, modes []string
	small                bool
	repeats              int
	out, work, promela   string
}

func main() {
	var (
		cfg                   config
		models, sizes, modes  string
		child                 bool
		childModel, childMode string
		childSize             int
		childExpected         int64
		childProfile          string
	)
	flag.StringVar(&models, "models", "", "comma-separated models (default all: "+strings.Join(modelNames(), ",")+")")
	flag.StringVar(&sizes, "sizes", "", "comma-separated sizes to run instead of each model's defaults")
	flag.BoolVar(&cfg.small, "small", false, "run each model's small sizes (those the equality test checks)")
	flag.StringVar(&modes, "modes", "", "comma-separated modes (default all: "+strings.Join(modeNames(), ",")+")")
	flag.IntVar(&cfg.repeats, "repeats", 5, "runs per row; the table reports medians")
	flag.StringVar(&cfg.out, "out", "bench/spin/results", "directory for results.md and results.json")
	flag.StringVar(&cfg.work, "work", "", "directory for the generated pan sources (default a temporary one)")
	flag.StringVar(&cfg.promela, "promela", "", "directory of the Promela models (default bench/promela)")
	flag.BoolVar(&child, "child", false, "internal: run our engine once and print its stats as JSON")
	flag.StringVar(&childModel, "model", "", "internal (-child): model")
	flag.IntVar(&childSize, "size", 0, "internal (-child): size")
	flag.StringVar(&childMode, "mode", "", "internal (-child): go mode")
	flag.Int64Var(&childExpected, "expected", 0, "internal (-child): expected states")
	flag.StringVar(&childProfile, "cpuprofile", "", "with -child: write a CPU profile of the run to this file")
	flag.Parse()

	if child {
		if err := runChild(os.Stdout, childModel, childSize, childMode, childExpected, childProfile); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	cfg.models, cfg.modes = splitList(models), splitList(modes)
	cfg.sizes = append(cfg.sizes, splitList(sizes)...)
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench/spin:", err)
		os.Exit(1)
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func modelNames() []string {
	var n []string
	for _, m := range systems.Models() {
		n = append(n, m.Name)
	}
	return n
}

func modeNames() []string {
	var n []string
	for _, m := range spinModes {
		n = append(n, m.Name)
	}
	for _, m := range goModes {
		n = append(n, m.Name)
	}
	return n
}

// promelaDir finds bench/promela from the working directory or, under go
// run, from this source file.
func promelaDir(flagged string) (string, error) {
	if flagged != "" {
		return filepath.Abs(flagged)
	}
	if st, err := os.Stat("bench/promela"); err == nil && st.IsDir() {
		return filepath.Abs("bench/promela")
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		d := filepath.Join(filepath.Dir(file), "..", "promela")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
	}
	return "", errors.New("cannot find bench/promela; use -promela")
}

// haveSpin reports whether spin and gcc are on PATH.
func haveSpin() error {
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not found on PATH (run bash bench/setup.sh): %w", tool, err)
		}
	}
	return nil
}

func run(cfg config) error {
	if err := haveSpin(); err != nil {
		return err
	}
	pdir, err := promelaDir(cfg.promela)
	if err != nil {
		return err
	}
	work := cfg.work
	if work == "" {
		if work, err = os.MkdirTemp("", "bench-spin-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	b := &bench{cfg: cfg, promela: pdir, work: work, self: self}
	for _, m := range systems.Models() {
		if len(cfg.models) > 0 && !slices.Contains(cfg.models, m.Name) {
			continue
		}
		sizes := m.Sizes
		if cfg.small {
			sizes = m.Small
		}
		if len(cfg.sizes) > 0 {
			sizes = nil
			for _, s := range cfg.sizes {
				n, err := strconv.Atoi(s)
				if err != nil {
					return fmt.Errorf("bad size %q", s)
				}
				sizes = append(sizes, n)
			}
		}
		for _, n := range sizes {
			if err := b.model(m, n); err != nil {
				return fmt.Errorf("%s %d: %w", m.Name, n, err)
			}
		}
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	md := markdown(b.rows, b.header())
	fmt.Print(md)
	if err := os.WriteFile(filepath.Join(cfg.out, "results.md"), []byte(md), 0o644); err != nil {
		return err
	}
	js, err := json.MarshalIndent(report{Header: b.header(), Rows: b.rows}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cfg.out, "results.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	if b.mismatch > 0 {
		return fmt.Errorf("%d rows whose state count differs from our exact count", b.mismatch)
	}
	return nil
}

type bench struct {
	cfg           config
	promela, work string
	self          string
	rows          []row
	mismatch      int
}

func (b *bench) header() header {
	out, _ := exec.Command("spin", "-V").Output()
	gcc, _ := exec.Command("gcc", "-dumpfullversion").Output()
	return header{
		Date:     time.Now().UTC().Format(time.RFC3339),
		Command:  "go run ./bench/spin " + strings.Join(os.Args[1:], " "),
		Spin:     strings.TrimSpace(string(out)),
		GCC:      strings.TrimSpace(string(gcc)),
		Go:       runtime.Version(),
		CPUs:     runtime.NumCPU(),
		Repeats:  b.cfg.repeats,
		GCCFlags: strings.Join(commonFlags, " "),
	}
}

func (b *bench) wants(mode string) bool {
	return len(b.cfg.modes) == 0 || slices.Contains(b.cfg.modes, mode)
}

// model benchmarks one model at one size: a calibration run of our engine
// gives the exact state count (to size SPIN's hash table and check every
// count) and a calibration run of pan the DFS depth (pan allocates and
// touches its stack for the whole -m limit, so -m is set to twice the depth
// reached rather than a huge constant).
func (b *bench) model(m systems.Model, n int) error {
	fmt.Fprintf(os.Stderr, "== %s %s=%d\n", m.Name, m.Param, n)
	cal, _, err := b.goRun(m, n, goModes[0], 0)
	if err != nil {
		return err
	}
	states := cal.States
	promela := filepath.Join(b.promela, m.Name+".pml")
	depth := -1
	walls := map[string]time.Duration{}
	rss := map[string]int64{}
	for _, sm := range spinModes {
		if !b.wants(sm.Name) {
			continue
		}
		pb, err := buildPan(b.work, promela, m.Param, n, sm, states)
		if err != nil {
			return err
		}
		if depth < 0 {
			// depth calibration, untimed; exhaustive is the deepest
			// sequential search, -m is doubled on "too small"
			lim := int(min(states+10, 1<<26))
			for {
				out, err := runMeasured(pb.Dir, pb.Exe, panArgs(sm, states, lim)...)
				if err != nil {
					return err
				}
				if ps, err := parsePan(out.Stdout); err == nil {
					depth = ps.Depth
					break
				} else if !reTooDeep.MatchString(out.Stdout) {
					return err
				}
				lim *= 2
			}
		}
		lim := 2*depth + 1000
		var runs []sample
		for range b.cfg.repeats {
			out, err := runMeasured(pb.Dir, pb.Exe, panArgs(sm, states, lim)...)
			if err != nil {
				return err
			}
			ps, err := parsePan(out.Stdout)
			for err != nil && reTooDeep.MatchString(out.Stdout) {
				lim *= 2
				if out, err = runMeasured(pb.Dir, pb.Exe, panArgs(sm, states, lim)...); err != nil {
					return err
				}
				ps, err = parsePan(out.Stdout)
			}
			if err != nil {
				return err
			}
			runs = append(runs, sample{states: ps.States, transitions: ps.Transitions, wall: out.Wall, search: ps.Elapsed, rss: out.MaxRSSB})
		}
		r := b.row(m, n, sm.Name, "", runs, states)
		r.CompileS = pb.Compile.Seconds()
		r.EndToEndS = r.CompileS + r.WallS
		walls[sm.Name], rss[sm.Name] = time.Duration(r.WallS*float64(time.Second)), r.RSSBytes
		b.add(r)
	}
	for _, gm := range goModes {
		if !b.wants(gm.Name) {
			continue
		}
		var runs []sample
		for range b.cfg.repeats {
			cr, out, err := b.goRun(m, n, gm, states)
			if err != nil {
				return err
			}
			runs = append(runs, sample{states: cr.States, transitions: cr.Transitions, wall: out.Wall, search: cr.Elapsed, rss: out.MaxRSSB})
		}
		r := b.row(m, n, gm.Name, gm.Pair, runs, states)
		r.EndToEndS = r.WallS
		if w, ok := walls[gm.Pair]; ok && w > 0 {
			r.WallRatio = r.WallS / w.Seconds()
			r.RSSRatio = float64(r.RSSBytes) / float64(rss[gm.Pair])
		}
		if w, ok := walls["spin-exhaustive"]; ok && w > 0 {
			r.VsExhaustive = r.WallS / w.Seconds()
		}
		b.add(r)
	}
	return nil
}

// goRun runs our engine once in a child process.
func (b *bench) goRun(m systems.Model, n int, gm goMode, expected int64) (childResult, measured, error) {
	out, err := runMeasured("", b.self, "-child", "-model", m.Name, "-size", strconv.Itoa(n),
		"-mode", gm.Name, "-expected", strconv.FormatInt(expected, 10))
	if err != nil {
		return childResult{}, out, err
	}
	var cr childResult
	if err := json.Unmarshal([]byte(out.Stdout), &cr); err != nil {
		return childResult{}, out, fmt.Errorf("child output %q: %w", out.Stdout, err)
	}
	return cr, out, nil
}

func (b *bench) add(r row) {
	if !r.CountMatch && r.Exact {
		b.mismatch++
	}
	fmt.Fprintf(os.Stderr, "   %-16s %10d states %8.3f s %8.1f MB%s\n", r.Mode, r.States, r.WallS, float64(r.RSSBytes)/(1<<20), map[bool]string{true: "", false: "  (count differs)"}[r.CountMatch])
	b.rows = append(b.rows, r)
}
