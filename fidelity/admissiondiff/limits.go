package admissiondiff

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/podspec"
	"github.com/kivi-go/kivi/inputs/manifest"
)

// Namespace is where every generated object of a LimitCase lives.
const Namespace = "shop"

// Resources and Container are the containers' requests and limits as
// written (podspec, shared with quotadiff).
type (
	Resources = podspec.Resources
	Container = podspec.Container
)

// Item is one item of a LimitRange.
type Item struct {
	Type                                             string // Container or Pod
	Min, Max, Default, DefaultRequest, MaxLimitRatio Resources
}

// LimitCase is one Deployment and the LimitRanges of its namespace, in
// input order.
type LimitCase struct {
	Containers, InitContainers []Container
	LimitRanges                [][]Item
}

func (c *LimitCase) String() string {
	b, _ := json.MarshalIndent(c, "", "  ")
	return string(b) + "\n"
}

// clone returns a deep copy of c.
func (c *LimitCase) clone() *LimitCase {
	d := &LimitCase{Containers: podspec.Clone(c.Containers), InitContainers: podspec.Clone(c.InitContainers)}
	for _, lr := range c.LimitRanges {
		items := make([]Item, len(lr))
		for i, it := range lr {
			items[i] = Item{Type: it.Type, Min: maps.Clone(it.Min), Max: maps.Clone(it.Max), Default: maps.Clone(it.Default),
				DefaultRequest: maps.Clone(it.DefaultRequest), MaxLimitRatio: maps.Clone(it.MaxLimitRatio)}
		}
		d.LimitRanges = append(d.LimitRanges, items)
	}
	return d
}

// Quantities the generator draws from: few values, so that requests,
// limits and bounds meet often (a bound is inclusive); each value in
// several spellings. The memory values not in whole MiB (100M, 1G, 64Mi
// and one byte) and the CPU values not in whole millicores (250500u)
// exercise the model's units.
var (
	cpuValues = []string{"0", "10m", "50m", "100m", "0.1", "200m", "250m", "250500u", "500m", "0.5", "1", "1000m", "1.5", "2"}
	memValues = []string{"0", "32Mi", "64Mi", "67108865", "100M", "128Mi", "256Mi", "0.25Gi", "512Mi", "1G", "1Gi", "1024Mi", "2Gi"}
	// Ratios: 1.1 and 1.2 are not exact in binary floating point.
	ratioValues = []string{"1", "1.1", "1.2", "1.5", "2", "4", "10"}
)

// Quantity lists are in ascending order of value.
var valuesOf = map[string][]string{"cpu": cpuValues, "memory": memValues}

// ascending draws n indices of values, in ascending order, except one
// draw in eight, whose order is any (a request above its limit, bounds
// the API server refuses).
func ascending(t *rapid.T, label string, n, size int) []int {
	is := make([]int, n)
	for i := range is {
		is[i] = rapid.IntRange(0, size-1).Draw(t, label)
	}
	if rapid.IntRange(1, 8).Draw(t, label+"Unordered") > 1 {
		slices.Sort(is)
	}
	return is
}

// GenLimitCase draws a case: 1–3 containers and 0–2 init containers (one
// in three a sidecar), each with a cpu and a memory request and limit
// present or not (both: the request at most the limit, except one draw
// in eight); 0–2 LimitRanges of one item (one in eight a Pod item) or,
// one in twelve, two (a duplicate type, which the API server refuses),
// whose min ≤ defaultRequest ≤ default ≤ max (except one draw in eight)
// are each present or not for cpu and memory, and
// maxLimitRequestRatio one in four.
func GenLimitCase(t *rapid.T) *LimitCase {
	c := &LimitCase{}
	container := func(label string) Container {
		x := Container{Requests: Resources{}, Limits: Resources{}}
		for _, name := range []string{"cpu", "memory"} {
			vs := valuesOf[name]
			is := ascending(t, label+name, 2, len(vs))
			switch rapid.IntRange(0, 3).Draw(t, label+name+"Fields") {
			case 1:
				x.Requests[name] = vs[is[0]]
			case 2:
				x.Limits[name] = vs[is[1]]
			case 3:
				x.Requests[name], x.Limits[name] = vs[is[0]], vs[is[1]]
			}
		}
		if len(x.Requests) == 0 {
			x.Requests = nil
		}
		if len(x.Limits) == 0 {
			x.Limits = nil
		}
		return x
	}
	for range rapid.IntRange(1, 3).Draw(t, "containers") {
		c.Containers = append(c.Containers, container("c"))
	}
	for range rapid.IntRange(0, 2).Draw(t, "initContainers") {
		x := container("i")
		x.Sidecar = rapid.IntRange(1, 3).Draw(t, "sidecar") == 1
		c.InitContainers = append(c.InitContainers, x)
	}
	for range rapid.IntRange(0, 2).Draw(t, "limitRanges") {
		var items []Item
		n := 1
		if rapid.IntRange(1, 12).Draw(t, "twoItems") == 1 {
			n = 2
		}
		for range n {
			it := Item{Type: "Container"}
			if rapid.IntRange(1, 8).Draw(t, "podItem") == 1 {
				it.Type = "Pod"
			}
			for _, name := range []string{"cpu", "memory"} {
				if rapid.Bool().Draw(t, "bounded") {
					continue
				}
				vs := valuesOf[name][1:] // bounds of 0 are rare
				is := ascending(t, "bound"+name, 4, len(vs))
				for j, field := range []*Resources{&it.Min, &it.DefaultRequest, &it.Default, &it.Max} {
					if it.Type == "Pod" && (field == &it.Default || field == &it.DefaultRequest) {
						continue
					}
					if rapid.Bool().Draw(t, "boundPresent") {
						if *field == nil {
							*field = Resources{}
						}
						(*field)[name] = vs[is[j]]
					}
				}
				if rapid.IntRange(1, 4).Draw(t, "ratio") == 1 {
					if it.MaxLimitRatio == nil {
						it.MaxLimitRatio = Resources{}
					}
					it.MaxLimitRatio[name] = rapid.SampledFrom(ratioValues).Draw(t, "ratioValue")
				}
			}
			items = append(items, it)
		}
		c.LimitRanges = append(c.LimitRanges, items)
	}
	return c
}

