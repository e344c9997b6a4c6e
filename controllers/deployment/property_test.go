package deployment_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/controllers/deployment"
	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/controllers/nodelifecycle"
	"github.com/kivi-go/kivi/kivitest/script"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// cluster is a random small cluster for the property test: nodes, a few
// templates, deployments with two or three configurations each (template,
// strategy, fenceposts) and optional HPAs.
type cluster struct {
	u       *model.Universe
	s       *model.State
	configs [][]int // configs[d]: the config indices deployment d can apply
}

func genCluster(t *rapid.T) cluster {
	b := build.New()
	nodes := rapid.IntRange(1, 3).Draw(t, "nodes")
	for range nodes {
		nb := build.Node().CPU(64)
		if rapid.IntRange(0, 4).Draw(t, "tainted") == 0 {
			nb.Taint("dedicated", "x", model.NoExecute)
		}
		b.AddNodes(1, nb)
	}
	templates := make([]int, 3)
	for i := range templates {
		tb := build.Template(fmt.Sprint("t", i)).Requests(int64(rapid.IntRange(1, 8).Draw(t, "cpu")), 4)
		if rapid.Bool().Draw(t, "tolerates") {
			tb.Toleration("dedicated", "x", model.NoExecute)
		}
		templates[i] = b.AddTemplate(tb)
	}
	fence := []model.IntOrPercent{{Value: 0}, {Value: 1}, {Value: 2}, {Value: 25, Percent: true}, {Value: 50, Percent: true}}
	config := func() model.DeploymentConfig {
		c := model.DeploymentConfig{
			PodTemplate:    templates[rapid.IntRange(0, len(templates)-1).Draw(t, "template")],
			MaxSurge:       fence[rapid.IntRange(0, len(fence)-1).Draw(t, "surge")],
			MaxUnavailable: fence[rapid.IntRange(0, len(fence)-1).Draw(t, "unavailable")],
		}
		if rapid.IntRange(0, 3).Draw(t, "recreate") == 0 {
			c.Strategy = model.Recreate
		}
		return c
	}
	deps := rapid.IntRange(1, 2).Draw(t, "deployments")
	var configs [][]int
	for d := range deps {
		b.AddDeployment(fmt.Sprint("d", d), templates[0], rapid.IntRange(0, 3).Draw(t, "replicas"))
		first := len(b.U.Configs) - 1
		b.U.Configs[first] = config()
		cs := []int{first}
		for range rapid.IntRange(1, 2).Draw(t, "configs") {
			b.U.Configs = append(b.U.Configs, config())
			cs = append(cs, len(b.U.Configs)-1)
		}
		configs = append(configs, cs)
		if rapid.Bool().Draw(t, "hpa") {
			b.WithHPA(d, b.AddHPA(1, 4, int64(rapid.IntRange(50, 100).Draw(t, "target"))))
		}
	}
	b.Slots = 14 * deps
	b.U.Options.MergeOldRevisions = rapid.Bool().Draw(t, "mergeOldRevisions")
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for d := range s.Deps {
		// Builder configs are set before Build; re-point each deployment
		// at its first random config and start it from no pods.
		s.Deps[d].Config = uint8(configs[d][0])
		s.Deps[d].RS[0] = model.ReplicaSetState{}
		s.Enqueue(model.DeploymentQueue, d)
	}
	s.Init = model.InitMain
	return cluster{u: u, s: s, configs: configs}
}

