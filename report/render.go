package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/scaling"
)

// CycleMarker is the line that opens the loop of a cycle counterexample
// (SPIN's marker, which Kivi copies into its output).
const CycleMarker = "<<<<<START OF CYCLE>>>>>"

// Lines renders a trace: every line numbered from 0,
// "[i][Component] message", or "[i] message" without a component, with the
// cycle marker line where the loop starts. The marker takes no number
// (Kivi's took one), so that the numbers are the JSON counterexample's
// "step" numbers.
func (t *Trace) Lines() []string {
	var out []string
	i := 0
	for si, st := range t.Steps {
		if si == t.LoopStart {
			out = append(out, CycleMarker)
		}
		for _, l := range st.Lines {
			if l.Component == "" {
				out = append(out, fmt.Sprintf("[%d] %s", i, l.Message))
			} else {
				out = append(out, fmt.Sprintf("[%d][%s] %s", i, l.Component, l.Message))
			}
			i++
		}
	}
	return out
}

// HeaderItem is one active intent, built-in property or event of a run
// and one line saying what it checks or does.
type HeaderItem struct {
	Name    string
	Meaning string
}

// Header is what a run checks and under which events: the user's intents,
// the built-in properties every run checks, and the active events.
type Header struct {
	Intents  []HeaderItem
	BuiltIns []HeaderItem
	Events   []HeaderItem
}

// WriteIntentsLine writes Kivi's "Working on the intents:" line.
func WriteIntentsLine(w io.Writer, names []string) {
	fmt.Fprintf(w, "Working on the intents: %s \n", strings.Join(names, " "))
}

// Write writes Kivi's "Working on the intents:" line, then one
// line per intent and built-in property saying what it checks, and one
// per active event saying what it does.
func (h Header) Write(w io.Writer) {
	var names []string
	for _, x := range h.Intents {
		names = append(names, x.Name)
	}
	WriteIntentsLine(w, names)
	for _, x := range append(append([]HeaderItem(nil), h.Intents...), h.BuiltIns...) {
		fmt.Fprintf(w, "    %s: %s\n", x.Name, x.Meaning)
	}
	if len(h.Events) == 0 {
		fmt.Fprintln(w, "Events: none (the controllers settle the cluster as written)")
		return
	}
	fmt.Fprintln(w, "Events:")
	for _, x := range h.Events {
		fmt.Fprintf(w, "    %s: %s\n", x.Name, x.Meaning)
	}
}

