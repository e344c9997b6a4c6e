package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/scaling"
)

// caseFlags select the cluster to verify: a built-in case or a file.
type caseFlags struct {
	name        string
	scale       int
	noViolation bool
}

func (c *caseFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.name, "case", "", "built-in case c1..c8 or an incident of examples/incidents (see 'kivi cases')")
	fs.IntVar(&c.scale, "scale", 3, "size of the built-in case")
	fs.BoolVar(&c.noViolation, "no-violation", false, "the case's non-violating variant (an incident's fixed twin)")
}

// load returns the cluster named by the flags or the single positional
// argument.
func (c *caseFlags) load(pos []string) (*kivi.Cluster, error) {
	switch {
	case c.name != "" && len(pos) > 0:
		return nil, fmt.Errorf("give either --case or a case file, not both: %w", errUsage)
	case c.name != "":
		cl, err := kivi.LoadCase(c.name, c.scale, c.noViolation)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errUsage, err)
		}
		return cl, nil
	case len(pos) == 1:
		return kivi.LoadCaseFile(pos[0])
	case len(pos) > 1:
		return nil, fmt.Errorf("one case file at a time (got %d): %w", len(pos), errUsage)
	}
	return nil, fmt.Errorf("nothing to verify: give --case cN or a case file: %w", errUsage)
}

// incident reports whether --case names an incident of
// examples/incidents: it is verified as written, like manifests.
func (c *caseFlags) incident() bool {
	for _, in := range kivi.Cases() {
		if in.Name == c.name {
			return in.Incident
		}
	}
	return false
}

func cmdVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return verifyCommand(ctx, "verify", args, stdout, stderr, &pageOut{})
}

