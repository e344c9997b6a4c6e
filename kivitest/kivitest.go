// Package kivitest turns Kivi for Go into `go test` checks: a test in a
// repository that keeps Kubernetes manifests or models an operator fails
// when a change lets the cluster break an intent, and prints the
// counterexample exactly as the kivi command does.
//
//	func TestDeploymentsStaySchedulable(t *testing.T) {
//		kivitest.Verify(t, kivitest.File("deploy/kivi.yaml"))
//	}
//
// By default Verify runs Kivi's scaling search (every small topology up to
// the confident size); Original() verifies the topology as written. Set
// the environment variable KIVI_JSON to a directory to also write each
// test's JSON report there.
package kivitest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/scaling"
)

// Source is where the cluster comes from.
type Source func() (*kivi.Cluster, error)

// File loads a case file (YAML or JSON, the format of examples/cases/).
func File(path string) Source {
	return func() (*kivi.Cluster, error) { return kivi.LoadCaseFile(path) }
}

// Manifests reads Kubernetes manifests as `kivi verify -f` does:
// Deployments, HPAs, Nodes and a DeschedulerPolicy in any number of
// files, plus at most one intents file (docs/inputs.md), told apart by
// its content; a Kivi cluster_configs.json stands for the Nodes. Warnings
// about fields the model does not represent go to the test log.
func Manifests(t testing.TB, files ...string) Source { return manifests(t, kivi.LoadManifests, files) }

// ClusterDump reads a dump of a running cluster, its Pods included, as
// `kivi verify -f … --current-placement` does (kivi.LoadClusterDump): the
// verification starts from where the pods run.
func ClusterDump(t testing.TB, files ...string) Source {
	return manifests(t, kivi.LoadClusterDump, files)
}

func manifests(t testing.TB, load func(ms []kivi.InputFile, nodes, intents *kivi.InputFile) (*kivi.Cluster, []kivi.Warning, error), files []string) Source {
	return func() (*kivi.Cluster, error) {
		t.Helper()
		var all []kivi.InputFile
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			all = append(all, kivi.InputFile{Name: p, Data: data})
		}
		ms, nodes, ints, err := kivi.SplitInputFiles(all)
		if err != nil {
			return nil, err
		}
		c, warns, err := load(ms, nodes, ints)
		if err != nil {
			return nil, err
		}
		for _, w := range warns {
			t.Logf("kivitest: warning: %s", w)
		}
		return c, nil
	}
}

// Dir reads Kivi's configuration directory (yaml/ and user_input/), as
// `kivi verify DIR` does.
func Dir(t testing.TB, dir string) Source { return kiviDir(t, dir, false) }

// Logs reads Kivi's log directory of a running cluster, as `kivi verify
// --logs DIR` does.
func Logs(t testing.TB, dir string) Source { return kiviDir(t, dir, true) }

func kiviDir(t testing.TB, dir string, logs bool) Source {
	return func() (*kivi.Cluster, error) {
		t.Helper()
		load := kivi.LoadKiviDir
		if logs {
			load = kivi.LoadKiviLogs
		}
		c, warns, err := load(dir)
		if err != nil {
			return nil, err
		}
		for _, w := range warns {
			t.Logf("kivitest: warning: %s", w)
		}
		return c, nil
	}
}

// Case is a built-in case (c1..c8) at a scale.
func Case(name string, scale int, noViolation bool) Source {
	return func() (*kivi.Cluster, error) { return kivi.LoadCase(name, scale, noViolation) }
}

// Cluster is a cluster built in Go.
func Cluster(c *kivi.Cluster) Source { return func() (*kivi.Cluster, error) { return c, nil } }

// Option tunes Verify.
type Option func(*config)

type config struct {
	opts kivi.Options
	// declarations bounds the check of the custom controllers'
	// declarations (kivi.CheckDeclarations) before verifying;
	// noDeclarations skips it.
	declarations   kivi.DeclarationCheck
	noDeclarations bool
	original       bool
	enumerate      scaling.EnumerateOptions
	workers        int
	timeout        time.Duration
}

// Original verifies the topology as written instead of the scaling search.
func Original() Option { return func(c *config) { c.original = true } }

// Intents adds intents (built-in ones from kivi.NewIntent, or kivi.NewPredicate
// and kivi.NewCycle) to the cluster's own.
func Intents(in ...kivi.Intent) Option {
	return func(c *config) { c.opts.ExtraIntents = append(c.opts.ExtraIntents, in...) }
}

// Controllers adds custom controllers (see docs/library.md). What they
// declare of themselves for the reductions (model.SymmetryBreaker,
// model.Footprinter) is checked against their steps before the
// verification (kivi.CheckDeclarations); a wrong declaration fails the
// test, since it would make the verdict unsound.
func Controllers(p ...kivi.Controller) Option {
	return func(c *config) { c.opts.Controllers = append(c.opts.Controllers, p...) }
}

// DeclarationCheck bounds the check of the custom controllers'
// declarations (kivi.DeclarationCheck: states, symmetries per state,
// seed); a negative States skips it.
func DeclarationCheck(dc kivi.DeclarationCheck) Option {
	return func(c *config) { c.declarations, c.noDeclarations = dc, dc.States < 0 }
}

// ConfidentSize sets the scaling search's confident size (nodes per type,
// pods per node; 0 keeps Kivi's 6).
func ConfidentSize(nodes, podsPerNode int) Option {
	return func(c *config) { c.enumerate.ConfidentNodes, c.enumerate.ConfidentPodsPerNode = nodes, podsPerNode }
}

// Workers sets the parallelism (0 = all cores).
func Workers(n int) Option { return func(c *config) { c.workers = n } }

