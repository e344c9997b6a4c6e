package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/kivi-go/kivi/bench/systems"
	"github.com/kivi-go/kivi/checker"
)

// goMode is one configuration of our engine.
type goMode struct {
	Name string
	// Pair is the SPIN mode it is compared with.
	Pair string
	Opts func(expected int64) checker.Options
}

var goModes = []goMode{
	{Name: "go-seq", Pair: "spin-exhaustive", Opts: func(e int64) checker.Options {
		return checker.Options{Workers: 1, ExpectedStates: e}
	}},
	{Name: "go-2w", Pair: "spin-ncore2", Opts: func(e int64) checker.Options {
		return checker.Options{Workers: 2, ExpectedStates: e}
	}},
	// 64-bit fingerprints: the closest to SPIN's HC4 (a 32-bit second hash
	// plus the table index); our default is 128 bits.
	{Name: "go-hc", Pair: "spin-hc4", Opts: func(e int64) checker.Options {
		return checker.Options{Workers: 1, ExpectedStates: e, Storage: checker.HashCompaction, Fingerprint64: true}
	}},
	{Name: "go-bitstate", Pair: "spin-bitstate", Opts: func(int64) checker.Options {
		return checker.Options{Workers: 1, Storage: checker.Bitstate, BitstateBits: 1 << bitstateLog2, BitstateHashes: 3}
	}},
}

func lookupGoMode(name string) (goMode, bool) {
	for _, m := range goModes {
		if m.Name == name {
			return m, true
		}
	}
	return goMode{}, false
}

// childResult is what a -child run prints, as JSON.
type childResult struct {
	States, Transitions int64
	Depth               int
	Elapsed             time.Duration
	BytesPerState       float64
}

// runChild is the -child mode: one exploration, its stats on w.
func runChild(w io.Writer, model string, size int, mode string, expected int64, profile string) error {
	m, ok := systems.Lookup(model)
	if !ok {
		return fmt.Errorf("unknown model %q", model)
	}
	gm, ok := lookupGoMode(mode)
	if !ok {
		return fmt.Errorf("unknown mode %q", mode)
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	res, err := checker.Check(context.Background(), m.New(size), checker.Properties[systems.State]{}, gm.Opts(expected))
	if err != nil {
		return err
	}
	st := res.Stats
	return json.NewEncoder(w).Encode(childResult{
		States: st.States, Transitions: st.Transitions, Depth: st.MaxDepth,
		Elapsed: st.Elapsed, BytesPerState: st.BytesPerState,
	})
}
