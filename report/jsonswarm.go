package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/scaling"
)

// ShardModeSwarm is the "shard.mode" of a swarm shard: seeded
// depth-first searches of one topology (compose.Problem.SwarmShard),
// where a scaling shard says how setups were dealt (interleaved or
// contiguous). An older kivi refuses it as an unknown shard mode.
const ShardModeSwarm = "swarm"

// Swarm is what one shard of a swarm did: shard K of N ran the seeds
// Seeds (K+1, K+1+N, …) in that order.
type Swarm struct {
	K, N  int
	Seeds []uint64
	// Finished is the seed of a search that explored everything (0:
	// none did); only such a search shows that an intent holds.
	Finished uint64
	// Fingerprint identifies the model and the options that change the
	// state space (compose.Problem.Fingerprint): shards of a merge must
	// agree on it.
	Fingerprint string
	// All: every intent was to be settled (--all); shards of a merge
	// must agree.
	All bool
	// Interrupted: the caller cancelled the shard (a signal), not its
	// own timeout or state budget.
	Interrupted bool
	// Report is the shard's report: the search's that explored
	// everything, else the one that found most, with every violation's
	// seed.
	Report *Report
}

// SwarmShardJSON is the document of one swarm shard: a topology report
// of mode ModeShard with what kivi merge checks in "shard".
func SwarmShardJSON(name string, s *Swarm, warnings []JSONWarning) JSONReport {
	doc := s.Report.JSON()
	doc.Mode, doc.Name = ModeShard, name
	doc.Warnings = append([]JSONWarning{}, warnings...)
	doc.Shard = &JSONShard{K: s.K, N: s.N, Mode: ShardModeSwarm, All: s.All, Interrupted: s.Interrupted,
		Seeds: append([]uint64{}, s.Seeds...), Finished: s.Finished, Fingerprint: s.Fingerprint}
	return doc
}

// JSONSwarm is what a merge of swarm shards says of the swarm.
type JSONSwarm struct {
	N           int    `json:"n"`
	Fingerprint string `json:"fingerprint"`
	All         bool   `json:"all"`
	// Shards are the shards in order of K.
	Shards []JSONSwarmShard `json:"shards"`
}

// JSONSwarmShard is one shard of a merged swarm.
type JSONSwarmShard struct {
	K     int      `json:"k"`
	Seeds []uint64 `json:"seeds"`
	// Finished is the seed of the shard's search that explored
	// everything, if one did.
	Finished    uint64 `json:"finished,omitempty"`
	Interrupted bool   `json:"interrupted"`
	Verdict     string `json:"verdict"`
	States      int64  `json:"states"`
}

// IsSwarmShard reports whether data is a swarm shard document (mode
// shard, shard.mode swarm), so that kivi merge tells the two kinds of
// shards apart before reading them.
func IsSwarmShard(data []byte) bool {
	var head struct {
		Mode  string `json:"mode"`
		Shard *struct {
			Mode string `json:"mode"`
		} `json:"shard"`
	}
	return json.Unmarshal(data, &head) == nil && head.Mode == ModeShard && head.Shard != nil && head.Shard.Mode == ShardModeSwarm
}

