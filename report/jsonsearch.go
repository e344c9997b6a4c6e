package report

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/scaling"
)

// JSONSetup is one setup of a search document.
type JSONSetup struct {
	// Index is the setup's position in the whole search (from 0).
	Index int `json:"index"`
	// Setup is Kivi's rendering, "{node type 0: 1, deployment type 0: 2}".
	Setup string `json:"setup"`
	// Size is the same as numbers: nodes per node type, replicas per
	// deployment. kivi merge checks a shard's list against it.
	Size scaling.Setup `json:"size"`
	// Status is held, failed, unknown or not-run.
	Status   string `json:"status"`
	TimedOut bool   `json:"timedOut,omitempty"`
	// SizeOfInput: whether the setup is the input's own size (absent for
	// Kivi's cases and case files).
	SizeOfInput *bool `json:"sizeOfInput,omitempty"`
	// Report is the setup's own topology report; absent when not run.
	Report *JSONReport `json:"report,omitempty"`
}

// JSONSetupRef points at one setup of a search document.
type JSONSetupRef struct {
	Index int    `json:"index"`
	Setup string `json:"setup"`
}

// JSONSetupCounts counts a search's setups by status.
type JSONSetupCounts struct {
	Total   int `json:"total"`
	Held    int `json:"held"`
	Failed  int `json:"failed"`
	Unknown int `json:"unknown"`
	NotRun  int `json:"notRun"`
}

// JSONShard is what kivi merge needs to know of a shard document.
type JSONShard struct {
	K int `json:"k"`
	N int `json:"n"`
	// Mode is how setups were dealt: interleaved or contiguous; or
	// ShardModeSwarm for a swarm shard (jsonswarm.go).
	Mode string `json:"mode"`
	// ListHash and Total identify the whole setup list (scaling.ListHash);
	// absent in a swarm shard.
	ListHash string `json:"listHash,omitempty"`
	Total    int    `json:"total,omitempty"`
	// All: the run kept going after failures (--all); every shard of a
	// merge must agree.
	All         bool `json:"all"`
	Interrupted bool `json:"interrupted"`
	// InputSize is the document's inputSetup as numbers, so that the
	// merged document can say which setups are the input's size.
	InputSize *scaling.Setup `json:"inputSize,omitempty"`
	// Seeds are the seeds of a swarm shard's searches, in the order they
	// were dealt (K+1, K+1+N, …).
	Seeds []uint64 `json:"seeds,omitempty"`
	// Finished is the seed of a swarm shard's search that explored
	// everything; absent when none did.
	Finished uint64 `json:"finished,omitempty"`
	// Fingerprint identifies a swarm shard's model and the options that
	// change its state space (compose.Problem.Fingerprint).
	Fingerprint string `json:"fingerprint,omitempty"`
}

// SearchJSON is the document of a scaling search (mode ModeSearch) or of
// merged shards (ModeMerge): the same top-level keys as a topology
// report, summed over the setups, plus every setup with its own report.
// input is the size of a user's own configuration (nil for Kivi's cases).
func SearchJSON(mode, name string, res scaling.Result, input *scaling.Setup, warnings []JSONWarning) JSONReport {
	return searchDoc(mode, name, res.Setups, res.Interrupted, res.Elapsed, input, warnings)
}

// ShardJSON is the document of one shard (--shard K/N): a search document
// over the shard's slice, with what kivi merge checks in "shard".
func ShardJSON(name string, r scaling.ShardResult, input *scaling.Setup, warnings []JSONWarning) JSONReport {
	doc := searchDoc(ModeShard, name, r.Setups, r.Interrupted, r.Elapsed, input, warnings)
	doc.Shard = &JSONShard{K: r.Shard.K, N: r.Shard.N, Mode: r.Shard.Mode.String(), ListHash: r.ListHash, Total: r.Total,
		All: r.All, Interrupted: r.Interrupted}
	if input != nil {
		in := sizeCopy(*input)
		doc.Shard.InputSize = &in
	}
	if doc.Setups == nil {
		// A shard of more shards than setups has an empty slice: still a
		// list, as the schema requires for the search modes.
		doc.Setups = []JSONSetup{}
	}
	return doc
}

// sizeCopy returns s with non-nil lists (JSON arrays, never null).
func sizeCopy(s scaling.Setup) scaling.Setup {
	return scaling.Setup{Nodes: append([]int{}, s.Nodes...), Replicas: append([]int{}, s.Replicas...)}
}

