package kivi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/events"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// TestAllGoesOnPastARefusedCreate: settling every intent, `kubectl
// create` of a Deployment that exists (model_assertion; kubectl's
// AlreadyExists changes nothing) does not end the run. The create comes
// before the controllers start, in every run, and web's third pod finds
// no node only afterwards: pod_always_schedulable is judged on the runs
// that go on, and violated.
func TestAllGoesOnPastARefusedCreate(t *testing.T) {
	three := 3
	c := &model.Cluster{Name: "create-exists",
		NodeTypes:           []model.NodeType{{Name: "n", CPU: 64, Memory: 64}},
		Nodes:               []model.NodeGroup{{Type: "n"}},
		Templates:           []model.TemplateDecl{{Name: "app", CPU: 30, Memory: 1}},
		Deployments:         []model.DeploymentDecl{{Name: "web", Template: "app", Replicas: 3}},
		DeploymentTemplates: []model.DeploymentTemplateDecl{{Name: "web", Template: "app", Replicas: &three}},
		Events:              []model.EventDecl{{Kind: "createDeployment", Template: "web", When: "first"}},
	}
	rep := verify(t, c)
	for _, name := range []string{"model_assertion", "pod_always_schedulable"} {
		r := rep.Result(name)
		if r == nil || r.Verdict != checker.Violated || r.Trace == nil {
			t.Fatalf("%s: %+v, want violated with a trace", name, r)
		}
	}
	lines := strings.Join(rep.Result("pod_always_schedulable").Trace.Lines(), "\n")
	if !strings.Contains(lines, "deployment web already exists") {
		t.Errorf("the unschedulable pod's counterexample does not pass through the refused create:\n%s", lines)
	}
}

// TestAllGoesOnPastTheThirdKernelPanic: settling every intent under
// Kubernetes' lifecycle, a node's third kernel panic (no_kernel_panic)
// does not end the run: web's one pod leaves its node 1 CPU of 64, so it
// panics; it recovers once the pod is evicted, and
// an intent broken only after that (here a predicate: the node Ready
// again after its third panic) is judged. The second node keeps the zone
// Normal while the first is down: alone, the node would be in a zone in
// full disruption, never tainted, and its pod never evicted.
func TestAllGoesOnPastTheThirdKernelPanic(t *testing.T) {
	c := &model.Cluster{Name: "panics",
		NodeTypes:   []model.NodeType{{Name: "n", CPU: 64, Memory: 64}},
		Nodes:       []model.NodeGroup{{Type: "n", Count: 2}},
		Templates:   []model.TemplateDecl{{Name: "app", CPU: 63, Memory: 1}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "app", Replicas: 1}},
		Events:      []model.EventDecl{{Kind: "kernelPanic"}},
		Intents:     []model.IntentDecl{{Name: "no_kernel_panic"}},
	}
	recovered := intents.Intent{Name: "never_back_after_third_panic", Internal: "never_back_after_third_panic", Kind: intents.Predicate,
		Explain: "no node is Ready after its third kernel panic", Deployment: -1,
		Holds: func(u *model.Universe, s *model.State) bool {
			return !events.PanicLimitReached(u, s) || s.Nodes[0].Status.Health() != model.Ready
		}}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true},
		ExtraIntents: []intents.Intent{recovered}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"no_kernel_panic", recovered.Name} {
		r := rep.Result(name)
		if r == nil || r.Verdict != checker.Violated || r.Trace == nil {
			t.Fatalf("%s: %+v, want violated with a trace", name, r)
		}
	}
	lines := strings.Join(rep.Result("no_kernel_panic").Trace.Lines(), "\n")
	if !strings.Contains(lines, "Kernel panic happened 3 times on node") {
		t.Errorf("no_kernel_panic's counterexample does not show the third panic:\n%s", lines)
	}
	if n := strings.Count(strings.Join(rep.Result(recovered.Name).Trace.Lines(), "\n"), "Kernel panic happened 3 times"); n != 1 {
		t.Errorf("the third panic shows %d times in the later counterexample, want once", n)
	}
}

// failsInternally is a controller that fails an internal consistency
// assertion of the model once a pod of web runs: a stand-in for a model
// bug, whose state is no Kubernetes state.
type failsInternally struct{}

func (failsInternally) Name() string { return "fails-internally" }

func (failsInternally) Enabled(_ *model.Universe, s *model.State) bool {
	for i := range s.Pods {
		if s.Pods[i].Phase == model.Running {
			return true
		}
	}
	return false
}

func (failsInternally) Step(_ *model.Tx, s *model.State) { s.Fail(model.FailInternal, 0) }

// TestAllReportsRunsCutByAnInternalAssertion: settling every intent, a run
// that fails an internal assertion cannot go on, and the intents it may
// have broken further on are reported Unknown with that reason, never
// Holds: model_assertion is violated with its trace.
func TestAllReportsRunsCutByAnInternalAssertion(t *testing.T) {
	c := &model.Cluster{Name: "internal",
		NodeTypes:   []model.NodeType{{Name: "n", CPU: 64, Memory: 64}},
		Nodes:       []model.NodeGroup{{Type: "n"}},
		Templates:   []model.TemplateDecl{{Name: "app", CPU: 1, Memory: 1}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "app", Replicas: 1}},
	}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true},
		Controllers: []model.Process{failsInternally{}}})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Result("model_assertion"); r == nil || r.Verdict != checker.Violated || r.Trace == nil {
		t.Fatalf("model_assertion: %+v, want violated with a trace", r)
	}
	if rep.Complete {
		t.Error("the report says complete")
	}
	for _, name := range []string{"pod_always_schedulable", "valid_end_state"} {
		r := rep.Result(name)
		if r == nil || r.Verdict != checker.Unknown || !strings.Contains(r.Bound, "internal consistency assertion") {
			t.Errorf("%s: %+v, want unknown naming the internal assertion", name, r)
		}
	}
	if r := rep.Result("model_internal_assertion"); r != nil {
		t.Errorf("the pseudo-property is reported: %+v", r)
	}
	var text strings.Builder
	rep.WriteFailures(&text)
	if !strings.Contains(text.String(), "Unknown (model assertion: an internal consistency assertion") {
		t.Errorf("the text report does not say why the intents are unknown:\n%s", text.String())
	}
}