// ReadSwarmShard reads a swarm shard document (SwarmShardJSON's) and
// checks what MergeSwarm relies on: its version, its mode, its shard
// and its intents' verdicts.
func ReadSwarmShard(data []byte) (JSONReport, error) {
	var doc JSONReport
	if err := json.Unmarshal(data, &doc); err != nil {
		return JSONReport{}, fmt.Errorf("%w: %w", scaling.ErrShard, err)
	}
	sh := doc.Shard
	switch {
	case doc.SchemaVersion > SchemaVersion:
		return JSONReport{}, fmt.Errorf("report schema version %d is newer than this kivi's %d; merge with the kivi that wrote it: %w", doc.SchemaVersion, SchemaVersion, scaling.ErrShard)
	case doc.SchemaVersion < 2 || doc.Mode != ModeShard || sh == nil:
		return JSONReport{}, fmt.Errorf("not a shard (write one with kivi verify --shard K/N): %w", scaling.ErrShard)
	case sh.Mode != ShardModeSwarm:
		return JSONReport{}, fmt.Errorf("shard.mode %q is a scaling-search shard, not a swarm shard: %w", sh.Mode, scaling.ErrShard)
	case sh.N < 1 || sh.K < 0 || sh.K >= sh.N:
		return JSONReport{}, fmt.Errorf("shard %d/%d (accepted: 0 ≤ K < N): %w", sh.K, sh.N, scaling.ErrShard)
	case sh.Fingerprint == "":
		return JSONReport{}, fmt.Errorf("shard %d/%d: no shard.fingerprint: %w", sh.K, sh.N, scaling.ErrShard)
	}
	if _, ok := parseVerdict(doc.Verdict); !ok {
		return JSONReport{}, fmt.Errorf("verdict %q (accepted: holds, violated, unknown): %w", doc.Verdict, scaling.ErrShard)
	}
	seen := map[string]bool{}
	for i, in := range doc.Intents {
		if _, ok := parseVerdict(in.Verdict); !ok {
			return JSONReport{}, fmt.Errorf("intents[%d].verdict %q (accepted: holds, violated, unknown): %w", i, in.Verdict, scaling.ErrShard)
		}
		if seen[in.Name] {
			return JSONReport{}, fmt.Errorf("intents[%d]: %q twice: %w", i, in.Name, scaling.ErrShard)
		}
		seen[in.Name] = true
	}
	return doc, nil
}

// MergeSwarm combines the N shards of one swarm (ReadSwarmShard's
// documents, in the order given) into a document of mode ModeMerge:
//
//   - an intent is violated if a shard found it violated; the
//     shortest counterexample is kept (ties: the lowest seed), and the
//     intent names its shard and seed;
//   - it holds only if a shard's search explored everything and it
//     held there;
//   - otherwise it is unknown: no search of the swarm finished.
//
// It refuses shards of different swarms (N, fingerprint, --all), a
// shard given twice and missing shards, naming them as scaling.Merge
// does.
func MergeSwarm(shards ...JSONReport) (JSONReport, error) {
	if len(shards) == 0 {
		return JSONReport{}, fmt.Errorf("merge: no swarm shards: %w", scaling.ErrShard)
	}
	for i, s := range shards {
		if s.Shard == nil || s.Shard.N < 1 {
			return JSONReport{}, fmt.Errorf("merge: argument %d is not a swarm shard (ReadSwarmShard checks one): %w", i+1, scaling.ErrShard)
		}
	}
	ref := *shards[0].Shard
	seen := make([]bool, ref.N)
	for i, s := range shards {
		sh := s.Shard
		at := fmt.Sprintf("merge: swarm shard %d/%d (argument %d)", sh.K, sh.N, i+1)
		switch {
		case sh.N != ref.N:
			return JSONReport{}, fmt.Errorf("%s: shard %d/%d is of a swarm of %d: %w", at, ref.K, ref.N, ref.N, scaling.ErrShard)
		case sh.Fingerprint != ref.Fingerprint:
			return JSONReport{}, fmt.Errorf("%s: input fingerprint %s differs from %s of shard %d/%d (another input or other options): %w", at, sh.Fingerprint, ref.Fingerprint, ref.K, ref.N, scaling.ErrShard)
		case sh.All != ref.All:
			return JSONReport{}, fmt.Errorf("%s: all=%v but shard %d/%d has all=%v: %w", at, sh.All, ref.K, ref.N, ref.All, scaling.ErrShard)
		case sh.K < 0 || sh.K >= ref.N:
			return JSONReport{}, fmt.Errorf("%s: accepted 0 ≤ K < N: %w", at, scaling.ErrShard)
		case seen[sh.K]:
			return JSONReport{}, fmt.Errorf("%s: given twice: %w", at, scaling.ErrShard)
		case !slices.EqualFunc(s.Intents, shards[0].Intents, func(a, b JSONIntent) bool { return a.Name == b.Name }):
			return JSONReport{}, fmt.Errorf("%s: its intents differ from those of shard %d/%d: %w", at, ref.K, ref.N, scaling.ErrShard)
		}
		seen[sh.K] = true
	}
	var missing []string
	for k, ok := range seen {
		if !ok {
			missing = append(missing, strconv.Itoa(k)+"/"+strconv.Itoa(ref.N))
		}
	}
	if len(missing) > 0 {
		return JSONReport{}, fmt.Errorf("merge: missing swarm shard(s) %s: %w", strings.Join(missing, ", "), scaling.ErrShard)
	}
	ordered := slices.Clone(shards)
	slices.SortFunc(ordered, func(a, b JSONReport) int { return a.Shard.K - b.Shard.K })
	return mergeSwarm(ordered), nil
}

