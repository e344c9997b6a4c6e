package deployment_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script"
	"github.com/kivi-go/kivi/model"
)

// pausedEnv runs the script lines on a fresh environment (the deployment
// controller, the first-fit scheduler and the kubelet settle after each
// change) and returns it.
func pausedEnv(t *testing.T, lines ...string) *script.Env {
	t.Helper()
	env := script.NewEnv("testdata")
	for _, l := range lines {
		if _, err := env.ExecLine(l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	return env
}

// exec runs one more line on env.
func exec(t *testing.T, env *script.Env, line string) {
	t.Helper()
	if _, err := env.ExecLine(line); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
}

const settle = "settle deployment first-fit kubelet"

// TestUpstreamPausedDeployment: k8s.io/kubernetes@v1.36.3,
// test/integration/deployment/deployment_test.go TestPausedDeployment
// (upstream's unit tests of pkg/controller/deployment have no paused
// rows): a Deployment created paused gets no ReplicaSet; resumed, it
// rolls out revision 1 and completes; paused again, a changed pod
// template creates no new ReplicaSet and the old one keeps its template.
func TestUpstreamPausedDeployment(t *testing.T) {
	env := pausedEnv(t,
		"node count=1",
		"template name=v1 cpu=1 memory=1",
		"template name=v2 cpu=1 memory=1 labels=tgps=0",
		"deployment name=web template=v1 replicas=1 paused",
		"config name=web-v2 template=v2",
		"event kind=rolloutResume deployment=web",
		"event kind=rolloutPause deployment=web",
		"build",
		"enqueue queue=deployment id=0",
		settle)
	u, s := env.Universe(), env.State()
	ds := &s.Deps[0]
	if ds.RS != [2]model.ReplicaSetState{} || model.Counts(s, 0).Running != 0 {
		t.Fatalf("paused at creation: sets %v, %d pods running; want no ReplicaSet and no pod", ds.RS, model.Counts(s, 0).Running)
	}
	exec(t, env, "step event-1")
	exec(t, env, settle)
	s = env.State()
	ds = &s.Deps[0]
	v1 := uint8(u.Configs[0].PodTemplate + 1)
	if ds.RS[ds.Cur].Template != v1 || ds.RS[ds.Cur].Replicas != 1 || model.Counts(s, 0).Running != 1 {
		t.Fatalf("resumed: sets %v (current %d), %d pods running; want revision 1 of v1 with its one pod", ds.RS, ds.Cur, model.Counts(s, 0).Running)
	}
	exec(t, env, "step event-2")
	exec(t, env, settle)
	exec(t, env, "apply deployment=web config=web-v2")
	exec(t, env, settle)
	s = env.State()
	ds = &s.Deps[0]
	if ds.RS[1-ds.Cur].Template != 0 || ds.RS[ds.Cur].Template != v1 {
		t.Errorf("paused, template changed: sets %v (current %d); want the one old set of v1 and no new one", ds.RS, ds.Cur)
	}
}

// TestUpstreamScalePausedDeployment: k8s.io/kubernetes@v1.36.3,
// test/integration/deployment/deployment_test.go
// TestScalePausedDeployment: a rolled-out Deployment of 1 replica,
// paused, then scaled to 10: its ReplicaSet is scaled to 10 and the
// Deployment completes.
func TestUpstreamScalePausedDeployment(t *testing.T) {
	env := pausedEnv(t,
		"node count=1",
		"template name=v1 cpu=1 memory=1",
		"deployment name=web template=v1 replicas=1",
		"pod-slots count=12",
		"event kind=rolloutPause deployment=web",
		"build",
		"enqueue queue=deployment id=0",
		settle,
		"step event-1",
		settle,
		"scale deployment=web replicas=10",
		settle)
	s := env.State()
	ds := &s.Deps[0]
	if !env.Universe().IsPaused(s, 0) {
		t.Fatal("not paused")
	}
	if ds.RS[ds.Cur].Replicas != 10 || model.Counts(s, 0).Running != 10 {
		t.Errorf("scaled while paused: sets %v (current %d), %d pods running; want the set at 10 with 10 pods", ds.RS, ds.Cur, model.Counts(s, 0).Running)
	}
}