// WriteFailures writes the failure listing and the summary in Kivi's shape,
// followed by what Kivi cannot say: unknown verdicts and the engine's
// statistics.
func (r *Report) WriteFailures(w io.Writer) {
	failures := r.Violated()
	writeFailureList(w, len(failures), func(i int) {
		f := failures[i]
		var lines []string
		if f.Trace != nil {
			lines = f.Trace.Lines()
		}
		writeCounterexample(w, f.Name, f.Explanation, lines)
	})
	fmt.Fprintln(w, "Summary:")
	if len(failures) > 0 {
		fmt.Fprintf(w, "    %d failure(s) found!\n", len(failures))
		var names []string
		for _, f := range failures {
			names = append(names, f.Name)
		}
		fmt.Fprintf(w, "    Violating intent(s): %s \n", strings.Join(names, " "))
		if line := r.FoundByLine(); line != "" {
			fmt.Fprintf(w, "    %s\n", line)
		}
	} else if len(r.Unknown()) == 0 {
		fmt.Fprintln(w, "    No failure is found!")
	} else {
		fmt.Fprintln(w, "    No failure is found, but the search was not exhaustive.")
	}
	var stopped, bounded []string
	var otherBounds []string              // reasons other than r.Bound, in order of first use
	otherBounded := map[string][]string{} // reason → intents
	for _, x := range r.Unknown() {
		if x.Bound != "" && x.Bound != r.Bound {
			if _, ok := otherBounded[x.Bound]; !ok {
				otherBounds = append(otherBounds, x.Bound)
			}
			otherBounded[x.Bound] = append(otherBounded[x.Bound], x.Name)
			continue
		}
		if x.Bound != "" {
			bounded = append(bounded, x.Name)
			continue
		}
		if x.Reason == checker.ReasonStopped {
			stopped = append(stopped, x.Name)
			continue
		}
		fmt.Fprintf(w, "    Unknown: %s (%s)\n", x.Name, x.Reason)
		if x.Reason == checker.ReasonUnreplayable {
			if q, ok := r.phase(PhaseSymmetryOff); ok {
				fmt.Fprintf(w, "      The symmetry reduction merged states that do not step alike here; the search without symmetry stopped after %d states before settling it: a run with --symmetry off and more time or states settles it\n", q.Stats.States)
			} else {
				fmt.Fprintln(w, "      The symmetry reduction merged states that do not step alike here; a run with --symmetry off settles it")
			}
		}
	}
	if len(bounded) > 0 {
		fmt.Fprintf(w, "    Unknown (%s): %s\n", r.Bound, strings.Join(bounded, " "))
		if r.BoundTrace != nil {
			fmt.Fprintln(w, "    The bound is reached by:")
			for _, l := range r.BoundTrace.Lines() {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
	}
	for _, b := range otherBounds {
		fmt.Fprintf(w, "    Unknown (%s): %s\n", b, strings.Join(otherBounded[b], " "))
	}
	if len(stopped) > 0 {
		fmt.Fprintf(w, "    Not settled (the search stops at the first violation; --all settles every intent): %s\n", strings.Join(stopped, " "))
	}
	if covered := r.CheckedIntents(); len(covered) > 0 {
		n := r.CheckedSteps()
		fmt.Fprintf(w, "    Checked within %d steps: every state the cluster reaches in %d steps or fewer (each a controller's or an event's action) was explored, and none violates %s\n", n, n, strings.Join(covered, ", "))
	}
	for _, h := range r.Hints {
		fmt.Fprintf(w, "    Why the search is large: %s\n", h)
	}
	for _, a := range r.Assumptions {
		fmt.Fprintf(w, "    Assumed: %s\n", a)
	}
	// Every phase but the exhaustive search whose figures follow (the
	// last phase, or the one before a search without symmetry; a
	// depth-first search that settled everything is named).
	for i, q := range r.Phases {
		if q.Name == PhaseExhaustive && (i == len(r.Phases)-1 || i == len(r.Phases)-2 && r.Phases[i+1].Name == PhaseSymmetryOff) {
			continue
		}
		outcome := "no violation"
		if q.Violations > 0 {
			outcome = fmt.Sprintf("%d violation(s)", q.Violations)
		}
		scope := "stopped early"
		if q.Complete {
			scope = "complete"
		}
		name := q.Name
		if name != "" {
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		deep := ""
		if q.Name == PhaseDepthFirst {
			// How far its runs went is what it adds to the breadth-first
			// search's depth.
			deep = fmt.Sprintf(", runs up to %d steps deep", q.Stats.MaxDepth)
		}
		fmt.Fprintf(w, "    %s (%s): %s, %s, %d states%s\n", name, q.Description, outcome, scope, q.Stats.States, deep)
	}
	fmt.Fprintf(w, "    Elapsed time: %.2f seconds\n", r.Elapsed.Seconds())
	st := r.Stats
	fmt.Fprintf(w, "    States: %d stored, %d matched, %d transitions, depth %d, %.0f states/s, %.1f bytes/state\n",
		st.States, st.Matched, st.Transitions, st.MaxDepth, st.StatesPerS, st.BytesPerState)
	fmt.Fprintf(w, "    Reductions: symmetry %s, partial-order %s (%d states through ample sets, %d fully by the cycle proviso)\n",
		onOff(r.Symmetry), onOff(r.POR), st.AmpleExpansions, st.ProvisoExpansions)
	fmt.Fprintln(w)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// JSONReport is the --json document of every mode (docs/json.md, and the
// JSON Schema docs/report.schema.json): the written topology ("topology"),
// the scaling search ("search"), one shard of it ("shard") and merged
// shards ("merge"). One type for all of them, so that a reader needs one
// parser and the explorer one page; the search modes add Setups and the
// fields after it, and every setup carries a topology report of its own.
type JSONReport struct {
	// SchemaVersion is SchemaVersion (snapshot.go).
	SchemaVersion int `json:"schemaVersion"`
	// Mode is ModeTopology, ModeSearch, ModeShard or ModeMerge.
	Mode    string `json:"mode"`
	Name    string `json:"name"`
	Verdict string `json:"verdict"`
	// Bound is the bound of the model the run reached, if any: every
	// intent that is not violated is then unknown.
	Bound string `json:"bound,omitempty"`
	// Assumptions narrow what the verdicts cover (Report.Assumptions).
	Assumptions []string     `json:"assumptions,omitempty"`
	Intents     []JSONIntent `json:"intents"`
	// Warnings are what the input readers warned about (an unmodelled
	// field or plugin...): never nil, so that "no warnings" is explicit.
	Warnings []JSONWarning `json:"warnings"`
	Stats    JSONStats     `json:"stats"`
	// Measured holds what depends on the machine and on how the work
	// was split between workers; everything else in the document is the
	// same for the same input and options.
	Measured JSONMeasured `json:"measured"`
	// InputSetup is the size of a user's own configuration in a search;
	// every setup then says whether it is that size (SizeOfInput).
	InputSetup string `json:"inputSetup,omitempty"`
	// FirstFailure is the minimal failing setup of a search, if any.
	FirstFailure *JSONSetupRef `json:"firstFailure,omitempty"`
	// Setups are the search's setups in its order (a shard's: its slice).
	Setups []JSONSetup `json:"setups,omitempty"`
	// Shard says which slice of which setup list a shard document is,
	// for kivi merge.
	Shard *JSONShard `json:"shard,omitempty"`
	// Swarm says, in a merge of swarm shards, what each shard ran.
	Swarm *JSONSwarm `json:"swarm,omitempty"`
}

// The modes of a JSONReport.
const (
	ModeTopology = "topology"
	ModeSearch   = "search"
	ModeShard    = "shard"
	ModeMerge    = "merge"
)

// JSONWarning is one warning of the input readers: where (any of File,
// Document and Path may be absent), what, and the whole line as stderr
// prints it.
type JSONWarning struct {
	File string `json:"file,omitempty"`
	// Document is the position of the YAML document in File, numbered as
	// Text numbers it.
	Document int    `json:"document,omitempty"`
	Path     string `json:"path,omitempty"`
	Message  string `json:"message"`
	Text     string `json:"text"`
}

// JSONMeasured are the run's timings and memory figures.
type JSONMeasured struct {
	ElapsedS      float64 `json:"elapsedSeconds"`
	StatesPerS    float64 `json:"statesPerSecond"`
	BytesPerState float64 `json:"bytesPerState"`
}

// JSONIntent is one intent's verdict.
type JSONIntent struct {
	Name           string     `json:"name"`
	Verdict        string     `json:"verdict"`
	Reason         string     `json:"reason,omitempty"`
	Explanation    string     `json:"explanation,omitempty"`
	Counterexample []JSONStep `json:"counterexample,omitempty"`
	LoopStart      *int       `json:"loopStart,omitempty"`
	// CheckedSteps is, for an unknown intent, the number of steps within
	// which no run violates it (Report.CheckedSteps); absent when the
	// run says nothing of the kind.
	CheckedSteps int `json:"checkedSteps,omitempty"`
	// FoundBy is the phase that found the violation: "quick pass",
	// "depth-first search" or "exhaustive search".
	FoundBy string `json:"foundBy,omitempty"`
	// Seed is the seed of the depth-first search that found the
	// violation (foundBy "depth-first search").
	Seed uint64 `json:"seed,omitempty"`
	// Shard is, in a merge of swarm shards, the K of the shard whose
	// search (Seed) found the violation.
	Shard *int `json:"shard,omitempty"`
	// Setup is, in a search document, the first setup that violated the
	// intent (its counterexample is in that setup's report).
	Setup string `json:"setup,omitempty"`
	// Trace is the counterexample step by step with the cluster after
	// each step (snapshot.go), for the trace explorer.
	Trace *JSONTrace `json:"trace,omitempty"`
}

// JSONStep is one line of a counterexample.
type JSONStep struct {
	Step      int    `json:"step"`
	Component string `json:"component"`
	Message   string `json:"message"`
}

// JSONStats are the engine's statistics.
type JSONStats struct {
	States      int64 `json:"states"`
	Matched     int64 `json:"matched"`
	Transitions int64 `json:"transitions"`
	MaxDepth    int   `json:"maxDepth"`
	Complete    bool  `json:"complete"`
	// Symmetry and POR: the reductions used; AmpleExpansions and
	// ProvisoExpansions: partial-order reduction's work.
	Symmetry          bool  `json:"symmetry"`
	POR               bool  `json:"partialOrder"`
	AmpleExpansions   int64 `json:"ampleExpansions"`
	ProvisoExpansions int64 `json:"provisoExpansions"`
	// Setups counts a search's setups by status; absent in a topology
	// report.
	Setups *JSONSetupCounts `json:"setups,omitempty"`
}

// add counts o's work into s: a merged document's statistics are its
// parts' summed (the deepest depth for MaxDepth).
func (s *JSONStats) add(o JSONStats) {
	s.States += o.States
	s.Matched += o.Matched
	s.Transitions += o.Transitions
	s.MaxDepth = max(s.MaxDepth, o.MaxDepth)
	s.AmpleExpansions += o.AmpleExpansions
	s.ProvisoExpansions += o.ProvisoExpansions
}

// Verdict summarises a report: Violated if any intent is, else Unknown if
// any is unsettled, else Holds.
func (r *Report) Verdict() checker.Verdict {
	if len(r.Violated()) > 0 {
		return checker.Violated
	}
	if len(r.Unknown()) > 0 {
		return checker.Unknown
	}
	return checker.Holds
}

// JSON converts a report to its JSON document.
func (r *Report) JSON() JSONReport {
	out := JSONReport{SchemaVersion: SchemaVersion, Mode: ModeTopology, Name: r.Name, Verdict: r.Verdict().String(), Bound: r.Bound, Assumptions: r.Assumptions,
		Intents: []JSONIntent{}, Warnings: []JSONWarning{}, Stats: JSONStats{
			States: r.Stats.States, Matched: r.Stats.Matched, Transitions: r.Stats.Transitions, MaxDepth: r.Stats.MaxDepth,
			Complete: r.Complete,
			Symmetry: r.Symmetry, POR: r.POR, AmpleExpansions: r.Stats.AmpleExpansions, ProvisoExpansions: r.Stats.ProvisoExpansions},
		Measured: JSONMeasured{ElapsedS: r.Elapsed.Seconds(), StatesPerS: r.Stats.StatesPerS, BytesPerState: r.Stats.BytesPerState}}
	checked := r.CheckedSteps()
	for _, x := range r.Results {
		ji := JSONIntent{Name: x.Name, Verdict: x.Verdict.String(), Explanation: x.Explanation, FoundBy: x.FoundBy, Seed: x.Seed}
		if x.Verdict == checker.Unknown {
			ji.Reason = x.Reason.String()
			if x.Bound != "" {
				ji.Reason = x.Bound
			}
			if x.CoveredByCheckedSteps() {
				ji.CheckedSteps = checked
			}
		}
		if x.Trace != nil {
			ji.Trace = x.Trace.jsonTrace()
			i := 0
			for si, st := range x.Trace.Steps {
				if si == x.Trace.LoopStart {
					ls := i
					ji.LoopStart = &ls
				}
				for _, l := range st.Lines {
					ji.Counterexample = append(ji.Counterexample, JSONStep{Step: i, Component: l.Component, Message: l.Message})
					i++
				}
			}
		}
		out.Intents = append(out.Intents, ji)
	}
	return out
}

// WriteJSON writes the report as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	return r.JSON().WriteJSON(w)
}

// WriteJSON writes any JSON document (a report with warnings added, a
// search) as --json prints it: indented, one document.
func (doc JSONReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// Lines renders a JSON intent's counterexample like Trace.Lines.
func (in JSONIntent) Lines() []string {
	var out []string
	for _, st := range in.Counterexample {
		if in.LoopStart != nil && st.Step == *in.LoopStart {
			out = append(out, CycleMarker)
		}
		if st.Component == "" {
			out = append(out, fmt.Sprintf("[%d] %s", st.Step, st.Message))
		} else {
			out = append(out, fmt.Sprintf("[%d][%s] %s", st.Step, st.Component, st.Message))
		}
	}
	return out
}

// WriteCounterexample writes one violated intent and its numbered trace
// lines, as every report of the CLI and of kivitest prints them.
func (in JSONIntent) WriteCounterexample(w io.Writer) {
	writeCounterexample(w, in.Name, in.Explanation, in.Lines())
}

func writeCounterexample(w io.Writer, name, explanation string, lines []string) {
	fmt.Fprintf(w, "Violated intent: %s (%s)\n", name, explanation)
	fmt.Fprintln(w, "Counterexample:")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// FirstViolation returns the first violated intent of a JSON report.
func (r JSONReport) FirstViolation() (JSONIntent, bool) {
	for _, in := range r.Intents {
		if in.Verdict == checker.Violated.String() {
			return in, true
		}
	}
	return JSONIntent{}, false
}

// WriteIntentsLine writes Kivi's "Working on the intents:" line for the
// report's own intents (the built-in properties left out).
func (r JSONReport) WriteIntentsLine(w io.Writer) {
	var names []string
	for _, in := range r.Intents {
		if in.Name != modelAssertion && in.Name != validEndState {
			names = append(names, in.Name)
		}
	}
	WriteIntentsLine(w, names)
}

// The built-in properties' names (kivi.ModelAssertion, ValidEndState).
const (
	modelAssertion = "model_assertion"
	validEndState  = "valid_end_state"
)

// writeFailureList writes Kivi's numbered failure listing, item writing
// failure i's body; nothing when there is none.
func writeFailureList(w io.Writer, n int, item func(i int)) {
	if n == 0 {
		return
	}
	fmt.Fprintln(w, strings.Repeat("=", 24))
	fmt.Fprintf(w, "%d failure(s) are found!\n", n)
	for i := range n {
		fmt.Fprintf(w, "-----Failure #%d-----\n", i+1)
		item(i)
		fmt.Fprint(w, "\n\n")
	}
	fmt.Fprint(w, "\n")
}

// WriteSearch writes a scaling search's result (a run or merged shards)
// in Kivi's shape: each setup tried, then the failures with the first
// counterexample of each, then the summary. input is the size of the
// user's own configuration (nil for Kivi's cases), which each setup is
// compared with.
func WriteSearch(w io.Writer, res scaling.Result, input *scaling.Setup) {
	var failures []scaling.SetupResult
	for _, s := range res.Setups {
		if s.Status == scaling.NotRun {
			continue
		}
		fmt.Fprintln(w, strings.Repeat("=", 27))
		fmt.Fprintf(w, "Working on setup: %s%s\n", s.Setup, sizeNote(s.Setup, input))
		if r := SetupReport(s.Outcome.Detail); r != nil {
			r.WriteIntentsLine(w)
		}
		switch s.Status {
		case scaling.Failed:
			fmt.Fprintf(w, "Failure found at scale %s%s\n", s.Setup, sizeNote(s.Setup, input))
			failures = append(failures, s)
		case scaling.Unknown:
			fmt.Fprintf(w, "Unknown at scale %s (not exhaustive)%s\n", s.Setup, sizeNote(s.Setup, input))
		}
	}
	writeFailureList(w, len(failures), func(i int) {
		f := failures[i]
		fmt.Fprintf(w, "Setup: %s%s\n", f.Setup, sizeNote(f.Setup, input))
		if r := SetupReport(f.Outcome.Detail); r != nil {
			if in, ok := r.FirstViolation(); ok {
				in.WriteCounterexample(w)
			}
		}
	})
	fmt.Fprintln(w, "Summary:")
	if len(failures) > 0 {
		fmt.Fprintf(w, "    %d failure(s) found!\n", len(failures))
		var names []string
		for _, f := range failures {
			names = append(names, f.Outcome.Violated...)
		}
		fmt.Fprintf(w, "    Violating intent(s): %s \n", strings.Join(names, " "))
	} else if res.Interrupted {
		fmt.Fprintln(w, "    No failure is found, but the search stopped before it verified every setup.")
	} else if res.Unknown == 0 {
		fmt.Fprintln(w, "    No failure is found!")
	} else {
		fmt.Fprintln(w, "    No failure is found, but some setups were not settled.")
	}
	if res.Interrupted {
		stopped := res.Stopped
		if stopped == "" {
			stopped = "interrupted"
		}
		fmt.Fprintf(w, "    Stopped: %s\n", stopped)
	}
	fmt.Fprintf(w, "    Setups: %d held, %d failed, %d unknown, %d not run (of %d)\n",
		res.Held, res.Failed, res.Unknown, res.NotRun, len(res.Setups))
	fmt.Fprintf(w, "    Elapsed time: %.2f seconds\n", res.Elapsed.Seconds())
	fmt.Fprintf(w, "    States: %d in all\n", res.States)
	fmt.Fprintln(w)
}

// sizeNote says whether a setup is the size of the user's input (nil:
// a Kivi case, whose sizes are all the case's own).
func sizeNote(s scaling.Setup, input *scaling.Setup) string {
	switch {
	case input == nil:
		return ""
	case s.Equal(*input):
		return " (the size of the input)"
	}
	return " (a different size from the input, which is " + input.String() + ")"
}