func searchDoc(mode, name string, setups []scaling.SetupResult, interrupted bool, elapsed time.Duration, input *scaling.Setup, warnings []JSONWarning) JSONReport {
	doc := JSONReport{SchemaVersion: SchemaVersion, Mode: mode, Name: name, Intents: []JSONIntent{},
		Warnings: append([]JSONWarning{}, warnings...)}
	if input != nil {
		doc.InputSetup = input.String()
	}
	counts := JSONSetupCounts{Total: len(setups)}
	complete, reductions := true, false
	// Intents over the setups, in the order they first appear.
	var order []string
	agg := map[string]*JSONIntent{}
	var maxBPS float64
	for _, s := range setups {
		js := JSONSetup{Index: s.Index, Setup: s.Setup.String(), Size: sizeCopy(s.Setup), Status: s.Status.String(), TimedOut: s.TimedOut}
		if input != nil {
			same := s.Setup.Equal(*input)
			js.SizeOfInput = &same
		}
		switch s.Status {
		case scaling.Held:
			counts.Held++
		case scaling.Failed:
			counts.Failed++
			if doc.FirstFailure == nil {
				doc.FirstFailure = &JSONSetupRef{Index: s.Index, Setup: js.Setup}
			}
		case scaling.Unknown:
			counts.Unknown++
		default:
			counts.NotRun++
		}
		if s.Status == scaling.NotRun {
			complete = false
			doc.Setups = append(doc.Setups, js)
			continue
		}
		r := SetupReport(s.Outcome.Detail)
		js.Report = r
		doc.Setups = append(doc.Setups, js)
		if r == nil {
			complete = false
			continue
		}
		st := &doc.Stats
		st.add(r.Stats)
		complete = complete && r.Stats.Complete
		if !reductions {
			// Every setup runs with the same options: the first says.
			st.Symmetry, st.POR, reductions = r.Stats.Symmetry, r.Stats.POR, true
		}
		maxBPS = max(maxBPS, r.Measured.BytesPerState)
		for _, in := range r.Intents {
			a, ok := agg[in.Name]
			if !ok {
				a = &JSONIntent{Name: in.Name, Verdict: checker.Holds.String()}
				agg[in.Name] = a
				order = append(order, in.Name)
			}
			switch {
			case a.Verdict == checker.Violated.String():
			case in.Verdict == checker.Violated.String():
				*a = JSONIntent{Name: in.Name, Verdict: in.Verdict, Explanation: in.Explanation, FoundBy: in.FoundBy, Seed: in.Seed, Setup: js.Setup}
			case in.Verdict == checker.Unknown.String() && a.Verdict == checker.Holds.String():
				a.Verdict, a.Reason = in.Verdict, in.Reason+" (setup "+js.Setup+")"
			}
		}
	}
	for _, n := range order {
		a := agg[n]
		if a.Verdict == checker.Holds.String() && counts.NotRun > 0 {
			// Held where it was checked, but not every setup was.
			a.Verdict, a.Reason = checker.Unknown.String(), "not every setup was verified"
		}
		doc.Intents = append(doc.Intents, *a)
	}
	doc.Stats.Complete = complete && len(setups) > 0
	doc.Stats.Setups = &counts
	switch {
	case counts.Failed > 0:
		doc.Verdict = checker.Violated.String()
	case counts.Unknown > 0 || counts.NotRun > 0 || interrupted:
		doc.Verdict = checker.Unknown.String()
	default:
		doc.Verdict = checker.Holds.String()
	}
	doc.Measured = JSONMeasured{ElapsedS: elapsed.Seconds(), BytesPerState: maxBPS}
	if elapsed > 0 {
		doc.Measured.StatesPerS = float64(doc.Stats.States) / elapsed.Seconds()
	}
	return doc
}

// SetupReport recovers a setup's topology report from a search outcome's
// Detail: a value in a run, raw JSON after reading a shard file. A report
// of schema version 1 (an older kivi's shard file) is brought to this
// version: mode topology, no warnings (version 1 did not record them),
// and each trace step's objects computed from its snapshots, which
// version 1 already had. nil if Detail is not a report.
func SetupReport(d any) *JSONReport {
	var r JSONReport
	switch x := d.(type) {
	case JSONReport:
		r = x
	case *JSONReport:
		if x == nil {
			return nil
		}
		r = *x
	case json.RawMessage:
		if json.Unmarshal(x, &r) != nil || r.SchemaVersion == 0 {
			return nil
		}
	default:
		return nil
	}
	if r.SchemaVersion < SchemaVersion {
		r.SchemaVersion, r.Mode = SchemaVersion, ModeTopology
		if r.Warnings == nil {
			r.Warnings = []JSONWarning{}
		}
		if r.Intents == nil {
			r.Intents = []JSONIntent{}
		}
		for i := range r.Intents {
			if t := r.Intents[i].Trace; t != nil {
				prev := t.Initial
				for j := range t.Steps {
					t.Steps[j].Objects = touched(prev, t.Steps[j].Cluster)
					prev = t.Steps[j].Cluster
				}
			}
		}
	}
	return &r
}

// ShardFile is a shard document read back for kivi merge.
type ShardFile struct {
	Result   scaling.ShardResult
	Name     string
	Warnings []JSONWarning
	// Input is the size of the user's configuration, nil for a case.
	Input *scaling.Setup
}

