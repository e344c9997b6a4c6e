package hpadiff

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// Kind is a pod's state as the replica calculator sees it.
type Kind uint8

const (
	// Ready: Running, Ready condition True, a metric sample.
	Ready Kind = iota
	// Pending: not started, no sample.
	Pending
	// Terminating: Running with a deletion timestamp and a sample.
	Terminating
	// NotReady: Running for longer than the CPU initialisation period,
	// Ready condition False and never ready, with a sample.
	NotReady
	// NoSample: Running and ready, but the metrics server has no sample.
	NoSample
)

func (k Kind) String() string {
	return [...]string{"ready", "pending", "terminating", "not-ready", "no-sample"}[k]
}

// Pod is one pod of the scale target: its CPU request and usage in
// millicores (the model's units). Request 0 is a pod without a CPU
// request.
type Pod struct {
	Kind           Kind
	Request, Usage int64
	// Init is the CPU request of a regular init container (0: none) and
	// Overhead the pod's CPU overhead (a RuntimeClass's): the scheduler
	// reserves them, the replica calculator does not read them.
	Init, Overhead int64
}

// Rec is an earlier recommendation in the stabilisation memory, made Age
// sync periods ago (0 = the current period).
type Rec struct {
	Age, Replicas int
}

// Case is one HPA evaluation with a CPU Utilization target.
type Case struct {
	Current, Min, Max int
	// TargetPercent is the target utilisation; TolerancePercent the
	// symmetric tolerance (Kubernetes' default 10).
	TargetPercent, TolerancePercent int
	Pods                            []Pod
	// WindowSyncs is the downscale stabilisation window in sync periods
	// (0: off in the model, a 0 s window upstream).
	WindowSyncs int
	// Seen: the HPA evaluated the target before, Recs are its memory.
	// Otherwise the first sync seeds the memory with Current.
	Seen bool
	Recs []Rec
}

func (c *Case) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "current %d min %d max %d target %d%% tolerance %d%% window %d syncs seen %v recs %v\n",
		c.Current, c.Min, c.Max, c.TargetPercent, c.TolerancePercent, c.WindowSyncs, c.Seen, c.Recs)
	for i, p := range c.Pods {
		fmt.Fprintf(&b, "  pod-%d %s request %dm usage %dm", i, p.Kind, p.Request, p.Usage)
		if p.Init > 0 || p.Overhead > 0 {
			fmt.Fprintf(&b, " init %dm overhead %dm", p.Init, p.Overhead)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// with returns a copy of c with pod kinds mapped by f.
func (c *Case) with(f func(Pod) Pod) *Case {
	d := *c
	d.Pods = make([]Pod, len(c.Pods))
	for i, p := range c.Pods {
		d.Pods[i] = f(p)
	}
	return &d
}

// has reports whether some pod is of kind k.
func (c *Case) has(k Kind) bool {
	for _, p := range c.Pods {
		if p.Kind == k {
			return true
		}
	}
	return false
}

// GenCase generates cases in the model's range: up to 12 pods, requests
// of 100..1000 m (rarely none), usages up to three times the request,
// targets of 10..200 %, tolerance 10 % mostly. Ready pods are the most
// likely so that most cases reach the calculation.
func GenCase() *rapid.Generator[*Case] {
	return rapid.Custom(func(t *rapid.T) *Case {
		c := &Case{}
		c.Min = rapid.IntRange(1, 5).Draw(t, "min")
		c.Max = rapid.IntRange(c.Min, 20).Draw(t, "max")
		c.Current = rapid.IntRange(0, 22).Draw(t, "current")
		c.TargetPercent = rapid.SampledFrom([]int{10, 30, 50, 60, 70, 80, 90, 100, 120, 150, 200}).Draw(t, "target")
		c.TolerancePercent = rapid.SampledFrom([]int{10, 10, 10, 0, 5, 20}).Draw(t, "tolerance")
		n := rapid.IntRange(0, 12).Draw(t, "pods")
		for i := 0; i < n; i++ {
			var p Pod
			p.Kind = Kind(rapid.SampledFrom([]int{0, 0, 0, 0, 1, 2, 3, 4}).Draw(t, "kind"))
			p.Request = rapid.SampledFrom([]int64{100, 200, 250, 500, 500, 1000, 1000, 1000}).Draw(t, "request")
			if rapid.IntRange(0, 50).Draw(t, "norequest") == 0 {
				p.Request = 0
			}
			p.Usage = rapid.Int64Range(0, 3000).Draw(t, "usage")
			c.Pods = append(c.Pods, p)
		}
		c.WindowSyncs = rapid.SampledFrom([]int{0, 1, 2, 3, 4}).Draw(t, "window")
		c.Seen = rapid.Bool().Draw(t, "seen")
		if c.Seen {
			k := rapid.IntRange(1, 4).Draw(t, "recs")
			for i := 0; i < k; i++ {
				c.Recs = append(c.Recs, Rec{
					Age:      rapid.IntRange(0, c.WindowSyncs+1).Draw(t, "age"),
					Replicas: rapid.IntRange(1, c.Max+2).Draw(t, "rec"),
				})
			}
		}
		return c
	})
}
