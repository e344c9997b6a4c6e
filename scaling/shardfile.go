package scaling

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kivi-go/kivi/checker"
)

// ShardFormat and ShardFormatVersion identify this package's JSON
// shard-result format; a reader refuses other versions instead of
// guessing. The kivi CLI writes its shard files as JSON reports instead
// (kivi.ShardJSON, docs/json.md) and still reads this format, which its
// earlier releases wrote (kivi.ReadShard).
const (
	ShardFormat        = "kivi-scaling-shard"
	ShardFormatVersion = 1
)

// ShardResult is what one shard found: the results of the setups of its
// slice (others are absent), under their global indices. It is written as
// JSON (MarshalJSON) by each shard process and read back by Merge.
type ShardResult struct {
	Version int
	// ListHash and Total identify the whole setup list (ListHash).
	ListHash string
	Total    int
	Shard    Shard
	// All is Options.All of the run; every shard of a merge must agree.
	All         bool
	Interrupted bool
	Elapsed     time.Duration
	// Setups are the shard's setups in increasing index order.
	Setups []SetupResult
}

// The wire format, version 1. Field names are part of the format.
type wireShard struct {
	Format      string      `json:"format"`
	Version     int         `json:"version"`
	ListHash    string      `json:"listHash"`
	Total       int         `json:"total"`
	Shard       wireShardID `json:"shard"`
	All         bool        `json:"all"`
	Interrupted bool        `json:"interrupted,omitempty"`
	ElapsedNs   int64       `json:"elapsedNs"`
	Setups      []wireSetup `json:"setups"`
}

type wireShardID struct {
	K    int    `json:"k"`
	N    int    `json:"n"`
	Mode string `json:"mode"`
}

type wireSetup struct {
	Index     int             `json:"index"`
	Setup     Setup           `json:"setup"`
	Text      string          `json:"text"` // Kivi's rendering, for people reading the file
	Status    string          `json:"status"`
	Verdict   string          `json:"verdict,omitempty"`
	Violated  []string        `json:"violated,omitempty"`
	TimedOut  bool            `json:"timedOut,omitempty"`
	ElapsedNs int64           `json:"elapsedNs,omitempty"`
	Stats     *wireStats      `json:"stats,omitempty"`
	Detail    json.RawMessage `json:"detail,omitempty"`
}

// wireStats is checker.Stats with enums as names and non-finite floats
// (which JSON cannot carry) as 0.
type wireStats struct {
	States              int64   `json:"states"`
	Matched             int64   `json:"matched"`
	Transitions         int64   `json:"transitions"`
	MaxDepth            int     `json:"maxDepth"`
	ElapsedNs           int64   `json:"elapsedNs"`
	StatesPerS          float64 `json:"statesPerS"`
	BytesPerState       float64 `json:"bytesPerState"`
	TableLoad           float64 `json:"tableLoad"`
	OmissionProbability float64 `json:"omissionProbability"`
	Storage             string  `json:"storage"`
	SwitchedToBitstate  bool    `json:"switchedToBitstate,omitempty"`
	Workers             int     `json:"workers"`
	VisitedBytes        int64   `json:"visitedBytes"`
	ParentBytes         int64   `json:"parentBytes"`
	ExpectedOmissions   float64 `json:"expectedOmissions"`
	Edges               int64   `json:"edges"`
	Strategy            string  `json:"strategy"`
}

func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

func toWireStats(s checker.Stats) *wireStats {
	return &wireStats{States: s.States, Matched: s.Matched, Transitions: s.Transitions, MaxDepth: s.MaxDepth,
		ElapsedNs: int64(s.Elapsed), StatesPerS: finite(s.StatesPerS), BytesPerState: finite(s.BytesPerState),
		TableLoad: finite(s.TableLoad), OmissionProbability: finite(s.OmissionProbability), Storage: s.Storage.String(),
		SwitchedToBitstate: s.SwitchedToBitstate, Workers: s.Workers, VisitedBytes: s.VisitedBytes,
		ParentBytes: s.ParentBytes, ExpectedOmissions: finite(s.ExpectedOmissions), Edges: s.Edges, Strategy: s.Strategy.String()}
}