// mergeSwarm merges checked shards, in order of K.
func mergeSwarm(shards []JSONReport) JSONReport {
	first := shards[0]
	out := JSONReport{SchemaVersion: SchemaVersion, Mode: ModeMerge, Name: first.Name, Intents: []JSONIntent{},
		Warnings: []JSONWarning{}, Assumptions: first.Assumptions,
		Swarm: &JSONSwarm{N: first.Shard.N, Fingerprint: first.Shard.Fingerprint, All: first.Shard.All}}
	seen := map[string]bool{}
	var elapsed float64
	var seeds int
	for _, s := range shards {
		for _, w := range s.Warnings {
			if !seen[w.Text] {
				seen[w.Text] = true
				out.Warnings = append(out.Warnings, w)
			}
		}
		st := &out.Stats
		st.add(s.Stats)
		st.Complete = st.Complete || s.Stats.Complete && s.Shard.Finished != 0
		st.Symmetry, st.POR = first.Stats.Symmetry, first.Stats.POR
		if out.Bound == "" {
			out.Bound = s.Bound
		}
		elapsed = max(elapsed, s.Measured.ElapsedS)
		out.Measured.BytesPerState = max(out.Measured.BytesPerState, s.Measured.BytesPerState)
		seeds += len(s.Shard.Seeds)
		out.Swarm.Shards = append(out.Swarm.Shards, JSONSwarmShard{K: s.Shard.K, Seeds: append([]uint64{}, s.Shard.Seeds...),
			Finished: s.Shard.Finished, Interrupted: s.Shard.Interrupted, Verdict: s.Verdict, States: s.Stats.States})
	}
	out.Measured.ElapsedS = elapsed
	if elapsed > 0 {
		out.Measured.StatesPerS = float64(out.Stats.States) / elapsed
	}
	for i := range first.Intents {
		out.Intents = append(out.Intents, mergeSwarmIntent(shards, i, seeds))
	}
	out.Verdict = checker.Holds.String()
	for _, in := range out.Intents {
		switch in.Verdict {
		case checker.Violated.String():
			out.Verdict = in.Verdict
		case checker.Unknown.String():
			if out.Verdict == checker.Holds.String() {
				out.Verdict = in.Verdict
			}
		}
	}
	return out
}

// mergeSwarmIntent merges the shards' verdicts on their i-th intent.
func mergeSwarmIntent(shards []JSONReport, i, seeds int) JSONIntent {
	var best *JSONIntent
	bestK := 0
	for _, s := range shards {
		in := s.Intents[i]
		if in.Verdict == checker.Violated.String() && (best == nil || shorter(in, *best)) {
			best, bestK = &in, s.Shard.K
		}
	}
	if best != nil {
		out := *best
		out.Shard = &bestK
		return out
	}
	for _, s := range shards {
		if in := s.Intents[i]; in.Verdict == checker.Holds.String() && s.Shard.Finished != 0 && s.Stats.Complete {
			return in
		}
	}
	out := JSONIntent{Name: shards[0].Intents[i].Name, Verdict: checker.Unknown.String()}
	for _, s := range shards {
		if s.Bound != "" {
			// A bound of the model: no seed gets past it.
			out.Reason = s.Intents[i].Reason
			return out
		}
	}
	if !shards[0].Shard.All && violated(shards) {
		out.Reason = "the swarm stopped at its first violations before it settled this intent (--all settles every intent)"
		return out
	}
	out.Reason = fmt.Sprintf("no search of the swarm finished (%d shards, %d seeded depth-first searches): a swarm finds violations; only a search that explores everything shows that an intent holds", len(shards), seeds)
	return out
}

