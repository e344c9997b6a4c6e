package quotadiff

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/podspec"
)

// Namespace is where every generated object of a Case lives.
const Namespace = "shop"

// Resources and Container are the containers' requests and limits as
// written (podspec, shared with admissiondiff).
type (
	Resources = podspec.Resources
	Container = podspec.Container
)

// Spec is one pod spec of the namespace: the pod template of one
// workload (a Deployment, or a Job when it has an activeDeadlineSeconds,
// which the API server refuses in a Deployment's template).
type Spec struct {
	Containers, InitContainers []Container
	// PriorityClass is spec.priorityClassName ("" none).
	PriorityClass string
	// ActiveDeadline is spec.activeDeadlineSeconds (nil none).
	ActiveDeadline *int64
}

// ScopeExpr is one matchExpression of a quota's scopeSelector.
type ScopeExpr struct {
	Scope, Operator string
	Values          []string `json:",omitempty"`
}

// Quota is one ResourceQuota of the namespace.
type Quota struct {
	Name string
	// Hard is spec.hard: resource name → quantity.
	Hard Resources
	// Scopes is spec.scopes.
	Scopes   []string    `json:",omitempty"`
	Selector []ScopeExpr `json:",omitempty"`
}

// The phases of an existing pod.
const (
	Pending   = "Pending"
	Running   = "Running"
	Succeeded = "Succeeded"
	Failed    = "Failed"
)

// Pod is one existing pod of the namespace: a pod of spec Spec in phase
// Phase, deleted (with a deletion timestamp) or not; a deleted pod's
// grace period has elapsed unless WithinGrace.
type Pod struct {
	Spec        int
	Phase       string
	Deleted     bool `json:",omitempty"`
	WithinGrace bool `json:",omitempty"`
}

// Case is one namespace: its pod specs, quotas (in the order of the
// input), existing pods and the spec of the pod to create. DefaultClass
// makes PriorityClass "low" the globalDefault (the priority admission
// plugin gives it to a pod that names none).
type Case struct {
	Specs        []Spec
	Quotas       []Quota
	Pods         []Pod `json:",omitempty"`
	New          int
	DefaultClass bool `json:",omitempty"`
}

func (c *Case) String() string {
	b, _ := json.MarshalIndent(c, "", "  ")
	return string(b) + "\n"
}

// clone returns a deep copy of c.
func (c *Case) clone() *Case {
	d := &Case{New: c.New, DefaultClass: c.DefaultClass, Pods: slices.Clone(c.Pods)}
	for _, s := range c.Specs {
		n := Spec{Containers: podspec.Clone(s.Containers), InitContainers: podspec.Clone(s.InitContainers), PriorityClass: s.PriorityClass}
		if s.ActiveDeadline != nil {
			v := *s.ActiveDeadline
			n.ActiveDeadline = &v
		}
		d.Specs = append(d.Specs, n)
	}
	for _, q := range c.Quotas {
		n := Quota{Name: q.Name, Hard: maps.Clone(q.Hard), Scopes: slices.Clone(q.Scopes)}
		for _, e := range q.Selector {
			n.Selector = append(n.Selector, ScopeExpr{Scope: e.Scope, Operator: e.Operator, Values: slices.Clone(e.Values)})
		}
		d.Quotas = append(d.Quotas, n)
	}
	return d
}

// Quantities the generator draws from: few values, so that sums meet
// hard limits often (a limit is inclusive). The memory value not in
// whole MiB (100M) and the cpu value not in whole millicores (250500u)
// exercise the model's units.
var (
	cpuValues = []string{"0", "50m", "100m", "200m", "250m", "250500u", "500m", "1"}
	memValues = []string{"0", "32Mi", "64Mi", "100M", "128Mi", "256Mi", "512Mi", "1Gi"}
	// Hard limits: a few pods' worth.
	cpuHard   = []string{"0", "100m", "200m", "300m", "500m", "1", "1500m", "2"}
	memHard   = []string{"0", "64Mi", "128Mi", "256Mi", "512Mi", "1Gi", "2Gi"}
	countHard = []string{"0", "1", "2", "3", "4", "5"}
)

// QuotaResources are the resources a generated quota limits: the pod
// resources the model checks.
var QuotaResources = []string{"pods", "count/pods", "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"}