func (w *wireStats) stats() (checker.Stats, error) {
	if w == nil {
		return checker.Stats{}, nil
	}
	s := checker.Stats{States: w.States, Matched: w.Matched, Transitions: w.Transitions, MaxDepth: w.MaxDepth,
		Elapsed: time.Duration(w.ElapsedNs), StatesPerS: w.StatesPerS, BytesPerState: w.BytesPerState,
		TableLoad: w.TableLoad, OmissionProbability: w.OmissionProbability, SwitchedToBitstate: w.SwitchedToBitstate,
		Workers: w.Workers, VisitedBytes: w.VisitedBytes, ParentBytes: w.ParentBytes,
		ExpectedOmissions: w.ExpectedOmissions, Edges: w.Edges}
	var ok bool
	if s.Storage, ok = parseEnum(w.Storage, checker.Exact, checker.HashCompaction, checker.Bitstate); !ok {
		return s, fmt.Errorf("stats.storage %q: unknown", w.Storage)
	}
	if s.Strategy, ok = parseEnum(w.Strategy, checker.BFS, checker.DFS); !ok {
		return s, fmt.Errorf("stats.strategy %q: unknown", w.Strategy)
	}
	return s, nil
}

// parseEnum finds the value whose String is name.
func parseEnum[E fmt.Stringer](name string, values ...E) (E, bool) {
	for _, v := range values {
		if v.String() == name {
			return v, true
		}
	}
	var zero E
	return zero, false
}

