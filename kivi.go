package kivi

import (
	"context"
	"net/http"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/explorer"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
	"github.com/kivi-go/kivi/scaling"
)

// Options configure a verification (compose.Options).
type Options = compose.Options

// Problem is a cluster ready to verify, with its composed system and
// intents (compose.Problem): Check runs it, Simulate walks one random run,
// Header says what it checks.
type Problem = compose.Problem

// Report is the outcome of a verification, as data, with its text, JSON
// and HTML renderings (report.Report).
type Report = report.Report

// IntentResult is the verdict on one intent or built-in property.
type IntentResult = report.IntentResult

// Trace is a counterexample, step by step.
type Trace = report.Trace

// Verdict is Holds, Violated or Unknown.
type Verdict = checker.Verdict

// The verdicts.
const (
	Holds    = checker.Holds
	Violated = checker.Violated
	Unknown  = checker.Unknown
)

// Intent is a property to verify: one of Kivi's intents by name
// (NewIntent), a Go predicate over the cluster (NewPredicate), or a
// forbidden cycle (NewCycle).
type Intent = intents.Intent

// Controller is a user's own controller: a process of the cluster model
// that reads and writes the state through a model.Tx.
type Controller = model.Process

// JSONReport is the versioned JSON document of any run (docs/json.md):
// a verification, a scaling search, a shard or a merge.
type JSONReport = report.JSONReport

// ErrInput marks errors in what the user gave (case files, manifests,
// intents, options): the CLI exits with status 2 on them.
var ErrInput = compose.ErrInput

// ErrModelBound marks a cluster larger than the model's tables: such a
// run is Unknown (model bound), never verified.
var ErrModelBound = model.ErrModelBound

// The model's bounds: a cluster with more nodes or pod slots, or more
// deployments, is Unknown (model bound).
const (
	MaxNodes       = model.MaxNodes
	MaxPodSlots    = model.MaxPodSlots
	MaxDeployments = model.MaxObjects
	// MaxCronJobRuns is how many runs of a CronJob with concurrencyPolicy
	// Allow the model holds at once (Options.CronJobRuns assumes at most
	// that many).
	MaxCronJobRuns = model.MaxCronJobRuns
)

// Verify checks the cluster's intents over every interleaving of its
// controllers and events.
func Verify(ctx context.Context, c *Cluster, opts Options) (*Report, error) {
	return compose.Verify(ctx, c, opts)
}

// NewProblem composes a cluster for verification; Verify is NewProblem and
// Problem.Check.
func NewProblem(c *Cluster, opts Options) (*Problem, error) { return compose.NewProblem(c, opts) }

// DeclarationCheck bounds CheckDeclarations (how many reachable states,
// how many symmetries of each, the seed).
type DeclarationCheck = compose.DeclarationCheck

// DeclarationProblem is a custom controller's symmetry facts or
// footprint contradicted by its own steps on a reachable state.
type DeclarationProblem = compose.DeclarationProblem

// CheckDeclarations tests what the custom controllers of opts declare of
// themselves (model.SymmetryBreaker, model.Footprinter), which the
// reductions trust, against their steps on reachable states of c's
// original topology (docs/library.md, "Custom controllers"). A wrong
// declaration makes a "holds" unsound; kivitest runs this check before
// every verification with custom controllers.
func CheckDeclarations(ctx context.Context, c *Cluster, opts Options, dc DeclarationCheck) ([]DeclarationProblem, error) {
	p, err := compose.NewProblem(c, opts)
	if err != nil {
		return nil, err
	}
	return p.CheckDeclarations(ctx, dc)
}

// BoundReport is the report of a cluster too large for the model (err
// wraps ErrModelBound): every intent is Unknown with err as the reason.
func BoundReport(c *Cluster, err error) *Report { return compose.BoundReport(c, err) }

// Search runs Kivi's scaling search: every small topology of the cluster's
// node types up to the confident size, each verified, smallest first.
func Search(ctx context.Context, c *Cluster, opts Options, eo scaling.EnumerateOptions, so scaling.Options) (scaling.Result, error) {
	return compose.Search(ctx, c, opts, eo, so)
}

// NewPredicate returns an intent that holds while holds is true in every
// reachable state; explain says what it checks, for the report.
func NewPredicate(name, explain string, holds func(v model.View) bool) Intent {
	return intents.NewPredicate(name, explain, holds)
}

// NewCycle returns an intent violated by a reachable cycle along which
// the controllers' steps carry every action mark in marks (model.Mark...):
// a loop the cluster can repeat forever.
func NewCycle(name, explain string, marks ...model.Mark) Intent {
	return intents.NewCycle(name, explain, marks...)
}

// Progress is a live status of a running verification (Options.Checker.OnProgress).
type Progress = checker.Progress

// How visited states are stored (Options.Checker.Storage) and the search
// order (Options.Checker.Strategy).
const (
	ExactStorage    = checker.Exact
	CompactStorage  = checker.HashCompaction
	BitstateStorage = checker.Bitstate
	BFS             = checker.BFS
	DFS             = checker.DFS
)

// Names of the properties every run checks besides the cluster's intents.
const (
	ValidEndState  = compose.ValidEndState
	ModelAssertion = compose.ModelAssertion
)

// ExplorerHandler serves the HTML trace explorer page (Report.WriteHTML's
// bytes) and nothing else, for `kivi explore`.
func ExplorerHandler(page []byte) http.Handler { return explorer.Handler(page) }

// JSONWarning is a reader's warning as the JSON report carries it.
type JSONWarning = report.JSONWarning

// The modes of a JSONReport.
const (
	ModeTopology = report.ModeTopology
	ModeSearch   = report.ModeSearch
	ModeShard    = report.ModeShard
	ModeMerge    = report.ModeMerge
)