// PriorityClasses are the PriorityClasses of every case (the model's reader
// rejects a priorityClassName no PriorityClass has).
var PriorityClasses = []string{"high", "low"}

// hardValues are the quantities of a hard limit on resource name.
func hardValues(name string) []string {
	switch {
	case name == "pods" || name == "count/pods":
		return countHard
	case strings.HasSuffix(name, "cpu"):
		return cpuHard
	}
	return memHard
}

// GenCase draws a case: 1–3 pod specs of 1–2 containers and 0–2 init
// containers (one in three a sidecar), each with a cpu and a memory
// request and limit, either or neither (both one in two: the request at
// most the limit); a priorityClassName one in two, an activeDeadlineSeconds one
// in four; 1–3 quotas of 1–3 resources with 0–2 scopes and 0–2
// scopeSelector expressions (a BestEffort scope limits pods only and
// a scoped quota no count/pods, as the API server requires; conflicting scopes one draw in twelve); 0–6
// existing pods in every phase, deleted one in four (within the grace
// period one in two of those); the new pod of any spec.
func GenCase(t *rapid.T) *Case {
	c := &Case{DefaultClass: rapid.IntRange(1, 6).Draw(t, "defaultClass") == 1}
	container := func(label string) Container {
		x := Container{Requests: Resources{}, Limits: Resources{}}
		for _, name := range []string{"cpu", "memory"} {
			vs := cpuValues
			if name == "memory" {
				vs = memValues
			}
			is := []int{rapid.IntRange(0, len(vs)-1).Draw(t, label+name), rapid.IntRange(0, len(vs)-1).Draw(t, label+name)}
			slices.Sort(is)
			switch rapid.IntRange(0, 5).Draw(t, label+name+"Fields") {
			case 1:
				x.Requests[name] = vs[is[0]]
			case 2:
				x.Limits[name] = vs[is[1]]
			case 3, 4, 5:
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
	for range rapid.IntRange(1, 3).Draw(t, "specs") {
		var s Spec
		for range rapid.IntRange(1, 2).Draw(t, "containers") {
			s.Containers = append(s.Containers, container("c"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "initContainers") {
			x := container("i")
			x.Sidecar = rapid.IntRange(1, 3).Draw(t, "sidecar") == 1
			s.InitContainers = append(s.InitContainers, x)
		}
		if rapid.Bool().Draw(t, "named") {
			s.PriorityClass = rapid.SampledFrom(PriorityClasses).Draw(t, "class")
		}
		if rapid.IntRange(1, 4).Draw(t, "deadline") == 1 {
			v := int64(rapid.IntRange(1, 600).Draw(t, "activeDeadlineSeconds"))
			s.ActiveDeadline = &v
		}
		c.Specs = append(c.Specs, s)
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "quotas") {
		q := Quota{Name: fmt.Sprintf("q%d", i), Hard: Resources{}}
		bestEffort := false
		scope := func(label string) string {
			sc := rapid.SampledFrom([]string{"BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "PriorityClass"}).Draw(t, label)
			bestEffort = bestEffort || sc == "BestEffort"
			return sc
		}
		for range rapid.IntRange(0, 2).Draw(t, "scopes") {
			if sc := scope("scope"); !slices.Contains(q.Scopes, sc) {
				q.Scopes = append(q.Scopes, sc)
			}
		}
		for range rapid.IntRange(0, 2).Draw(t, "expressions") {
			e := ScopeExpr{Scope: scope("selectorScope"), Operator: "Exists"}
			if e.Scope == "PriorityClass" {
				e.Operator = rapid.SampledFrom([]string{"In", "NotIn", "Exists", "DoesNotExist"}).Draw(t, "operator")
				if e.Operator == "In" || e.Operator == "NotIn" {
					e.Values = rapid.SliceOfNDistinct(rapid.SampledFrom(PriorityClasses), 1, 2, rapid.ID[string]).Draw(t, "values")
				}
			}
			q.Selector = append(q.Selector, e)
		}
		if conflicting(q) && rapid.IntRange(1, 12).Draw(t, "keepConflict") > 1 {
			q.Scopes, q.Selector = nil, nil
			bestEffort = false
		}
		names := QuotaResources
		switch {
		case bestEffort:
			names = []string{"pods"}
		case len(q.Scopes)+len(q.Selector) > 0:
			names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "count/pods" })
		}
		for range rapid.IntRange(1, 3).Draw(t, "resources") {
			name := rapid.SampledFrom(names).Draw(t, "resource")
			q.Hard[name] = rapid.SampledFrom(hardValues(name)).Draw(t, "hard")
		}
		c.Quotas = append(c.Quotas, q)
	}
	for range rapid.IntRange(0, 6).Draw(t, "pods") {
		p := Pod{Spec: rapid.IntRange(0, len(c.Specs)-1).Draw(t, "podSpec"),
			Phase: rapid.SampledFrom([]string{Pending, Running, Running, Succeeded, Failed}).Draw(t, "phase")}
		if (p.Phase == Pending || p.Phase == Running) && rapid.IntRange(1, 4).Draw(t, "deleted") == 1 {
			p.Deleted = true
			p.WithinGrace = rapid.Bool().Draw(t, "withinGrace")
		}
		c.Pods = append(c.Pods, p)
	}
	c.New = rapid.IntRange(0, len(c.Specs)-1).Draw(t, "new")
	return c
}

// conflicting reports whether q has both scopes of a pair
// (BestEffort/NotBestEffort, Terminating/NotTerminating) among its
// scopes and selector, which the API server refuses.
func conflicting(q Quota) bool {
	has := map[string]bool{}
	for _, s := range q.Scopes {
		has[s] = true
	}
	for _, e := range q.Selector {
		has[e.Scope] = true
	}
	return has["BestEffort"] && has["NotBestEffort"] || has["Terminating"] && has["NotTerminating"]
}

// workloadName is the name of spec i's workload.
func workloadName(i int) string { return fmt.Sprintf("w%d", i) }

// job reports whether spec s is a Job's pod template.
func (s Spec) job() bool { return s.ActiveDeadline != nil }

// YAML renders the case as the manifest stream the model reads: one Node
// big enough for any pod, the PriorityClasses, the quotas in order and
// one workload per spec.
func (c *Case) YAML() []byte {
	var docs []any
	docs = append(docs, map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": "n1"},
		"status": map[string]any{"allocatable": map[string]any{"cpu": "256", "memory": "1Ti", "pods": "250"}}})
	for i, name := range PriorityClasses {
		pc := map[string]any{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": map[string]any{"name": name},
			"value": 1000 * (len(PriorityClasses) - i)}
		if name == "low" && c.DefaultClass {
			pc["globalDefault"] = true
		}
		docs = append(docs, pc)
	}
	for _, q := range c.Quotas {
		spec := map[string]any{"hard": q.Hard}
		if len(q.Scopes) > 0 {
			spec["scopes"] = q.Scopes
		}
		if len(q.Selector) > 0 {
			var exprs []any
			for _, e := range q.Selector {
				m := map[string]any{"scopeName": e.Scope, "operator": e.Operator}
				if len(e.Values) > 0 {
					m["values"] = e.Values
				}
				exprs = append(exprs, m)
			}
			spec["scopeSelector"] = map[string]any{"matchExpressions": exprs}
		}
		docs = append(docs, map[string]any{"apiVersion": "v1", "kind": "ResourceQuota",
			"metadata": map[string]any{"name": q.Name, "namespace": Namespace}, "spec": spec})
	}
	for i, s := range c.Specs {
		name := workloadName(i)
		labels := map[string]string{"app": name}
		tmpl := map[string]any{"metadata": map[string]any{"labels": labels}, "spec": s.yamlSpec()}
		if s.job() {
			docs = append(docs, map[string]any{"apiVersion": "batch/v1", "kind": "Job",
				"metadata": map[string]any{"name": name, "namespace": Namespace},
				"spec":     map[string]any{"template": tmpl}})
			continue
		}
		docs = append(docs, map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": name, "namespace": Namespace},
			"spec":     map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": labels}, "template": tmpl}})
	}
	return podspec.Stream(docs)
}

func (s Spec) yamlSpec() map[string]any {
	spec := map[string]any{"containers": podspec.YAML("c", s.Containers)}
	if len(s.InitContainers) > 0 {
		spec["initContainers"] = podspec.YAML("i", s.InitContainers)
	}
	if s.PriorityClass != "" {
		spec["priorityClassName"] = s.PriorityClass
	}
	if s.job() {
		spec["restartPolicy"] = "Never"
		spec["activeDeadlineSeconds"] = *s.ActiveDeadline
	}
	return spec
}
