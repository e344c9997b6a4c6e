package compose

import (
	"context"

	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
	"github.com/kivi-go/kivi/scaling"
)

// SetupVerifier returns the function the scaling search calls for each
// setup: materialise it, compose the system with the cluster's intents,
// run the engine. The setup's report travels as its JSON document (so
// that shard files carry it).
func SetupVerifier(c *model.Cluster, opts Options) scaling.VerifyFunc {
	// Setups are small and many: the quick pass would only double the
	// work of each.
	opts.NoQuickPass = true
	return func(ctx context.Context, s scaling.Setup) (scaling.Outcome, error) {
		u, st, err := scaling.Build(c, s)
		if err != nil {
			return scaling.Outcome{}, err
		}
		p, err := NewProblemFrom(c.Name, u, st, c.Intents, opts)
		if err != nil {
			return scaling.Outcome{}, err
		}
		rep, err := p.Check(ctx, opts.Checker)
		if err != nil {
			return scaling.Outcome{}, err
		}
		out := scaling.Outcome{Verdict: rep.Verdict(), Stats: rep.Stats, Detail: rep.JSON()}
		for _, v := range rep.Violated() {
			out.Violated = append(out.Violated, v.Name)
		}
		return out, nil
	}
}

// SetupHeader returns the run header (intents, built-in properties,
// events) of one setup of the scaling search.
func SetupHeader(c *model.Cluster, opts Options, s scaling.Setup) (report.Header, error) {
	u, st, err := scaling.Build(c, s)
	if err != nil {
		return report.Header{}, err
	}
	p, err := NewProblemFrom(c.Name, u, st, c.Intents, opts)
	if err != nil {
		return report.Header{}, err
	}
	return p.Header(), nil
}

// Search runs Kivi's scaling search on a cluster: every setup from the
// smallest up to the confident size, in Kivi's order, stopping at the
// first failing one unless so.All. Setups run in parallel (so.Workers);
// each engine run uses one worker.
func Search(ctx context.Context, c *model.Cluster, opts Options, eo scaling.EnumerateOptions, so scaling.Options) (scaling.Result, error) {
	setups, err := scaling.Setups(c, eo)
	if err != nil {
		return scaling.Result{}, err
	}
	opts.Checker.Workers = 1
	return scaling.Search(ctx, setups, SetupVerifier(c, opts), so)
}
