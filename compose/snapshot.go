package compose

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
	"github.com/kivi-go/kivi/tracenames"
)

// snapshotTrace fills in the cluster snapshots of a rendered trace from
// the checker trace's states. The states are a concrete run (replay
// re-executes every step), so pod slots are continuous from one step to
// the next and a pod's identity can be followed through them.
//
// The same walk names the pods of the steps' lines (tracenames), so that
// the lines and the snapshots call every pod by the same name: the lines
// are replayed from the states, as the checker's lines carry no pod
// references. Without snapshots only the lines are filled in.
func snapshotTrace(sys *System, t *checker.Trace[*model.State], out *report.Trace, snapshots bool) {
	if t.Initial == nil {
		return
	}
	nm := tracenames.New(sys.U)
	nm.Start(t.Initial)
	var sn *snapshotter
	if snapshots {
		sn = newSnapshotter(sys.U)
		out.Initial = sn.snapshot(t.Initial, nm)
	}
	prev := t.Initial
	for i, st := range t.Steps {
		if i >= len(out.Steps) || st.State == nil {
			return
		}
		_, lines, err := sys.Replay(prev, st.Step)
		if err != nil {
			lines = []model.Line{{Component: "internal error", Message: err.Error()}}
		}
		out.Steps[i].Lines = nm.Step(st.State, out.Steps[i].Actor != deploymentActor, lines)
		if snapshots {
			out.Steps[i].Cluster = sn.snapshot(st.State, nm)
		}
		prev = st.State
	}
}

// deploymentActor is the deployment controller's process name: the pods
// it deletes are scaled down or rolled over, not evicted.
const deploymentActor = "Deployment"

// zoneKeys are the node labels that name a zone, most standard first.
var zoneKeys = [...]string{"topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone", "zone"}

// snapshotter draws the states of one trace. What does not change along
// a trace (a node's zone and its taints from the input) is worked out
// once, and its slices are shared by every snapshot (clipped: a snapshot
// that adds a taint copies them).
type snapshotter struct {
	u      *model.Universe
	zones  []string
	taints [][]string
	// scratch of one snapshot
	requested []model.Resources
	used      []int64
	order     []podOrder
}

// podOrder is a pod's place in a snapshot's list: by deployment (the
// name's prefix), then by its number within it.
type podOrder struct {
	prefix string
	n      int
	at     int
}

func newSnapshotter(u *model.Universe) *snapshotter {
	sn := &snapshotter{u: u, zones: make([]string, len(u.Nodes)), taints: make([][]string, len(u.Nodes))}
	for n := range u.Nodes {
		un := &u.Nodes[n]
		for _, k := range zoneKeys {
			if z, ok := un.Labels[k]; ok {
				sn.zones[n] = z
				break
			}
		}
		if len(un.Taints) > 0 {
			ts := make([]string, 0, len(un.Taints))
			for _, t := range un.Taints {
				ts = append(ts, taintString(t))
			}
			sn.taints[n] = ts
		}
	}
	return sn
}