// violated: some shard found some intent violated.
func violated(shards []JSONReport) bool {
	for _, s := range shards {
		if _, ok := s.FirstViolation(); ok {
			return true
		}
	}
	return false
}

// shorter: a's counterexample is shorter than b's, or as long and found
// with a lower seed.
func shorter(a, b JSONIntent) bool {
	la, lb := steps(a), steps(b)
	if la != lb {
		return la < lb
	}
	return a.Seed < b.Seed
}

// steps is the length of an intent's counterexample: its trace's steps,
// or its lines when the trace is absent.
func steps(in JSONIntent) int {
	if in.Trace != nil {
		return len(in.Trace.Steps)
	}
	return len(in.Counterexample)
}

// WriteSwarm writes a merged swarm (MergeSwarm's document) for an
// operator: what each shard ran, each violation with its counterexample
// and the shard and seed that found it, and the verdicts. repeat is the
// command that verifies the input (without the swarm's flags), to which
// `--strategy dfs --seed S` is added; "" leaves it generic.
func WriteSwarm(w io.Writer, doc JSONReport, repeat string) {
	sw := doc.Swarm
	fmt.Fprintf(w, "Swarm of %d shard(s) over %s (input %s)\n", sw.N, doc.Name, shortHash(sw.Fingerprint))
	for _, s := range sw.Shards {
		fmt.Fprintf(w, "    shard %d/%d: seeds %s, %d states: %s", s.K, sw.N, seedList(s.Seeds), s.States, s.Verdict)
		if s.Finished != 0 {
			fmt.Fprintf(w, "; the search with seed %d explored everything", s.Finished)
		}
		if s.Interrupted {
			fmt.Fprint(w, "; interrupted")
		}
		fmt.Fprintln(w)
	}
	if repeat == "" {
		repeat = "kivi verify INPUT"
	}
	var violated []JSONIntent
	for _, in := range doc.Intents {
		if in.Verdict == checker.Violated.String() {
			violated = append(violated, in)
		}
	}
	writeFailureList(w, len(violated), func(i int) {
		in := violated[i]
		in.WriteCounterexample(w)
		if in.Shard != nil {
			fmt.Fprintf(w, "Found by shard %d/%d, seed %d: `%s --strategy dfs --seed %d` repeats that search.\n", *in.Shard, sw.N, in.Seed, repeat, in.Seed)
		}
	})
	fmt.Fprintln(w, "Summary:")
	for _, in := range doc.Intents {
		switch in.Verdict {
		case checker.Violated.String():
			fmt.Fprintf(w, "    %s: violated (shard %d/%d, seed %d)\n", in.Name, deref(in.Shard), sw.N, in.Seed)
		case checker.Unknown.String():
			fmt.Fprintf(w, "    %s: unknown (%s)\n", in.Name, in.Reason)
		default:
			fmt.Fprintf(w, "    %s: holds\n", in.Name)
		}
	}
	fmt.Fprintf(w, "    Verdict: %s\n", doc.Verdict)
	fmt.Fprintf(w, "    States: %d in all; elapsed time %.2f seconds (the slowest shard)\n", doc.Stats.States, doc.Measured.ElapsedS)
	fmt.Fprintln(w)
}

func deref(k *int) int {
	if k == nil {
		return -1
	}
	return *k
}

func seedList(seeds []uint64) string {
	if len(seeds) == 0 {
		return "none"
	}
	var s []string
	for _, x := range seeds {
		s = append(s, strconv.FormatUint(x, 10))
	}
	return strings.Join(s, ", ")
}

func shortHash(h string) string {
	if len(h) > 19 {
		return h[:19] + "…"
	}
	return h
}