// MarshalJSON writes the versioned shard format. Outcome.Detail is
// marshalled with encoding/json and must therefore be serialisable.
func (r ShardResult) MarshalJSON() ([]byte, error) {
	w := wireShard{Format: ShardFormat, Version: r.Version, ListHash: r.ListHash, Total: r.Total,
		Shard: wireShardID{K: r.Shard.K, N: r.Shard.N, Mode: r.Shard.Mode.String()}, All: r.All,
		Interrupted: r.Interrupted, ElapsedNs: int64(r.Elapsed), Setups: []wireSetup{}}
	for _, s := range r.Setups {
		ws := wireSetup{Index: s.Index, Setup: s.Setup, Text: s.Setup.String(), Status: s.Status.String(),
			TimedOut: s.TimedOut, ElapsedNs: int64(s.Elapsed)}
		if s.Status != NotRun {
			ws.Verdict = s.Outcome.Verdict.String()
			ws.Violated = s.Outcome.Violated
			ws.Stats = toWireStats(s.Outcome.Stats)
			if s.Outcome.Detail != nil {
				d, err := json.Marshal(s.Outcome.Detail)
				if err != nil {
					return nil, fmt.Errorf("setup %d %s: detail: %w", s.Index, s.Setup, err)
				}
				ws.Detail = d
			}
		}
		w.Setups = append(w.Setups, ws)
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads the shard format, refusing other formats and
// versions. Outcome.Detail comes back as a json.RawMessage.
func (r *ShardResult) UnmarshalJSON(data []byte) error {
	var w wireShard
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("shard result: %w: %w", ErrShard, err)
	}
	if w.Format != ShardFormat || w.Version != ShardFormatVersion {
		return fmt.Errorf("shard result: format %q version %d (accepted: %q version %d): %w", w.Format, w.Version, ShardFormat, ShardFormatVersion, ErrShard)
	}
	mode, err := ParseShardMode(w.Shard.Mode)
	if err != nil {
		return err
	}
	out := ShardResult{Version: w.Version, ListHash: w.ListHash, Total: w.Total, Shard: Shard{K: w.Shard.K, N: w.Shard.N, Mode: mode},
		All: w.All, Interrupted: w.Interrupted, Elapsed: time.Duration(w.ElapsedNs)}
	for _, ws := range w.Setups {
		st, err := parseStatus(ws.Status)
		if err != nil {
			return fmt.Errorf("shard result: setups[%d]: %w: %w", ws.Index, ErrShard, err)
		}
		sr := SetupResult{Index: ws.Index, Setup: ws.Setup, Status: st, TimedOut: ws.TimedOut, Elapsed: time.Duration(ws.ElapsedNs)}
		if st != NotRun {
			v, ok := parseEnum(ws.Verdict, checker.Unknown, checker.Holds, checker.Violated)
			if !ok {
				return fmt.Errorf("shard result: setups[%d].verdict %q: %w", ws.Index, ws.Verdict, ErrShard)
			}
			stats, err := ws.Stats.stats()
			if err != nil {
				return fmt.Errorf("shard result: setups[%d]: %w: %w", ws.Index, ErrShard, err)
			}
			sr.Outcome = Outcome{Verdict: v, Violated: ws.Violated, Stats: stats}
			if len(ws.Detail) > 0 && string(ws.Detail) != "null" {
				sr.Outcome.Detail = ws.Detail
			}
		}
		out.Setups = append(out.Setups, sr)
	}
	*r = out
	return nil
}

// Merge combines the results of every shard of one run into the Result a
// single run over the whole list gives: the minimal failing setup by the
// global order, and (without All) every setup after it NotRun, even if
// its shard verified it. It refuses shards that are missing, repeated,
// interrupted, of another format version, or cut from a different setup
// list (ListHash) or with different N, mode or All.
func Merge(shards ...ShardResult) (Result, error) {
	if len(shards) == 0 {
		return Result{}, fmt.Errorf("merge: no shard results: %w", ErrShard)
	}
	ref := shards[0]
	seen := make([]bool, max(ref.Shard.N, 0))
	all := make([]SetupResult, ref.Total)
	var elapsed time.Duration
	for i, s := range shards {
		at := fmt.Sprintf("merge: shard %s (argument %d)", s.Shard, i+1)
		switch {
		case s.Version != ShardFormatVersion:
			return Result{}, fmt.Errorf("%s: format version %d (accepted: %d): %w", at, s.Version, ShardFormatVersion, ErrShard)
		case s.ListHash != ref.ListHash || s.Total != ref.Total:
			return Result{}, fmt.Errorf("%s: setup list %s (%d setups) differs from %s (%d setups) of shard %s: %w", at, s.ListHash, s.Total, ref.ListHash, ref.Total, ref.Shard, ErrShard)
		case s.Shard.N != ref.Shard.N || s.Shard.Mode != ref.Shard.Mode:
			return Result{}, fmt.Errorf("%s (%s): shard %s is %s (%s): %w", at, s.Shard.Mode, ref.Shard, ref.Shard, ref.Shard.Mode, ErrShard)
		case s.All != ref.All:
			return Result{}, fmt.Errorf("%s: all=%v but shard %s has all=%v: %w", at, s.All, ref.Shard, ref.All, ErrShard)
		case s.Interrupted:
			return Result{}, fmt.Errorf("%s: was interrupted; rerun it: %w", at, ErrShard)
		}
		if err := s.Shard.Validate(); err != nil {
			return Result{}, fmt.Errorf("%s: %w", at, err)
		}
		if seen[s.Shard.K] {
			return Result{}, fmt.Errorf("%s: given twice (overlapping shards): %w", at, ErrShard)
		}
		seen[s.Shard.K] = true
		want := s.Shard.Indices(s.Total)
		if len(s.Setups) != len(want) {
			return Result{}, fmt.Errorf("%s: %d setup results, its slice has %d: %w", at, len(s.Setups), len(want), ErrShard)
		}
		for j, sr := range s.Setups {
			if sr.Index != want[j] {
				return Result{}, fmt.Errorf("%s: result %d is setup %d, its slice says %d: %w", at, j, sr.Index, want[j], ErrShard)
			}
			all[sr.Index] = sr
		}
		elapsed = max(elapsed, s.Elapsed)
	}
	var missing []string
	for k, ok := range seen {
		if !ok {
			missing = append(missing, Shard{K: k, N: ref.Shard.N}.String())
		}
	}
	if len(missing) > 0 {
		return Result{}, fmt.Errorf("merge: missing shard(s) %s: %w", strings.Join(missing, ", "), ErrShard)
	}
	list := make([]Setup, len(all))
	for i, sr := range all {
		list[i] = sr.Setup
	}
	if h := ListHash(list); h != ref.ListHash {
		return Result{}, fmt.Errorf("merge: the shards' setups hash to %s, not to their declared %s: %w", h, ref.ListHash, ErrShard)
	}
	// Every setup a single run would verify must have been verified: all
	// of them with All, else those up to the first failure.
	for _, sr := range all {
		if sr.Status == NotRun {
			return Result{}, fmt.Errorf("merge: setup %d %s was not verified by its shard (a shard that stopped on an error?): %w", sr.Index, sr.Setup, ErrShard)
		}
		if sr.Status == Failed && !ref.All {
			break
		}
	}
	r := finish(all, ref.All)
	r.Elapsed = elapsed
	return r, nil
}