// verifyCommand is verify and explore (named by command): page takes the
// explorer page (--html, explore's server).
func verifyCommand(ctx context.Context, command string, args []string, stdout, stderr io.Writer, page *pageOut) int {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf caseFlags
	cf.register(fs)
	var inf inputFlags
	inf.register(fs)
	original := fs.Bool("original", false, "built-in cases and case files: verify the given topology only (no scaling search)")
	search := fs.Bool("search", false, "manifests (-f) and Kivi's configuration DIR: run the scaling search within the input's own bounds instead of verifying the topology as written")
	all := fs.Bool("all", false, "keep going after the first violation: one verdict per intent")
	applyInOrder := fs.Bool("apply-in-order", false, "create the Deployments in the order written, as one kubectl apply -f does, instead of in every order (n Deployments have n! orders); a verdict then covers that order, and the report says so")
	readyAtStart := fs.Bool("ready-at-start", false, "assume readiness probes, readiness gates and minReadySeconds pass as each pod starts, instead of exploring when each pod becomes Ready (much smaller searches for inputs with probes); a verdict then covers that case, and the report says so")
	cronJobRuns := fs.Int("cronjob-runs", 0, "assume a CronJob with concurrencyPolicy Allow has at most this many runs active at once (1 or 2: its runs finish within that many schedule periods) instead of ending unknown when its runs may pile up; a verdict then covers that case, and the report says so")
	mergeOldRevisions := fs.Bool("merge-old-revisions", false, "let a Deployment whose pod template changes while two older revisions still have pods roll out of those two as one ReplicaSet, instead of ending unknown at the model's two ReplicaSets per Deployment; a verdict then covers that approximation, and the report says so")
	workers := fs.Int("workers", 0, "exploring goroutines (0 = all cores)")
	timeout := fs.Duration("timeout", 0, "stop after this long (a scaling search: the whole search; --setup-timeout bounds each setup); unsettled intents are unknown (0 = none)")
	maxMemory := fs.String("max-memory", "", "memory budget of the search, e.g. 4GiB: the process stays within it plus a tenth and 64 MiB; when it is reached the run switches to bitstate, then ends unknown (memory) (default: a quarter of the machine's memory or of the container's limit)")
	maxStates := fs.Int64("max-states", 0, "stop after this many states (0 = none)")
	storage := fs.String("storage", "exact", "state storage: exact, compact (128-bit fingerprints) or bitstate")
	strategy := fs.String("strategy", "bfs", "search order: bfs (shortest counterexamples) or dfs")
	seed := fs.Uint64("seed", 0, "with --strategy dfs: push each state's successors in an order drawn from this seed (0 = the order they are generated) and run that one search, without the quick pass; a violation found by the depth-first phase names the seed that repeats it")
	depthFirst := fs.String("depth-first", "on", "the depth-first phase: when a short probe shows that the exhaustive search is large, seeded depth-first searches look for violations deep in it for a quarter of the time (ten seconds without --timeout) before the exhaustive search: on or off")
	jsonOut := fs.Bool("json", false, "print one JSON document instead of text")
	counter := fs.Bool("eviction-counter", false, "check no_oscillation_eviction with Kivi's 3-round counter instead of a cycle")
	balanceAtStart := fs.Bool("balance-at-pod-start", false, "check pod_balance_across_node only when a pod starts (Kivi) instead of in every settled state")
	quiet := fs.Bool("quiet", false, "no live status line on stderr")
	symmetry := fs.String("symmetry", "on", "symmetry reduction over interchangeable nodes, pods and Indexed Jobs' finished completion indexes: on or off")
	podSlots := fs.Int("pod-slots", 0, "pod slots of the written topology (0 = sized from replicas, HPA maximum, kubectl scale and rollout surge); a run that needs more ends unknown (model bound)")
	por := fs.String("por", "on", "partial-order reduction over independent controllers and events: on or off")
	page.register(fs)
	var sf scalingFlags
	fs.IntVar(&sf.confidentNodes, "confident-nodes", 0, "scaling search: nodes per type up to this (0 = 6)")
	fs.IntVar(&sf.confidentPods, "confident-pods-per-node", 0, "scaling search: pods per node up to this (0 = 6)")
	fs.IntVar(&sf.fastFind, "fast-find", 0, "scaling search: Kivi's fast-find level 0..3")
	fs.StringVar(&sf.shard, "shard", "", "scaling search: verify the K-th of N slices (K/N, K from 0) and print a shard result; one topology (--original, -f, --logs): run shard K of a swarm of N seeded depth-first searches (needs --timeout or --max-states)")
	fs.StringVar(&sf.shardMode, "shard-mode", "interleaved", "how setups are dealt to shards: interleaved or contiguous")
	fs.StringVar(&sf.shardOut, "shard-out", "", "write the shard result to this file instead of stdout")
	fs.DurationVar(&sf.setupTimeout, "setup-timeout", 0, "scaling search: per-setup time limit; a setup that hits it is unknown")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitInput
	}
	c, own, err := inf.load(pos, os.Stdin, stderr)
	if own && err == nil && len(c.Intents) == 0 {
		// Manifests without an intents file: say what is checked, and
		// how to ask for more.
		fmt.Fprintln(stderr, "kivi: no intents file: only pod_always_schedulable and the built-in checks run, with no event; `kivi init` writes a starting intents file for these manifests (--intents FILE)")
	}
	if !own {
		c, err = cf.load(pos)
		own = cf.incident()
	}
	if err != nil {
		return inputError(stderr, err)
	}
	switch {
	case *workers < 0:
		return inputError(stderr, fmt.Errorf("--workers %d (accepted: 0 for all cores, or a positive count): %w", *workers, errUsage))
	case *timeout < 0 || sf.setupTimeout < 0:
		return inputError(stderr, fmt.Errorf("--timeout and --setup-timeout must not be negative: %w", errUsage))
	case *podSlots < 0 || *podSlots > kivi.MaxPodSlots:
		return inputError(stderr, fmt.Errorf("--pod-slots %d (accepted: 0 for the computed size, or 1..%d): %w", *podSlots, kivi.MaxPodSlots, errUsage))
	case *maxStates < 0:
		return inputError(stderr, fmt.Errorf("--max-states %d (accepted: 0 for no bound, or a positive count): %w", *maxStates, errUsage))
	case *cronJobRuns < 0 || *cronJobRuns > kivi.MaxCronJobRuns:
		return inputError(stderr, fmt.Errorf("--cronjob-runs %d (accepted: 0 for no assumption, or 1..%d): %w", *cronJobRuns, kivi.MaxCronJobRuns, errUsage))
	}
	if *podSlots > 0 {
		c.PodSlots = *podSlots
	}
	// The text report prints the steps' lines; only the JSON documents
	// (a shard result is one) and the explorer page draw the cluster at
	// every step.
	opts := kivi.Options{NoSnapshots: !*jsonOut && !page.wanted() && sf.shard == ""}
	opts.ApplyInOrder = *applyInOrder
	opts.CronJobRuns = *cronJobRuns
	opts.MergeOldRevisions = *mergeOldRevisions
	opts.ReadyAtStart = *readyAtStart
	opts.Intents.EvictionCounter = *counter
	opts.Intents.BalanceAtPodStart = *balanceAtStart
	co := &opts.Checker
	co.Workers, co.Timeout, co.MaxStates, co.CollectAll = *workers, *timeout, *maxStates, *all
	if co.MaxMemory, err = parseSize(*maxMemory); err != nil {
		return inputError(stderr, fmt.Errorf("--max-memory: %w", err))
	}
	if co.MaxMemory == 0 {
		co.MaxMemory = defaultMemoryBudget()
	}
	// The budget bounds the engine's memory, outside the Go heap; the
	// heap's garbage is kept within the allowance over the budget by a
	// soft limit (goMemoryLimit). A library does not touch this setting;
	// the command owns its process.
	debug.SetMemoryLimit(goMemoryLimit(co.MaxMemory))
	switch *storage {
	case "exact":
	case "compact":
		co.Storage = kivi.CompactStorage
	case "bitstate":
		co.Storage = kivi.BitstateStorage
	default:
		return inputError(stderr, fmt.Errorf("--storage %q (accepted: exact, compact, bitstate): %w", *storage, errUsage))
	}
	for _, sw := range []struct {
		flag, value string
		off         *bool
	}{{"symmetry", *symmetry, &co.NoSymmetry}, {"por", *por, &co.NoPOR}, {"depth-first", *depthFirst, &opts.NoDepthFirst}} {
		switch sw.value {
		case "on":
		case "off":
			*sw.off = true
		default:
			return inputError(stderr, fmt.Errorf("--%s %q (accepted: on, off): %w", sw.flag, sw.value, errUsage))
		}
	}
	switch *strategy {
	case "bfs":
	case "dfs":
		co.Strategy = kivi.DFS
	default:
		return inputError(stderr, fmt.Errorf("--strategy %q (accepted: bfs, dfs): %w", *strategy, errUsage))
	}
	if *seed != 0 && co.Strategy != kivi.DFS {
		return inputError(stderr, fmt.Errorf("--seed %d orders a depth-first search (accepted: with --strategy dfs): %w", *seed, errUsage))
	}
	co.Seed = *seed
	if *seed != 0 {
		// The search a depth-first phase's report names, alone: a quick
		// pass first could stop the run at another violation.
		opts.NoQuickPass = true
	}
	if !*quiet && isTerminal(stderr) {
		co.OnProgress = func(p kivi.Progress) {
			fmt.Fprintf(stderr, "\r%d states, %d transitions, depth %d, queue %d, %.0f states/s, %s   ",
				p.States, p.Transitions, p.Depth, p.Queue, p.StatesPerS, p.Elapsed.Round(time.Second))
		}
	}
	if *search && *original {
		return inputError(stderr, fmt.Errorf("--search and --original contradict each other (accepted: one of them): %w", errUsage))
	}
	if sf.shard != "" && page.wanted() {
		return inputError(stderr, fmt.Errorf("--html with --shard: a shard writes a result for kivi merge, not a report (accepted: --html without --shard): %w", errUsage))
	}
	if own {
		// A user's own cluster is verified as written: a verdict at
		// another size is about a cluster the user did not write. The
		// search is opt-in and stays inside the input's bounds.
		if inf.logs && *search {
			return inputError(stderr, fmt.Errorf("--search with --logs: a running cluster is one topology (accepted: --logs alone): %w", errUsage))
		}
		if inf.currentPlacement && *search {
			return inputError(stderr, fmt.Errorf("--search with --current-placement: a running cluster is one topology (accepted: --current-placement alone): %w", errUsage))
		}
		if *search {
			in := scaling.InputSetup(c)
			return runScaling(ctx, c, opts, sf, *all, *jsonOut, stdout, stderr, !*quiet && isTerminal(stderr), &in, jsonWarnings(inf.warnings), page)
		}
		*original = true
	}
	if !*original {
		return runScaling(ctx, c, opts, sf, *all, *jsonOut, stdout, stderr, !*quiet && isTerminal(stderr), nil, jsonWarnings(inf.warnings), page)
	}
	if sf.shard != "" {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		return runSwarm(ctx, c, opts, sf, set, stdout, stderr, jsonWarnings(inf.warnings))
	}
	var rep *kivi.Report
	p, err := kivi.NewProblem(c, opts)
	switch {
	case errors.Is(err, kivi.ErrModelBound):
		// Too large for the model: no verdict, and not the user's mistake.
		rep = kivi.BoundReport(c, err)
	case err != nil:
		return inputError(stderr, err)
	default:
		if !*jsonOut {
			p.Header().Write(stdout)
		}
		rep, err = p.Check(ctx, opts.Checker)
		if co.OnProgress != nil {
			fmt.Fprint(stderr, "\r\033[K")
		}
		if err != nil {
			fmt.Fprintf(stderr, "kivi: %v\n", err)
			return exitInput
		}
	}
	if !*jsonOut {
		rep.WriteFailures(stdout)
	}
	if err := writeDocument(rep, jsonWarnings(inf.warnings), *jsonOut, stdout, page); err != nil {
		fmt.Fprintf(stderr, "kivi: %v\n", err)
		return exitInput
	}
	switch rep.Verdict() {
	case kivi.Violated:
		return exitViolated
	case kivi.Unknown:
		return exitUnknown
	}
	return exitHolds
}

// writeDocument writes rep's JSON document to stdout when jsonOut and
// renders the explorer page when one is wanted; it builds the document
// only then.
func writeDocument(rep *kivi.Report, warnings []kivi.JSONWarning, jsonOut bool, stdout io.Writer, page *pageOut) error {
	if !jsonOut && !page.wanted() {
		return nil
	}
	doc := rep.JSON()
	doc.Warnings = warnings
	if jsonOut {
		if err := doc.WriteJSON(stdout); err != nil {
			return err
		}
	}
	return page.emit(func(w io.Writer) error { return doc.WriteHTML(w) })
}

func inputError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "kivi: %v\n", err)
	if errors.Is(err, errUsage) {
		fmt.Fprintln(stderr, "run 'kivi help' for usage")
	}
	return exitInput
}

// parseSize parses "4GiB", "512MB", "1G" or a byte count; "" is 0.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || f < 0 {
				break
			}
			return int64(f * float64(u.mult)), nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q (accepted: a byte count or a size like 512MiB, 4GiB, 2GB): %w", s, errUsage)
	}
	return n, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