// TestWorkloadInvariants: random clusters and random interleavings of the
// workload controllers (deployment, kubelet, node controller, taint
// manager, HPA, the stand-in scheduler) and of environment changes keep
// the model's invariants, and from every reached state the deployment,
// scheduler and kubelet alone reach a fixed point in a bounded number of
// steps (rollouts terminate) at which every deployment whose pods all run
// has completed its rollout.
func TestWorkloadInvariants(t *testing.T) {
	procs := map[string]model.Process{
		"deployment":     deployment.New(),
		"kubelet":        kubelet.New(),
		"scheduler":      script.FirstFit{},
		"nodecontroller": nodelifecycle.NewNodeController(),
		"taintmanager":   nodelifecycle.NewTaintManager(),
		"hpa":            hpa.New(),
	}
	names := []string{"deployment", "kubelet", "scheduler", "nodecontroller", "taintmanager", "hpa"}
	rapid.Check(t, func(t *rapid.T) {
		c := genCluster(t)
		u, s := c.u, c.s
		steps := rapid.IntRange(1, 40).Draw(t, "steps")
		for i := range steps {
			switch kind := rapid.IntRange(0, 9).Draw(t, "kind"); {
			case kind < 6:
				var enabled []model.Process
				for _, n := range names {
					if p := procs[n]; p.Enabled(u, s) {
						enabled = append(enabled, p)
					}
				}
				if len(enabled) == 0 {
					continue
				}
				p := enabled[rapid.IntRange(0, len(enabled)-1).Draw(t, "proc")]
				tx := model.NewTx(u)
				tx.Begin(nil, false)
				p.Step(tx, s)
			default:
				environment(t, c, kind)
			}
			if revisionsBound(t, u, s) {
				return
			}
			checkInvariants(t, u, s, fmt.Sprintf("after step %d", i))
			checkFixedPoint(t, u, s, procs)
		}
	})
}

// revisionsBound: s reached the model's bound of two ReplicaSets per
// deployment (a third template while both sets are in use), where the run
// ends Unknown: only without Options.MergeOldRevisions, which merges the
// older revisions instead.
func revisionsBound(t *rapid.T, u *model.Universe, s *model.State) bool {
	if s.Failed != model.FailBound || model.Bound(s.FailedArg) != model.BoundReplicaSetRevisions {
		return false
	}
	if u.Options.MergeOldRevisions {
		t.Fatalf("the bound of ReplicaSet revisions reached under MergeOldRevisions:\n%s", model.Describe(u, s))
	}
	return true
}

// environment applies one random external change: a configuration apply,
// a scale, a node going down or up, or a CPU usage change.
func environment(t *rapid.T, c cluster, kind int) {
	s := c.s
	switch kind {
	case 6:
		d := rapid.IntRange(0, len(s.Deps)-1).Draw(t, "apply-dep")
		s.Deps[d].Config = uint8(rapid.SampledFrom(c.configs[d]).Draw(t, "apply-config"))
		s.Enqueue(model.DeploymentQueue, d)
	case 7:
		d := rapid.IntRange(0, len(s.Deps)-1).Draw(t, "scale-dep")
		s.Deps[d].Replicas = int16(rapid.IntRange(0, 4).Draw(t, "scale-to"))
		s.Enqueue(model.DeploymentQueue, d)
	case 8:
		n := rapid.IntRange(0, len(s.Nodes)-1).Draw(t, "node")
		if s.Nodes[n].Status == model.Ready {
			model.SetNodeStatus(c.u, s, n, model.NotReady)
			s.Enqueue(model.NodeControllerQueue, n)
		} else {
			// The node's return queues the pods its kubelet kept.
			model.SetNodeStatus(c.u, s, n, model.Ready)
		}
	case 9:
		p := rapid.IntRange(0, len(s.Pods)-1).Draw(t, "cpu-pod")
		if s.Pods[p].Phase == model.Running {
			s.Pods[p].CPU = int32(rapid.IntRange(0, 16).Draw(t, "cpu-value"))
			if c.u.HasHPA {
				s.Enqueue(model.HPAQueue, int(s.Pods[p].Owner)-1)
			}
		}
	}
}

