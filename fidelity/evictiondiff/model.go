package evictiondiff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// quantity is a threshold statement as the manifest reader takes it: a
// percentage as parsePercentage reads it, or bytes.
func quantity(v string) (model.EvictionQuantity, error) {
	if v == "" || v == "0%" || v == "100%" {
		return model.EvictionQuantity{}, nil
	}
	if num, ok := strings.CutSuffix(v, "%"); ok {
		f, err := strconv.ParseFloat(num, 32)
		if err != nil {
			return model.EvictionQuantity{}, err
		}
		return model.EvictionQuantity{Percentage: float32(f) / 100, Text: v}, nil
	}
	q, err := resource.ParseQuantity(v)
	if err != nil {
		return model.EvictionQuantity{}, err
	}
	return model.EvictionQuantity{Bytes: q.Value(), Text: v}, nil
}

// Allocatable is the node's status.allocatable memory in MiB as the
// kubelet reports it (capacity less the reservations and the hard
// threshold) and the manifest reader reads it: rounded down to a MiB.
func (c *Case) Allocatable() (int64, error) {
	hard, err := quantity(c.Hard)
	if err != nil {
		return 0, err
	}
	return ((c.Capacity-c.Reserved)*mi - hard.On(c.Capacity*mi)) / mi, nil
}

// Kubelet is the case's configuration as the manifest reader gives it.
func (c *Case) Kubelet() (model.KubeletDecl, error) {
	k := model.KubeletDecl{Configured: true, SoftGracePeriod: c.Grace}
	var err error
	for _, f := range []struct {
		v   string
		out *model.EvictionQuantity
	}{{c.Hard, &k.EvictionHard}, {c.Soft, &k.EvictionSoft}, {c.MinimumReclaim, &k.MinimumReclaim}} {
		if *f.out, err = quantity(f.v); err != nil {
			return k, err
		}
	}
	return k, nil
}

// ToModel builds the model's universe and state: one node of the case's
// allocatable and capacity, pod i of template i, Running there with its
// usage, the cluster quiet. The universe has an eventMemoryChange, which
// composes the eviction manager; it never fires here.
func (c *Case) ToModel() (*model.Universe, *model.State, error) {
	alloc, err := c.Allocatable()
	if err != nil {
		return nil, nil, err
	}
	if alloc <= 0 {
		return nil, nil, fmt.Errorf("allocatable %dMi", alloc)
	}
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	b.AddNodes(1, build.Node().Name("node").CPU(64000).Mem(alloc).MaxPods(110))
	b.U.Nodes[0].MemoryCapacity = c.Capacity
	if b.U.Kubelet, err = c.Kubelet(); err != nil {
		return nil, nil, err
	}
	for i, p := range c.Pods {
		b.AddTemplate(build.Template(PodName(i)).Requests(0, p.Request).LimitMemory(p.Limit).Priority(p.Priority))
	}
	load := b.AddDeployment("load", 0, 0)
	b.Inactive(load)
	b.AddEvent(model.Event{Kind: model.MemoryChange, Deployment: load})
	b.Slots = len(c.Pods) + 1
	u, s, err := b.Build(0)
	if err != nil {
		return nil, nil, err
	}
	for i, p := range c.Pods {
		s.Pods[i] = model.PodState{Node: 1, Template: uint8(i), Phase: model.Running, Memory: int32(p.Usage)}
	}
	if !s.ControllerAndHPAQueuesEmpty() {
		return nil, nil, fmt.Errorf("the model's cluster is not quiet")
	}
	return u, s, nil
}

// Plant changes the model's universe or state before it answers: the
// planted bugs of TestPlantedBugs. Nil plants nothing.
type Plant func(u *model.Universe, s *model.State)

// Model runs the model's eviction manager until it has nothing to do but
// clear the condition (which needs the transition period): every step's
// branches are run, and where several pods may be evicted (the ranking's
// ties) the one upstream evicted at that point is taken, else the first.
func (c *Case) Model(upstream []int, plant Plant) (Result, error) {
	u, s, err := c.ToModel()
	if err != nil {
		return Result{}, err
	}
	if plant != nil {
		plant(u, s)
	}
	em := kubelet.NewEvictionManager()
	tx := model.NewTx(u)
	var r Result
	for range 4 * (len(c.Pods) + 2) {
		if !em.Enabled(u, s) {
			return r, nil
		}
		var next []*model.State
		var victims []int
		tx.Begin(nil, false)
		for {
			st := s.Clone()
			em.Step(tx, st)
			if st.Failed != model.NoFailure {
				return r, fmt.Errorf("eviction manager: failure %v", st.Failed)
			}
			v := -1
			for i := range c.Pods {
				if s.Pods[i].Phase == model.Running && st.Pods[i].Phase != model.Running {
					v = i
				}
			}
			next, victims = append(next, st), append(victims, v)
			if !tx.Advance() {
				break
			}
			tx.Restart(false)
		}
		pick := 0
		if k := len(r.Evicted); k < len(upstream) {
			if j := slices.Index(victims, upstream[k]); j >= 0 {
				pick = j
			}
		}
		if s.Nodes[0].MemoryPressure && !next[pick].Nodes[0].MemoryPressure {
			// The transition period would have to pass.
			return r, nil
		}
		s = next[pick]
		if victims[pick] >= 0 {
			r.Evicted = append(r.Evicted, victims[pick])
		}
		r.Condition = r.Condition || s.Nodes[0].MemoryPressure
	}
	return r, fmt.Errorf("the eviction manager model did not settle")
}
