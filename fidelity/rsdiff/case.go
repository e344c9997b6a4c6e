package rsdiff

import (
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kivi-go/kivi/controllers/deployment"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Set names which pods of a Case belong together.
const (
	Victim  = iota // the deployment's current ReplicaSet: the one scaled down
	Sibling        // the deployment's other ReplicaSet (another template)
	Other          // an unrelated deployment
)

// Pod is one pod of a Case. Its index in Case.Pods is its model slot.
type Pod struct {
	Set     int  // Victim, Sibling or Other
	Node    int  // 0: unbound, else 1..Case.Nodes
	Running bool // Running (and Ready), else Pending
	// Unready is a Running pod whose Ready condition is False (a readiness
	// probe that has not passed): model.PodNotReady.
	Unready bool
}

// Case is one scale-down of the victim set by Delete pods.
type Case struct {
	Nodes int
	// VictimSlot is the model's ReplicaSet slot (0 or 1) of the victim set.
	VictimSlot int
	Pods       []Pod
	Delete     int
}

func (c *Case) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d nodes, delete %d of the victim set (model slot %d)\n", c.Nodes, c.Delete, c.VictimSlot)
	for i, p := range c.Pods {
		fmt.Fprintf(&b, "  p%d: %s\n", i, p)
	}
	return b.String()
}

func (p Pod) String() string {
	set := [...]string{"victim", "sibling", "other"}[p.Set]
	node := "unbound"
	if p.Node > 0 {
		node = fmt.Sprintf("n%d", p.Node)
	}
	phase := "Pending"
	if p.Running {
		phase = "Running"
		if p.Unready {
			phase += " (not Ready)"
		}
	}
	return fmt.Sprintf("%s %s %s", set, node, phase)
}

// count returns how many pods of set there are.
func (c *Case) count(set int) int {
	n := 0
	for _, p := range c.Pods {
		if p.Set == set {
			n++
		}
	}
	return n
}

// Model returns the model's branches: for every successor of the
// deployment controller's Step, the slots it deleted, sorted.
func (c *Case) Model() ([][]int, error) {
	u, s0, err := c.modelState()
	if err != nil {
		return nil, err
	}
	ctl := deployment.New()
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	var out [][]int
	for {
		s := s0.Clone()
		ctl.Step(tx, s)
		if s.Failed != model.NoFailure {
			return nil, fmt.Errorf("model failed: %d (%d)", s.Failed, s.FailedArg)
		}
		var del []int
		for i := range c.Pods {
			if s.Pods[i].Phase == model.Terminating {
				del = append(del, i)
			}
		}
		out = append(out, del)
		if !tx.Advance() {
			return out, nil
		}
		tx.Restart(false)
	}
}