func checkInvariants(t *rapid.T, u *model.Universe, s *model.State, where string) {
	if s.Failed != model.NoFailure {
		t.Fatalf("%s: failed %d (%d)\n%s", where, s.Failed, s.FailedArg, model.Describe(u, s))
	}
	for d := range s.Deps {
		ds := &s.Deps[d]
		if ds.Replicas < 0 || ds.RS[0].Replicas < 0 || ds.RS[1].Replicas < 0 {
			t.Fatalf("%s: negative replicas in deployment %d: %+v", where, d+1, *ds)
		}
		c := model.Counts(s, d)
		if c.Pending < 0 || c.Running < 0 || c.Terminating < 0 || c.Started > c.Running+c.Terminating {
			t.Fatalf("%s: bad counts %+v", where, c)
		}
	}
	inKubelet := map[int]bool{}
	for q := range model.NumQueues {
		seen := map[uint16]bool{}
		for _, id := range s.Queues[q] {
			if seen[id] {
				t.Fatalf("%s: queue %s holds %d twice", where, q, id)
			}
			seen[id] = true
			if q == model.KubeletQueue {
				inKubelet[int(id)] = true
			}
		}
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		switch p.Phase {
		case model.Free:
			if *p != (model.PodState{}) {
				t.Fatalf("%s: free slot %d not zero: %+v", where, i+1, *p)
			}
			continue
		case model.Running:
			if p.Node == 0 || int(p.Node) > len(s.Nodes) {
				t.Fatalf("%s: running pod %d not bound to a node: %+v", where, i+1, *p)
			}
		case model.Terminating:
			// A pod on a node that is not Ready waits for the node's
			// return, which queues it.
			if !inKubelet[i] && !model.KeepsTerminatingPod(u, s, p) {
				t.Fatalf("%s: terminating pod %d is not queued for the kubelet", where, i+1)
			}
		}
		if p.Owner == 0 || int(p.Owner) > len(s.Deps) || s.Deps[p.Owner-1].RS[p.RS].Template == 0 {
			t.Fatalf("%s: pod %d belongs to no ReplicaSet: %+v", where, i+1, *p)
		}
	}
}

// fixedPointBound bounds the steps of the deployment, scheduler and
// kubelet alone from any state: each rollout step moves at least one pod
// of at most two deployments of at most 4 (+surge) replicas.
const fixedPointBound = 200

// checkFixedPoint runs the deployment, scheduler and kubelet on a copy of
// s, always the first enabled of the three, until none is enabled, and
// checks completion of every deployment whose pods all run.
func checkFixedPoint(t *rapid.T, u *model.Universe, s0 *model.State, procs map[string]model.Process) {
	s := s0.Clone()
	order := []model.Process{procs["deployment"], procs["scheduler"], procs["kubelet"]}
	steps := 0
	for ; steps < fixedPointBound; steps++ {
		var p model.Process
		for _, q := range order {
			if q.Enabled(u, s) {
				p = q
				break
			}
		}
		if p == nil {
			break
		}
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		p.Step(tx, s)
		if revisionsBound(t, u, s) {
			return
		}
		checkInvariants(t, u, s, "settling")
	}
	if steps == fixedPointBound {
		t.Fatalf("no fixed point after %d steps:\n%s", steps, model.Describe(u, s))
	}
	for d := range s.Deps {
		ds := &s.Deps[d]
		if !ds.Active {
			continue
		}
		c := model.Counts(s, d)
		if c.Pending > 0 || c.Terminating > 0 {
			continue // stalled on unschedulable pods: a legitimate fixed point
		}
		if recreateHeldByScalingEvent(u, ds) {
			continue // upstream's scale leaves it as it is: a fixed point too
		}
		cur := int(ds.Cur)
		want := uint8(u.Configs[ds.Config].PodTemplate + 1)
		old := model.RSCounts(s, d, 1-cur)
		if ds.RS[cur].Template != want || ds.RS[1-cur].Replicas != 0 || old.Running != 0 ||
			int(ds.RS[cur].Replicas) != max(0, int(ds.Replicas)) || c.Running != int(ds.Replicas) {
			t.Fatalf("deployment %d did not complete its rollout at the fixed point: %+v\n%s",
				d+1, *ds, model.Describe(u, s))
		}
	}
}

// recreateHeldByScalingEvent: a Recreate deployment with two active
// ReplicaSets whose desired-replicas annotation is not its spec (a switch
// from RollingUpdate mid-rollout together with a scale). Every sync is a
// scaling event, and upstream's scale neither scales one active set nor
// proportionally scales a Recreate deployment's, so nothing moves until
// spec.replicas or the strategy changes again (sync.go, v1.36).
func recreateHeldByScalingEvent(u *model.Universe, ds *model.DeploymentState) bool {
	return u.Configs[ds.Config].Strategy == model.Recreate && ds.RS[0].Replicas > 0 && ds.RS[1].Replicas > 0 &&
		ds.Annotations(u).Desired != max(0, int(ds.Replicas))
}