// YAML renders the case as the manifest stream the model reads: one Node
// big enough for any pod, the LimitRanges in order, the Deployment.
func (c *LimitCase) YAML() []byte {
	var docs []any
	docs = append(docs, map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": "n1"},
		"status": map[string]any{"allocatable": map[string]any{"cpu": "256", "memory": "1Ti"}}})
	for i, lr := range c.LimitRanges {
		var items []any
		for _, it := range lr {
			m := map[string]any{"type": it.Type}
			for k, r := range map[string]Resources{"min": it.Min, "max": it.Max, "default": it.Default, "defaultRequest": it.DefaultRequest, "maxLimitRequestRatio": it.MaxLimitRatio} {
				if r != nil {
					m[k] = r
				}
			}
			items = append(items, m)
		}
		docs = append(docs, map[string]any{"apiVersion": "v1", "kind": "LimitRange",
			"metadata": map[string]any{"name": limitRangeName(i), "namespace": Namespace}, "spec": map[string]any{"limits": items}})
	}
	spec := map[string]any{"containers": podspec.YAML("c", c.Containers)}
	if len(c.InitContainers) > 0 {
		spec["initContainers"] = podspec.YAML("i", c.InitContainers)
	}
	docs = append(docs, map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "app", "namespace": Namespace},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]string{"app": "a"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]string{"app": "a"}}, "spec": spec}}})
	return podspec.Stream(docs)
}

func limitRangeName(i int) string { return fmt.Sprintf("lr%d", i) }

// Verdict is an outcome of admitting the case's pod: a LimitRange the
// API server refuses, the Deployment's pod template it refuses, a pod it
// refuses, or the pod's effective requests in model units (millicores;
// MiB, rounded up).
type Verdict struct {
	LimitRangeRefused bool
	DeploymentRefused bool
	PodRefused        bool
	CPU, Memory       int64
	// Why is the reason of a refusal, for the report.
	Why string
}

func (v Verdict) same(w Verdict) bool {
	return v.LimitRangeRefused == w.LimitRangeRefused && v.DeploymentRefused == w.DeploymentRefused && v.PodRefused == w.PodRefused &&
		v.CPU == w.CPU && v.Memory == w.Memory
}

func (v Verdict) String() string {
	switch {
	case v.LimitRangeRefused:
		return "LimitRange refused: " + v.Why
	case v.DeploymentRefused:
		return "Deployment refused: " + v.Why
	case v.PodRefused:
		return "pod refused: " + v.Why
	}
	return fmt.Sprintf("admitted: cpu %dm, memory %dMi", v.CPU, v.Memory)
}

// ModelLimits is the model's verdict: manifest.LoadStream on the case's
// YAML. An error naming a LimitRange field is the LimitRange refused,
// one saying "rejects the Deployment" the Deployment refused, one saying
// "rejects the pod" the pod refused; any other error is returned.
func ModelLimits(c *LimitCase) (Verdict, error) {
	r, err := manifest.LoadStream([]manifest.File{{Name: "case.yaml", Data: c.YAML()}}, nil, nil, manifest.Options{})
	if err != nil {
		msg := err.Error()
		switch {
		case strings.Contains(msg, "rejects the Deployment"):
			return Verdict{DeploymentRefused: true, Why: msg}, nil
		case strings.Contains(msg, "rejects the pod"):
			return Verdict{PodRefused: true, Why: msg}, nil
		case strings.Contains(msg, "LimitRange") && strings.Contains(msg, "spec.limits"):
			return Verdict{LimitRangeRefused: true, Why: msg}, nil
		}
		return Verdict{}, fmt.Errorf("model: %w\n%s", err, c.YAML())
	}
	if len(r.Cluster.Templates) != 1 {
		return Verdict{}, fmt.Errorf("model: %d templates", len(r.Cluster.Templates))
	}
	td := r.Cluster.Templates[0]
	return Verdict{CPU: td.CPU, Memory: td.Memory}, nil
}

// roundedUp returns q rounded up to a whole number of unit, written in
// unitName ("m" or "Mi").
func roundedUp(q string, unit *big.Rat, unitName string) string {
	v := mustParse(q)
	r, ok := new(big.Rat).SetString(v.AsDec().String())
	if !ok {
		panic(q)
	}
	r.Quo(r, unit)
	n := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(n).Cmp(r) < 0 {
		n.Add(n, big.NewInt(1))
	}
	return n.String() + unitName
}

// mapResources applies f to every cpu and memory quantity of the case's
// containers and LimitRange bounds other than maxLimitRequestRatio.
func (c *LimitCase) mapResources(f func(name, q string) string) *LimitCase {
	d := c.clone()
	apply := func(r Resources) {
		for _, k := range slices.Sorted(maps.Keys(r)) {
			r[k] = f(k, r[k])
		}
	}
	for _, cs := range [][]Container{d.Containers, d.InitContainers} {
		for _, x := range cs {
			apply(x.Requests)
			apply(x.Limits)
		}
	}
	for _, lr := range d.LimitRanges {
		for _, it := range lr {
			for _, r := range []Resources{it.Min, it.Max, it.Default, it.DefaultRequest} {
				apply(r)
			}
		}
	}
	return d
}