// modelState builds the Case's universe and state: deployment web (the
// victim and sibling sets) scaled to Delete fewer replicas than its
// victim set's pods, every set's spec equal to its pods otherwise, and
// web queued for the deployment controller.
func (c *Case) modelState() (*model.Universe, *model.State, error) {
	b := build.New()
	b.AddNodes(c.Nodes, build.Node())
	tmpl := []int{
		b.AddTemplate(build.Template("web-a").Requests(1, 1)),
		b.AddTemplate(build.Template("web-b").Requests(1, 1)),
		b.AddTemplate(build.Template("other").Requests(1, 1)),
	}
	b.AddDeployment("web", tmpl[Victim], 0)
	b.AddDeployment("other", tmpl[Other], 0)
	b.Slots = len(c.Pods) + 1
	// One sync of the scaled set is measured. Under Kubernetes' lifecycle
	// the controller's drain goes on after the scale-down (a rollout
	// between the two sets then scales the sibling set too); under Kivi's
	// it stops once the deleted pods wait for the kubelet, which is the
	// single sync upstream's getPodsToDelete makes. The ranking of the
	// victims (victims.go) is the same under both.
	b.U.Options.KiviLifecycle = true
	u, s, err := b.Build(0)
	if err != nil {
		return nil, nil, err
	}
	web, other := &s.Deps[0], &s.Deps[1]
	victims, siblings := c.count(Victim), c.count(Sibling)
	web.RS = [2]model.ReplicaSetState{}
	web.Cur = uint8(c.VictimSlot)
	web.RS[c.VictimSlot] = model.ReplicaSetState{Template: uint8(tmpl[Victim] + 1), Replicas: int16(victims)}
	if siblings > 0 {
		web.RS[1-c.VictimSlot] = model.ReplicaSetState{Template: uint8(tmpl[Sibling] + 1), Replicas: int16(siblings)}
	}
	web.Replicas = int16(victims - c.Delete)
	// The sets were last scaled at this spec: no scaling event, the sync
	// scales the victim set down to it.
	web.SetAnnotations(u, model.ReplicasAnnotations{Desired: int(web.Replicas)})
	other.RS[0].Replicas = int16(c.count(Other))
	other.Replicas = other.RS[0].Replicas
	for i, p := range c.Pods {
		ps := model.PodState{Phase: model.Pending, Owner: 1, Template: uint8(tmpl[p.Set]), Node: uint16(p.Node), CPU: 1, Memory: 1}
		switch p.Set {
		case Victim:
			ps.RS = uint8(c.VictimSlot)
		case Sibling:
			ps.RS = uint8(1 - c.VictimSlot)
		case Other:
			ps.Owner = 2
		}
		if p.Running {
			ps.Phase = model.Running
			if p.Unready {
				ps.Readiness = model.PodNotReady
			}
		}
		s.Pods[i] = ps
	}
	s.Enqueue(model.DeploymentQueue, 0)
	return u, s, nil
}

var (
	created = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	readyAt = metav1.NewTime(created.Add(10 * time.Second))
)

// apiPod is pod i as the ReplicaSet controller sees it. All pods share
// creation and readiness times and carry no deletion cost; a restarted pod
// has one container restart, the others none.
func (c *Case) apiPod(i int, restarted bool) *v1.Pod {
	p := c.Pods[i]
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default",
		UID: types.UID(fmt.Sprintf("uid-%d", i)), CreationTimestamp: created}}
	if p.Node > 0 {
		pod.Spec.NodeName = fmt.Sprintf("n%d", p.Node)
	}
	pod.Spec.Containers = []v1.Container{{Name: "c"}}
	pod.Status.Phase = v1.PodPending
	if p.Running {
		pod.Status.Phase = v1.PodRunning
		ready := v1.ConditionTrue
		if p.Unready {
			ready = v1.ConditionFalse
		}
		pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: ready, LastTransitionTime: readyAt}}
	}
	var restarts int32
	if restarted {
		restarts = 1
	}
	pod.Status.ContainerStatuses = []v1.ContainerStatus{{Name: "c", RestartCount: restarts}}
	return pod
}

// Ranker is getPodsToDelete's signature: the planted rankings of the tests
// replace it.
type Ranker func(filteredPods, relatedPods []*v1.Pod, diff int) []*v1.Pod

// Upstream returns the slots the ReplicaSet controller deletes, sorted:
// the victim set's pods listed in order (a permutation of the slots; other
// slots are skipped), the pods in restarted with one restart.
func (c *Case) Upstream(rank Ranker, order []int, restarted []int) []int {
	var filtered, related []*v1.Pod
	for _, i := range order {
		p := c.Pods[i]
		if p.Set == Other {
			continue
		}
		pod := c.apiPod(i, slices.Contains(restarted, i))
		related = append(related, pod)
		if p.Set == Victim {
			filtered = append(filtered, pod)
		}
	}
	var out []int
	for _, pod := range rank(filtered, related, c.Delete) {
		var i int
		fmt.Sscanf(pod.Name, "p%d", &i)
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// signature is a set of slots up to pods the model holds identical: the
// sorted descriptions of its pods as the model sees them.
func (c *Case) signature(slots []int) string {
	keys := make([]string, len(slots))
	for k, i := range slots {
		keys[k] = c.Pods[i].String()
	}
	slices.Sort(keys)
	return strings.Join(keys, "; ")
}