// ReadShard reads a shard document (ShardJSON's). It also reads the
// shard files of earlier versions of kivi (format "kivi-scaling-shard"
// version 1, scaling.ShardResult's own JSON): they merge like new ones,
// and their setups' reports are brought to this schema (SetupReport).
func ReadShard(data []byte) (ShardFile, error) {
	var head struct {
		Format        string `json:"format"`
		SchemaVersion int    `json:"schemaVersion"`
		Mode          string `json:"mode"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return ShardFile{}, fmt.Errorf("%w: %w", scaling.ErrShard, err)
	}
	switch {
	case head.Format == scaling.ShardFormat:
		var r scaling.ShardResult
		if err := json.Unmarshal(data, &r); err != nil {
			return ShardFile{}, err
		}
		return ShardFile{Result: r, Name: "merged", Warnings: []JSONWarning{}}, nil
	case head.SchemaVersion > SchemaVersion:
		return ShardFile{}, fmt.Errorf("report schema version %d is newer than this kivi's %d; merge with the kivi that wrote it: %w", head.SchemaVersion, SchemaVersion, scaling.ErrShard)
	case head.SchemaVersion < 2 || head.Mode != ModeShard:
		what := "a JSON document"
		if head.Mode != "" {
			what = fmt.Sprintf("a %q report", head.Mode)
		}
		return ShardFile{}, fmt.Errorf("%s, not a shard (write one with kivi verify --shard K/N --json): %w", what, scaling.ErrShard)
	}
	var doc JSONReport
	if err := json.Unmarshal(data, &doc); err != nil {
		return ShardFile{}, fmt.Errorf("%w: %w", scaling.ErrShard, err)
	}
	if doc.Shard == nil {
		return ShardFile{}, fmt.Errorf("a shard report without \"shard\": %w", scaling.ErrShard)
	}
	if doc.Shard.Mode == ShardModeSwarm {
		return ShardFile{}, fmt.Errorf("a swarm shard, not a scaling-search shard: merge it with the other shards of its swarm only: %w", scaling.ErrShard)
	}
	mode, err := scaling.ParseShardMode(doc.Shard.Mode)
	if err != nil {
		return ShardFile{}, fmt.Errorf("shard.mode: %w", err)
	}
	out := ShardFile{Name: doc.Name, Warnings: doc.Warnings, Input: doc.Shard.InputSize}
	// Version is the in-memory result's, whichever file it came from:
	// scaling.Merge checks it.
	out.Result = scaling.ShardResult{Version: scaling.ShardFormatVersion, ListHash: doc.Shard.ListHash, Total: doc.Shard.Total,
		Shard: scaling.Shard{K: doc.Shard.K, N: doc.Shard.N, Mode: mode}, All: doc.Shard.All, Interrupted: doc.Shard.Interrupted,
		Elapsed: time.Duration(doc.Measured.ElapsedS * float64(time.Second))}
	for i, s := range doc.Setups {
		st, ok := parseStatus(s.Status)
		if !ok {
			return ShardFile{}, fmt.Errorf("setups[%d].status %q (accepted: held, failed, unknown, not-run): %w", i, s.Status, scaling.ErrShard)
		}
		sr := scaling.SetupResult{Index: s.Index, Setup: s.Size, Status: st, TimedOut: s.TimedOut}
		if st != scaling.NotRun {
			r := s.Report
			if r == nil {
				return ShardFile{}, fmt.Errorf("setups[%d] (%s) was run but has no report: %w", i, s.Setup, scaling.ErrShard)
			}
			v, ok := parseVerdict(r.Verdict)
			if !ok {
				return ShardFile{}, fmt.Errorf("setups[%d].report.verdict %q: %w", i, r.Verdict, scaling.ErrShard)
			}
			sr.Elapsed = time.Duration(r.Measured.ElapsedS * float64(time.Second))
			sr.Outcome = scaling.Outcome{Verdict: v, Detail: *r, Stats: checker.Stats{States: r.Stats.States, Matched: r.Stats.Matched,
				Transitions: r.Stats.Transitions, MaxDepth: r.Stats.MaxDepth, AmpleExpansions: r.Stats.AmpleExpansions,
				ProvisoExpansions: r.Stats.ProvisoExpansions, Elapsed: sr.Elapsed, StatesPerS: r.Measured.StatesPerS,
				BytesPerState: r.Measured.BytesPerState}}
			for _, in := range r.Intents {
				if in.Verdict == checker.Violated.String() {
					sr.Outcome.Violated = append(sr.Outcome.Violated, in.Name)
				}
			}
		}
		out.Result.Setups = append(out.Result.Setups, sr)
	}
	return out, nil
}

func parseStatus(s string) (scaling.Status, bool) {
	for _, st := range []scaling.Status{scaling.NotRun, scaling.Held, scaling.Failed, scaling.Unknown} {
		if st.String() == s {
			return st, true
		}
	}
	return 0, false
}

func parseVerdict(s string) (checker.Verdict, bool) {
	for _, v := range []checker.Verdict{checker.Holds, checker.Violated, checker.Unknown} {
		if v.String() == s {
			return v, true
		}
	}
	return 0, false
}
