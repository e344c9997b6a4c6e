package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/kivi-go/kivi"
)

func cmdSimulate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf caseFlags
	cf.register(fs)
	seed := fs.Uint64("seed", 1, "random seed (the same seed gives the same run)")
	steps := fs.Int("steps", 200, "stop after this many steps")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitInput
	}
	c, err := cf.load(pos)
	if err != nil {
		return inputError(stderr, err)
	}
	p, err := kivi.NewProblem(c, kivi.Options{})
	if err != nil {
		return inputError(stderr, err)
	}
	sim := p.Simulate(*seed, *steps)
	fmt.Fprintln(stdout, "Simulation result:")
	for _, l := range kivi.TraceLines(&kivi.Trace{Steps: sim.Steps, LoopStart: -1}) {
		fmt.Fprintln(stdout, l)
	}
	fmt.Fprintf(stdout, "Stopped: %s after %d steps\n", sim.Stopped, len(sim.Steps))
	return exitHolds
}
