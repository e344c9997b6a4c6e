package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kivi-go/kivi"
)

func cmdSimulate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf caseFlags
	cf.register(fs)
	// The same sources as verify: a built-in case, a case file, -f
	// manifests with --nodes and --intents, a Kivi DIR, --logs DIR.
	var inf inputFlags
	inf.register(fs)
	seed := fs.Uint64("seed", 1, "random seed (the same seed gives the same run)")
	steps := fs.Int("steps", 200, "stop after this many steps")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitInput
	}
	c, own, err := inf.load(pos, os.Stdin, stderr)
	if !own {
		c, err = cf.load(pos)
	}
	if err != nil {
		return inputError(stderr, err)
	}
	p, err := kivi.NewProblem(c, kivi.Options{})
	if errors.Is(err, kivi.ErrModelBound) {
		fmt.Fprintf(stderr, "kivi: %v\n", err)
		return exitUnknown
	}
	if err != nil {
		return inputError(stderr, err)
	}
	sim := p.Simulate(*seed, *steps)
	fmt.Fprintln(stdout, "Simulation result:")
	for _, l := range (&kivi.Trace{Steps: sim.Steps, LoopStart: -1}).Lines() {
		fmt.Fprintln(stdout, l)
	}
	fmt.Fprintf(stdout, "Stopped: %s after %d steps\n", sim.Stopped, len(sim.Steps))
	// A run that violates an intent exits as verify does on a violation,
	// so that scripts can tell it from a run that found nothing.
	if strings.HasPrefix(sim.Stopped, "failed: ") {
		return exitViolated
	}
	return exitHolds
}