// snapshot draws state s, naming its pods with nm, which has advanced to s.
func (sn *snapshotter) snapshot(s *model.State, nm *tracenames.Namer) report.ClusterSnapshot {
	u := sn.u
	pods := 0
	for i := range s.Pods {
		if s.Pods[i].Phase != model.Free {
			pods++
		}
	}
	out := report.ClusterSnapshot{Nodes: make([]report.NodeSnapshot, 0, len(s.Nodes)), Pods: make([]report.PodSnapshot, 0, pods),
		Deployments: make([]report.DeploymentSnapshot, 0, len(s.Deps))}
	sn.requested, sn.used = u.RequestedOnNodes(s, sn.requested), u.UsedCPUOnNodes(s, sn.used)
	for n := range s.Nodes {
		un := &u.Nodes[n]
		ns := report.NodeSnapshot{Name: un.Name, Zone: sn.zones[n], Status: s.Nodes[n].Status.Health().String(), Ready: s.Nodes[n].Status == model.Ready,
			CPU: un.CPU, RequestedCPU: sn.requested[n].CPU, UsedCPU: sn.used[n], Taints: sn.taints[n]}
		if len(un.Labels) > 0 {
			ns.Labels = un.Labels
		}
		down, isDown := s.Nodes[n].Status.NodeDownTaint()
		if isDown || s.Nodes[n].Cordoned {
			ns.Taints = append(make([]string, 0, len(ns.Taints)+2), ns.Taints...)
			if isDown {
				ns.Taints = append(ns.Taints, taintString(model.Taint{Key: model.NodeDownTaints[down], Effect: model.NoExecute}))
			}
			if s.Nodes[n].Cordoned {
				// A cordoned node shows the taint the node lifecycle
				// controller gives it, as kubectl describe node does.
				ns.Taints = append(ns.Taints, taintString(model.UnschedulableTaint()))
			}
		}
		out.Nodes = append(out.Nodes, ns)
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == model.Free {
			continue
		}
		ps := report.PodSnapshot{Name: nm.Name(i), Slot: i + 1, Phase: p.Phase.String(), CPU: p.CPU, Evicted: nm.Evicted(i)}
		if int(p.Template) < len(u.Templates) {
			ps.CPURequest = u.Templates[p.Template].CPU
		}
		if p.Owner != 0 && int(p.Owner) <= len(u.Deployments) {
			ps.Deployment = u.Deployments[p.Owner-1].Name
		}
		if n := p.NodeOf(); n >= 0 && n < len(u.Nodes) {
			ps.Node = u.Nodes[n].Name
		}
		if n := int(p.NominatedNode) - 1; n >= 0 && n < len(u.Nodes) {
			ps.NominatedNode = u.Nodes[n].Name
		}
		switch {
		case p.Phase != model.Running:
		case p.Readiness == model.PodNotReady:
			ps.Readiness = "NotReady"
		case p.Readiness == model.PodReadyNotAvailable:
			ps.Readiness = "ReadyNotAvailable"
		}
		out.Pods = append(out.Pods, ps)
	}
	// Pods in name order: the explorer's pods keep their place from one
	// step to the next whatever slot they occupy.
	out.Pods = sn.sortPods(out.Pods)
	for d := range s.Deps {
		ds := &s.Deps[d]
		c := model.Counts(s, d)
		dsn := report.DeploymentSnapshot{Name: u.Deployments[d].Name, Number: d + 1, Active: ds.Active, Spec: int(ds.Replicas),
			Ready: c.Ready, Pending: c.Pending, Terminating: c.Terminating}
		for i := range s.Pods {
			if p := &s.Pods[i]; int(p.Owner) == d+1 && p.Phase == model.Running {
				dsn.CPU += int64(p.CPU)
			}
		}
		if ds.Active && ds.HPA != 0 && int(ds.HPA) <= len(u.HPAs) {
			desired := hpaDesired(u, s, d)
			dsn.HPADesired = &desired
		}
		out.Deployments = append(out.Deployments, dsn)
	}
	return out
}

// sortPods returns pods in name order (by deployment, then by their
// number within it), stable; each name is split once, not at every
// comparison.
func (sn *snapshotter) sortPods(pods []report.PodSnapshot) []report.PodSnapshot {
	order := sn.order[:0]
	sorted := true
	for i := range pods {
		prefix, n := splitPodName(pods[i].Name)
		o := podOrder{prefix, n, i}
		if len(order) > 0 && comparePodOrder(o, order[len(order)-1]) < 0 {
			sorted = false
		}
		order = append(order, o)
	}
	sn.order = order
	if sorted {
		return pods
	}
	slices.SortStableFunc(order, comparePodOrder)
	out := make([]report.PodSnapshot, len(pods))
	for i, o := range order {
		out[i] = pods[o.at]
	}
	return out
}

// comparePodOrder orders pods by deployment, then by their number within
// it.
func comparePodOrder(a, b podOrder) int {
	if c := strings.Compare(a.prefix, b.prefix); c != 0 {
		return c
	}
	return cmp.Compare(a.n, b.n)
}

// hpaDesired is the HPA's recommendation for deployment d in s, computed
// on a copy of the deployment's window (Recommend records into it).
func hpaDesired(u *model.Universe, s *model.State, d int) int {
	ds := s.Deps[d] // a copy: HPAWindow is an array
	spec := &u.HPAs[ds.HPA-1]
	if spec.Behavior != nil {
		var mem model.HPAMemory
		if model.DecodeHPAMemory(ds.HPAMemory, &mem) != nil {
			return int(ds.Replicas)
		}
		if spec.Behavior.HasWindow() && !ds.HPASeen {
			hpa.RecordRecommendation(spec.Behavior, &mem, int(ds.Replicas), hpa.Bounds{Min: spec.Min, Max: spec.Max})
		}
		r, _ := hpa.RecommendWithBehavior(u, s, d, spec, int(ds.Replicas), &mem)
		if !r.OK {
			return int(ds.Replicas)
		}
		return r.Desired
	}
	var win []int16
	if w := spec.ScaleDownStabilizationSyncs; w > 0 {
		win = ds.HPAWindow[:w+1]
	}
	r := hpa.Recommend(u, s, d, spec, int(ds.Replicas), win)
	if !r.OK {
		return int(ds.Replicas)
	}
	return r.Desired
}

// splitPodName splits "<prefix>-<n>" into prefix and n.
func splitPodName(name string) (string, int) {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '-' {
			if n, err := strconv.Atoi(name[i+1:]); err == nil {
				return name[:i], n
			}
			break
		}
	}
	return name, 0
}

func taintString(t model.Taint) string {
	if t.Value == "" {
		return fmt.Sprintf("%s:%s", t.Key, t.Effect)
	}
	return fmt.Sprintf("%s=%s:%s", t.Key, t.Value, t.Effect)
}