// Timeout bounds the whole check; unsettled intents are then Unknown and
// fail the test.
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// MaxMemory is the engine's memory budget in bytes.
func MaxMemory(bytes int64) Option { return func(c *config) { c.opts.Checker.MaxMemory = bytes } }

// Reductions switches symmetry and partial-order reduction (both on by
// default; docs/reductions.md). Verdicts do not depend on them; turning
// them off is for comparing, or for bisecting a suspected reduction bug.
func Reductions(symmetry, partialOrder bool) Option {
	return func(c *config) { c.opts.Checker.NoSymmetry, c.opts.Checker.NoPOR = !symmetry, !partialOrder }
}

// MergeOldRevisions lets a Deployment whose pod template changes while
// two older revisions still have pods roll out of them as one ReplicaSet
// (kivi.Options.MergeOldRevisions, `kivi verify --merge-old-revisions`),
// instead of ending Unknown at the model's two ReplicaSets per
// Deployment. The verdict then covers that approximation, which the
// report states.
func MergeOldRevisions() Option { return func(c *config) { c.opts.MergeOldRevisions = true } }

// CronJobRuns assumes a CronJob with concurrencyPolicy Allow has at most n
// runs active at once (kivi.Options.CronJobRuns, `--cronjob-runs`; 1 or
// 2), instead of ending Unknown when its runs may pile up.
func CronJobRuns(n int) Option { return func(c *config) { c.opts.CronJobRuns = n } }

// ReadyAtStart assumes readiness probes, readiness gates and
// minReadySeconds pass as each pod starts (kivi.Options.ReadyAtStart,
// `--ready-at-start`): the windows in which a Running pod is not yet
// Ready are not explored.
func ReadyAtStart() Option { return func(c *config) { c.opts.ReadyAtStart = true } }

// ApplyInOrder creates the Deployments in the order written, as one
// `kubectl apply -f` does (kivi.Options.ApplyInOrder, `--apply-in-order`),
// instead of in every order.
func ApplyInOrder() Option { return func(c *config) { c.opts.ApplyInOrder = true } }

// Result is what Verify found.
type Result struct {
	// Report is the original topology's report, or the first failing
	// setup's in a scaling search (nil when every setup held).
	Report *kivi.JSONReport
	// Setup names the first failing setup of a scaling search.
	Setup string
	// Violated lists the violated intents.
	Violated []string
	// Unknown is true when the search could not settle every intent.
	Unknown bool
	// Text is the counterexample as the kivi command prints it.
	Text string
}

// Check runs the verification and returns what it found without failing
// the test: for tests that expect a violation.
func Check(t testing.TB, src Source, opts ...Option) Result {
	t.Helper()
	cfg := config{}
	for _, o := range opts {
		o(&cfg)
	}
	c, err := src()
	if err != nil {
		t.Fatalf("kivitest: %v", err)
	}
	ctx := context.Background()
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	if !cfg.noDeclarations && len(cfg.opts.Controllers) > 0 {
		problems, err := kivi.CheckDeclarations(ctx, c, cfg.opts, cfg.declarations)
		// A cluster beyond the model's bounds has no state to check; its
		// verification below is Unknown (model bound).
		if err != nil && !errors.Is(err, kivi.ErrModelBound) {
			t.Fatalf("kivitest: checking the custom controllers' declarations: %v", err)
		}
		for _, p := range problems {
			t.Errorf("kivitest: %s", p)
		}
	}
	var res Result
	if cfg.original {
		cfg.opts.Checker.Workers = cfg.workers
		rep, err := kivi.Verify(ctx, c, cfg.opts)
		if err != nil {
			t.Fatalf("kivitest: %v", err)
		}
		doc := rep.JSON()
		res.Report = &doc
		for _, v := range rep.Violated() {
			res.Violated = append(res.Violated, v.Name)
		}
		res.Unknown = rep.Verdict() == kivi.Unknown
		var b strings.Builder
		rep.WriteFailures(&b)
		res.Text = b.String()
	} else {
		sr, err := kivi.Search(ctx, c, cfg.opts, cfg.enumerate, scaling.Options{Workers: cfg.workers})
		if err != nil && !sr.Interrupted {
			t.Fatalf("kivitest: %v", err)
		}
		res.Unknown = sr.Unknown > 0 || sr.Interrupted
		if f, ok := sr.FirstFailure(); ok {
			res.Setup = f.Setup.String()
			res.Violated = f.Outcome.Violated
			if doc, ok := f.Outcome.Detail.(kivi.JSONReport); ok {
				res.Report = &doc
				res.Text = "Failure found at scale " + res.Setup + "\n" + renderJSON(doc)
			}
		}
	}
	if dir := os.Getenv("KIVI_JSON"); dir != "" && res.Report != nil {
		name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()) + ".json"
		if data, err := json.MarshalIndent(res.Report, "", "  "); err == nil {
			_ = os.MkdirAll(dir, 0o755)
			_ = os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
	}
	return res
}

// Verify fails the test when an intent is violated (printing the
// counterexample as the kivi command does) or cannot be settled.
func Verify(t testing.TB, src Source, opts ...Option) Result {
	t.Helper()
	res := Check(t, src, opts...)
	switch {
	case len(res.Violated) > 0:
		t.Errorf("kivi: intent(s) violated: %s\n%s", strings.Join(res.Violated, " "), res.Text)
	case res.Unknown:
		t.Errorf("kivi: the search could not settle every intent (bound, timeout or memory reached)\n%s", res.Text)
	}
	return res
}

// renderJSON prints a JSON report's first violation like the CLI.
func renderJSON(doc kivi.JSONReport) string {
	var b strings.Builder
	if in, ok := doc.FirstViolation(); ok {
		in.WriteCounterexample(&b)
	}
	return b.String()
}
