// Command kivi verifies Kubernetes controllers and configurations by model
// checking.
//
//	kivi verify --case c3 --original     verify a built-in case's topology
//	kivi verify path/to/case.yaml        verify a case file
//	kivi simulate --case c3 --seed 7     print one random run
//	kivi explore --case c8 --original    the trace explorer on localhost
//	kivi cases                           list the built-in cases
//
// Exit status: 0 every intent holds, 1 a violation was found, 2 usage or
// input error, 3 unknown (a bound, timeout or lossy storage was reached).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// Exit statuses.
const (
	exitHolds    = 0
	exitViolated = 1
	exitInput    = 2
	exitUnknown  = 3
)

// errUsage marks command-line mistakes.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitInput
	}
	switch args[0] {
	case "verify":
		return cmdVerify(ctx, args[1:], stdout, stderr)
	case "explore":
		return cmdExplore(ctx, args[1:], stdout, stderr)
	case "simulate":
		return cmdSimulate(args[1:], stdout, stderr)
	case "cases":
		return cmdCases(stdout)
	case "merge":
		return cmdMerge(args[1:], stdout, stderr)
	case "init":
		return cmdInit(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return exitHolds
	}
	fmt.Fprintf(stderr, "kivi: unknown command %q (accepted: verify, init, explore, simulate, merge, cases)\n", args[0])
	usage(stderr)
	return exitInput
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  kivi verify --case cN [--original] [--scale N] [--no-violation] [flags]
  kivi verify [flags] FILE.yaml
  kivi verify [flags] -f MANIFESTS.yaml... [--nodes FILE] [--intents FILE] | DIR | --logs DIR   (docs/inputs.md)
  kivi init (-f MANIFESTS.yaml... [--nodes FILE] | DIR) [-o intents.yaml]   (a starting intents file for your manifests)
  kivi explore (--case cN | FILE.yaml) [verify's flags] [--port N]   (the trace explorer on 127.0.0.1)
  kivi simulate (--case cN | FILE.yaml | -f FILE... | DIR | --logs DIR) [--seed N] [--steps N]   (exit 1 on a violation)
  kivi verify --case cN --shard K/N [--shard-out FILE]   (one slice of the scaling search)
  kivi verify (--case cN --original | FILE.yaml | -f FILE... | DIR | --logs DIR) --shard K/N --timeout D [--shard-out FILE]   (one shard of a swarm)
  kivi merge [--json] SHARD.json...
  kivi cases
Run 'kivi verify -h' for the verification flags.
`)
}

// parseInterspersed parses flags anywhere on the command line
// (`kivi verify DIR --original` as well as `kivi verify --original DIR`):
// the standard flag package stops at the first positional argument. It
// returns the positional arguments; "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
