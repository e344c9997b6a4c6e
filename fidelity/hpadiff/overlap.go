package hpadiff

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
	metricsapi "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"

	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/fidelity/classify"
	"github.com/kivi-go/kivi/model"
)

// OvPod is one existing pod of an OvDep: its phase as the replica
// calculator reads it and its usage (millicores, MiB), which the metrics
// server reports for a Running pod.
type OvPod struct {
	Phase       OvPhase
	CPU, Memory int64
}

// OvPhase is a pod's state: Running and Ready, Running and never Ready
// (past the CPU initialisation period), Pending (unbound) or Terminating
// (Running and Ready, with a deletion timestamp).
type OvPhase uint8

const (
	OvReady OvPhase = iota
	OvNotReady
	OvPending
	OvTerminating
)

func (p OvPhase) String() string {
	return [...]string{"ready", "not-ready", "pending", "terminating"}[p]
}

// OvDep is one Deployment of an OvCase: labels and selector as an
// AmbDep's, spec.replicas, its pods' one container (its name and its
// requests, 0 for none: a template missing a request) and the pods that
// exist.
type OvDep struct {
	Labels, Selector map[string]string
	Exprs            []metav1.LabelSelectorRequirement
	Replicas         int
	Container        string
	CPU, Memory      int64
	Pods             []OvPod
}

func (d *OvDep) labelSelector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: d.Selector, MatchExpressions: d.Exprs}
}

// OvMetric is an HPA's one metric: Type Resource, ContainerResource
// (on the target's container), Pods, Object or External; Resource cpu
// or memory; Target Utilization, AverageValue or Value; Value the
// target in percent, in model units (millicores, MiB) for a resource's
// AverageValue, else in milli-units.
type OvMetric struct {
	Type, Resource, Target string
	Value                  int64
}

func (m OvMetric) String() string {
	return fmt.Sprintf("%s %s %s %d", m.Type, m.Resource, m.Target, m.Value)
}

// known reports whether the model knows the metric's values (a
// resource's usage); the others it branches over (hpa.MetricRecommendations).
func (m OvMetric) known() bool { return m.Type == "Resource" || m.Type == "ContainerResource" }

// OvHPA is one HPA of an OvCase, on Deployment Target. A metric
// outside the model has a tolerance of TolerancePercent in both
// directions (spec.behavior's, unless 10); a resource metric has the
// default 10 %.
type OvHPA struct {
	Name             string
	Target, Min, Max int
	Metric           OvMetric
	TolerancePercent int
}

// OvCase is one namespace of Deployments whose selectors may select
// each other's pods, and HPAs on some of them such that no pod one HPA
// lists is selected by another HPA's target (no AmbiguousSelector).
type OvCase struct {
	Deps []OvDep
	HPAs []OvHPA
}

func (c *OvCase) String() string {
	var b strings.Builder
	for i, d := range c.Deps {
		fmt.Fprintf(&b, "  deployment d%d labels %s selector %s replicas %d container %s requests %dm %dMi pods %v\n", i, labelString(d.Labels),
			metav1.FormatLabelSelector(d.labelSelector()), d.Replicas, d.Container, d.CPU, d.Memory, d.Pods)
	}
	for _, h := range c.HPAs {
		fmt.Fprintf(&b, "  hpa %s on d%d min %d max %d metric %v tolerance %d%%\n", h.Name, h.Target, h.Min, h.Max, h.Metric, h.TolerancePercent)
	}
	return b.String()
}

func (c *OvCase) clone() *OvCase {
	d := &OvCase{HPAs: slices.Clone(c.HPAs)}
	for _, x := range c.Deps {
		x.Labels, x.Selector = maps.Clone(x.Labels), maps.Clone(x.Selector)
		x.Exprs, x.Pods = slices.Clone(x.Exprs), slices.Clone(x.Pods)
		d.Deps = append(d.Deps, x)
	}
	return d
}

// selects reports whether Deployment a's selector selects b's pods.
func (c *OvCase) selects(a, b int) bool {
	sel, err := metav1.LabelSelectorAsSelector(c.Deps[a].labelSelector())
	if err != nil {
		panic(err) // the generator's requirements are valid
	}
	return sel.Matches(labels.Set(c.Deps[b].Labels))
}

// Foreign is the number of pods of other Deployments the selector of
// HPA i's target lists.
func (c *OvCase) Foreign(i int) int {
	t, n := c.HPAs[i].Target, 0
	for b := range c.Deps {
		if b != t && c.selects(t, b) {
			n += len(c.Deps[b].Pods)
		}
	}
	return n
}

// ovMetrics are the metrics drawn, Resource ones the most often.
var ovMetrics = []OvMetric{
	{"Resource", "cpu", "Utilization", 0}, {"Resource", "cpu", "Utilization", 0}, {"Resource", "cpu", "AverageValue", 0},
	{"Resource", "memory", "Utilization", 0}, {"Resource", "memory", "AverageValue", 0},
	{"ContainerResource", "cpu", "Utilization", 0}, {"ContainerResource", "memory", "AverageValue", 0},
	{"Pods", "", "AverageValue", 0}, {"Object", "", "Value", 0}, {"Object", "", "AverageValue", 0},
	{"External", "", "Value", 0}, {"External", "", "AverageValue", 0},
	// The per-pod Object and External targets divide by the target's
	// own status.replicas, not by the pods listed.
	{"Object", "", "AverageValue", 0}, {"External", "", "AverageValue", 0},
}

// GenOvCase draws a case: 2..4 Deployments labelled and selected as
// GenAmbCase's; each with one container named app (or main, one time in
// four) requesting 100..1000 m CPU and 64..512 MiB (each missing one time
// in five); spec.replicas 0..7 and up to 4 pods (never more than
// spec.replicas), Ready mostly, else not Ready, Pending or Terminating,
// or, one time in five, a Deployment scaled to 0 whose 1..2 pods are
// still Terminating (each request missing half the time),
// using 0..3 times their CPU request and 0..2 times their memory one;
// 1..3 HPAs on distinct Deployments (minReplicas 1..3, maxReplicas up to
// 5 above; a metric of ovMetrics, one outside the model with a tolerance
// of 0, 10 or 50 %), an HPA dropped when its target's
// selector and an earlier HPA's select the pods of one Deployment; three
// times in four an HPA's target gets a count within its range (and no
// fewer than its pods).
func GenOvCase(r *rand.Rand) *OvCase {
	c := &OvCase{}
	for range 2 + r.IntN(3) {
		d := OvDep{Container: "app"}
		d.Labels, d.Selector, d.Exprs = genLabelsAndSelector(r)
		if r.IntN(4) == 0 {
			d.Container = "main"
		}
		d.CPU = []int64{100, 200, 250, 500, 1000}[r.IntN(5)]
		d.Memory = []int64{64, 128, 256, 512}[r.IntN(4)]
		if r.IntN(5) == 0 {
			d.CPU = 0
		}
		if r.IntN(5) == 0 {
			d.Memory = 0
		}
		d.Replicas = r.IntN(8)
		draining := r.IntN(5) == 0
		n := r.IntN(min(d.Replicas, 4) + 1)
		if draining {
			// Its pods are listed but not grouped: only the requests
			// calculateRequests reads are left of them, and a missing
			// one fails a Utilization metric.
			d.Replicas, n = 0, 1+r.IntN(2)
			if r.IntN(2) == 0 {
				d.CPU = 0
			}
			if r.IntN(2) == 0 {
				d.Memory = 0
			}
		}
		for range n {
			p := OvPod{Phase: []OvPhase{OvReady, OvReady, OvReady, OvReady, OvNotReady, OvPending, OvTerminating}[r.IntN(7)]}
			if draining {
				p.Phase = OvTerminating
			}
			p.CPU = r.Int64N(3*max(d.CPU, 100) + 1)
			p.Memory = r.Int64N(2*max(d.Memory, 64) + 1)
			d.Pods = append(d.Pods, p)
		}
		c.Deps = append(c.Deps, d)
	}
	for i, t := range r.Perm(len(c.Deps))[:1+r.IntN(min(3, len(c.Deps)))] {
		h := OvHPA{Name: fmt.Sprintf("h%d", i), Target: t, Min: 1 + r.IntN(3)}
		h.Max = h.Min + r.IntN(6)
		h.Metric = ovMetrics[r.IntN(len(ovMetrics))]
		h.Metric.Value = ovTarget(r, h.Metric)
		h.TolerancePercent = 10
		if !h.Metric.known() {
			h.TolerancePercent = []int{10, 0, 50, 50}[r.IntN(4)]
		}
		if !slices.ContainsFunc(c.HPAs, func(o OvHPA) bool { return c.overlap(o.Target, t) }) {
			c.HPAs = append(c.HPAs, h)
		}
	}
	for i, h := range c.HPAs {
		c.HPAs[i].Name = fmt.Sprintf("h%d", i)
		// Three times in four the target's count is within the HPA's
		// range, so that its sync reads the metric.
		d := &c.Deps[h.Target]
		if lo := max(h.Min, len(d.Pods)); r.IntN(4) != 0 && lo <= h.Max {
			d.Replicas = lo + r.IntN(h.Max-lo+1)
		}
	}
	return c
}

// overlap reports whether the selectors of Deployments a and b select the
// pods of one Deployment (its own pods for a's or b's).
func (c *OvCase) overlap(a, b int) bool {
	for d := range c.Deps {
		if c.selects(a, d) && c.selects(b, d) {
			return true
		}
	}
	return false
}

// ovTarget draws m's target: a percentage, millicores or MiB, or a small
// milli-value for a metric outside the model (where the formulas' steps
// skip counts).
func ovTarget(r *rand.Rand, m OvMetric) int64 {
	switch {
	case m.Target == "Utilization":
		return []int64{50, 80, 100, 150}[r.IntN(4)]
	case !m.known():
		return []int64{1, 2, 3, 7}[r.IntN(4)]
	case m.Resource == "cpu":
		return []int64{100, 250, 500, 1000}[r.IntN(4)]
	}
	return []int64{64, 128, 256}[r.IntN(3)]
}

// OvYAML is the case as a running cluster's dump: one Node, the
// Deployments, the HPAs and the pods that exist, all Running on the node
// (ModelOverlap sets their phases, readiness and usage in the state),
// owned by their Deployment's ReplicaSet.
func (c *OvCase) OvYAML() []byte {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	b.WriteString("- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: \"64\", memory: 64Gi, pods: \"110\"}}}\n")
	flow := func(m map[string]string) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, k+": "+m[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	ctr := func(d *OvDep) string {
		var req []string
		if d.CPU > 0 {
			req = append(req, fmt.Sprintf("cpu: %dm", d.CPU))
		}
		if d.Memory > 0 {
			req = append(req, fmt.Sprintf("memory: %dMi", d.Memory))
		}
		return fmt.Sprintf("[{name: %s, resources: {requests: {%s}}}]", d.Container, strings.Join(req, ", "))
	}
	for d := range c.Deps {
		dep := &c.Deps[d]
		var exprs []string
		for _, e := range dep.Exprs {
			exprs = append(exprs, fmt.Sprintf("{key: %s, operator: %s, values: [%s]}", e.Key, e.Operator, strings.Join(e.Values, ", ")))
		}
		fmt.Fprintf(&b, "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: d%d, namespace: default}, spec: {replicas: %d, selector: {matchLabels: %s, matchExpressions: [%s]}, template: {metadata: {labels: %s}, spec: {containers: %s}}}}\n",
			d, dep.Replicas, flow(dep.Selector), strings.Join(exprs, ", "), flow(dep.Labels), ctr(dep))
	}
	for _, h := range c.HPAs {
		behavior := ""
		if h.TolerancePercent != 10 {
			tol := fmt.Sprintf("\"%g\"", float64(h.TolerancePercent)/100)
			behavior = fmt.Sprintf(", behavior: {scaleUp: {tolerance: %s}, scaleDown: {tolerance: %s}}", tol, tol)
		}
		fmt.Fprintf(&b, "- {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: %s, namespace: default}, spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d%d}, minReplicas: %d, maxReplicas: %d, metrics: [%s]%s}}\n",
			h.Name, h.Target, h.Min, h.Max, c.metricYAML(h), behavior)
	}
	for d := range c.Deps {
		dep := &c.Deps[d]
		for i := range dep.Pods {
			l := maps.Clone(dep.Labels)
			l["pod-template-hash"] = fmt.Sprintf("h%d", d)
			fmt.Fprintf(&b, "- {apiVersion: v1, kind: Pod, metadata: {name: d%d-h%d-%d, namespace: default, labels: %s, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: d%d-h%d, controller: true}]}, spec: {nodeName: n1, containers: %s}, status: {phase: Running}}\n",
				d, d, i, flow(l), d, d, ctr(dep))
		}
	}
	return []byte(b.String())
}

// quantity is a metric target as a manifest writes it.
func (m OvMetric) quantity() string {
	switch {
	case !m.known():
		return fmt.Sprintf("%dm", m.Value)
	case m.Resource == "cpu":
		return fmt.Sprintf("%dm", m.Value)
	}
	return fmt.Sprintf("%dMi", m.Value)
}

func (c *OvCase) metricYAML(h OvHPA) string {
	m := h.Metric
	target := fmt.Sprintf("{type: Utilization, averageUtilization: %d}", m.Value)
	if m.Target != "Utilization" {
		field := map[string]string{"AverageValue": "averageValue", "Value": "value"}[m.Target]
		target = fmt.Sprintf("{type: %s, %s: %s}", m.Target, field, m.quantity())
	}
	switch m.Type {
	case "Resource":
		return fmt.Sprintf("{type: Resource, resource: {name: %s, target: %s}}", m.Resource, target)
	case "ContainerResource":
		return fmt.Sprintf("{type: ContainerResource, containerResource: {name: %s, container: %s, target: %s}}", m.Resource, c.Deps[h.Target].Container, target)
	case "Pods":
		return fmt.Sprintf("{type: Pods, pods: {metric: {name: m}, target: %s}}", target)
	case "Object":
		return fmt.Sprintf("{type: Object, object: {describedObject: {apiVersion: networking.k8s.io/v1, kind: Ingress, name: main}, metric: {name: m}, target: %s}}", target)
	}
	return fmt.Sprintf("{type: External, external: {metric: {name: m}, target: %s}}", target)
}

// OvVerdict is one side's answer for one HPA: for a resource metric the
// replica count its sync leaves (Desired); for a metric outside the
// model the counts (capped at maxReplicas) and whether some value of the
// metric fails it, at every value of the metric.
type OvVerdict struct {
	Desired int
	Counts  []bool
	Fails   bool
}

func ovEqual(m, r OvVerdict) bool {
	return m.Desired == r.Desired && slices.Equal(m.Counts, r.Counts) && m.Fails == r.Fails
}

func (v OvVerdict) String() string {
	if v.Counts != nil {
		return fmt.Sprintf("counts %v fails %v", counts(v.Counts), v.Fails)
	}
	return fmt.Sprintf("%d replicas", v.Desired)
}

// ModelOverlap is the model's answer for every HPA of c: the case read as
// a running cluster's dump by the manifest reader (manifest.LoadStream
// with CurrentPlacement), the universe built, the pods given the case's
// phases, readiness and usage, and for each HPA's target hpa.Recommend
// without a stabilisation window (a resource metric; no recommendation
// leaves the count) or hpa.MetricRecommendations (a metric outside the
// model). adjust, when not nil, changes the universe first (a planted
// wrong model).
func ModelOverlap(c *OvCase, adjust func(*model.Universe)) ([]OvVerdict, error) {
	u, s, dep, err := loadDump(c.OvYAML())
	if err != nil {
		return nil, err
	}
	if adjust != nil {
		adjust(u)
	}
	if err := setOvPods(c, s, dep); err != nil {
		return nil, err
	}
	out := make([]OvVerdict, len(c.HPAs))
	for i, h := range c.HPAs {
		d := dep[fmt.Sprintf("d%d", h.Target)]
		if s.Deps[d].HPA == 0 {
			return nil, fmt.Errorf("model: d%d has no HPA\n%s", h.Target, c.OvYAML())
		}
		spec := &u.HPAs[s.Deps[d].HPA-1]
		if len(spec.Ambiguous) > 0 || len(spec.AmbiguousWhenPodsOf) > 0 || len(spec.Metrics) != 1 {
			return nil, fmt.Errorf("model: HPA %s of d%d: ambiguous %v %v, metrics %+v\n%s", h.Name, h.Target, spec.Ambiguous, spec.AmbiguousWhenPodsOf, spec.Metrics, c.OvYAML())
		}
		current := c.Deps[h.Target].Replicas
		if desired, ok := hpa.EntryCase(current, hpa.Bounds{Min: spec.Min, Max: spec.Max}); ok {
			out[i].Desired = desired
			continue
		}
		if m := &spec.Metrics[0]; m.Kind.Unknown() {
			out[i].Counts, out[i].Fails = hpa.MetricRecommendations(spec, s, d, m, current, hpa.Tolerances(spec), h.Max)
			continue
		}
		rec := hpa.Recommend(u, s, d, spec, current, nil)
		out[i].Desired = current
		if rec.OK {
			out[i].Desired = rec.Desired
		}
	}
	return out, nil
}

// setOvPods gives the pods the reader placed the case's phases,
// readiness and usage. dep maps the Deployments' names to their model
// indices.
func setOvPods(c *OvCase, s *model.State, dep map[string]int) error {
	counts := make([]int, len(c.Deps))
	for d := range c.Deps {
		counts[d] = len(c.Deps[d].Pods)
	}
	return eachCasePod(s, dep, counts, c.OvYAML, func(d, n int, p *model.PodState) {
		o := c.Deps[d].Pods[n]
		p.CPU, p.Memory = int32(o.CPU), int32(o.Memory)
		switch o.Phase {
		case OvNotReady:
			p.Readiness = model.PodNotReady
		case OvPending:
			p.Phase, p.Node = model.Pending, 0
		case OvTerminating:
			p.Phase, p.WasRunning = model.Terminating, true
		}
	})
}

// ovAPI is the case's pods as API objects at time now, labelled as
// their template plus the ReplicaSet's hash, and what the resource
// metrics API reports for them (every Running pod, terminating ones too,
// its one container's usage, the PodMetrics labelled as the pod, as
// metrics-server does).
func (c *OvCase) ovAPI(now time.Time) ([]*v1.Pod, []*metricsapi.PodMetrics) {
	started := metav1.NewTime(now.Add(-10 * time.Minute))
	var pods []*v1.Pod
	var pms []*metricsapi.PodMetrics
	for d := range c.Deps {
		dep := &c.Deps[d]
		req := v1.ResourceList{}
		if dep.CPU > 0 {
			req[v1.ResourceCPU] = *resource.NewMilliQuantity(dep.CPU, resource.DecimalSI)
		}
		if dep.Memory > 0 {
			req[v1.ResourceMemory] = *resource.NewQuantity(dep.Memory<<20, resource.BinarySI)
		}
		for i, o := range dep.Pods {
			l := maps.Clone(dep.Labels)
			l["pod-template-hash"] = fmt.Sprintf("h%d", d)
			p := &v1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("d%d-h%d-%d", d, d, i), Namespace: namespace, Labels: l},
				Spec:       v1.PodSpec{NodeName: "n1", Containers: []v1.Container{{Name: dep.Container, Resources: v1.ResourceRequirements{Requests: req}}}},
				Status: v1.PodStatus{Phase: v1.PodRunning, StartTime: &started, Conditions: []v1.PodCondition{{
					Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(started.Add(10 * time.Second)),
				}}},
			}
			switch o.Phase {
			case OvPending:
				p.Spec.NodeName, p.Status = "", v1.PodStatus{Phase: v1.PodPending}
			case OvNotReady:
				p.Status.Conditions[0] = v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionFalse, LastTransitionTime: started}
			case OvTerminating:
				p.DeletionTimestamp = &metav1.Time{Time: now}
			}
			pods = append(pods, p)
			if o.Phase == OvPending {
				continue
			}
			pms = append(pms, &metricsapi.PodMetrics{
				ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: namespace, Labels: l},
				Timestamp:  metav1.NewTime(now), Window: metav1.Duration{Duration: time.Minute},
				Containers: []metricsapi.ContainerMetrics{{Name: dep.Container, Usage: v1.ResourceList{
					v1.ResourceCPU:    *resource.NewMilliQuantity(o.CPU, resource.DecimalSI),
					v1.ResourceMemory: *resource.NewQuantity(o.Memory<<20, resource.BinarySI),
				}}},
			})
		}
	}
	return pods, pms
}

// resourceMetricsClient is kube-controller-manager's REST metrics client
// over a fake resource metrics API holding pms (its List selects by
// label, as the API server does).
func resourceMetricsClient(pms []*metricsapi.PodMetrics) (metricsclient.MetricsClient, error) {
	cs := metricsfake.NewSimpleClientset()
	gvr := metricsapi.SchemeGroupVersion.WithResource("pods")
	for _, pm := range pms {
		if err := cs.Tracker().Create(gvr, pm, pm.Namespace); err != nil {
			return nil, err
		}
	}
	return metricsclient.NewRESTMetricsClient(cs.MetricsV1beta1(), nil, nil), nil
}

// UpstreamOverlap is kube-controller-manager's answer for every HPA of c:
// the replica calculator over a pod lister holding every pod of the
// namespace, with the selector of the HPA's target, as
// computeReplicasForMetrics calls it. A resource metric runs
// reconcileAutoscaler's entry cases (transcribed), GetResourceReplicas or
// GetRawResourceReplicas through the REST metrics client, and
// normalizeDesiredReplicas without a window; an error leaves the count.
// A metric outside the model runs its calculator at every value as
// RealUnknown does, the pods the selector lists reporting it, with the
// target's own status.replicas (its pods that are not terminating: the
// ReplicaSets' active pods) for a per-pod Object or External target.
func UpstreamOverlap(c *OvCase) []OvVerdict {
	now := time.Now()
	pods, pms := c.ovAPI(now)
	mc, err := resourceMetricsClient(pms)
	if err != nil {
		panic(err)
	}
	lister := &selectingLister{pods}
	calc := podautoscaler.NewReplicaCalculator(mc, lister, cpuInitializationPeriod, delayOfInitialReadinessStatus)
	out := make([]OvVerdict, len(c.HPAs))
	for i, h := range c.HPAs {
		sel, err := metav1.LabelSelectorAsSelector(c.Deps[h.Target].labelSelector())
		if err != nil {
			panic(err)
		}
		if desired, ok := entryCase(c.Deps[h.Target].Replicas, h.Min, h.Max); ok {
			out[i].Desired = desired
			continue
		}
		if !h.Metric.known() {
			out[i] = upstreamUnknown(c, h, sel, lister)
			continue
		}
		out[i].Desired = upstreamResource(c, h, sel, calc)
	}
	return out
}

// upstreamResource is one HPA's sync of a resource metric.
func upstreamResource(c *OvCase, h OvHPA, sel labels.Selector, calc *podautoscaler.ReplicaCalculator) int {
	current := c.Deps[h.Target].Replicas
	m := h.Metric
	container := ""
	if m.Type == "ContainerResource" {
		container = c.Deps[h.Target].Container
	}
	res := v1.ResourceName(m.Resource)
	var proposal int32
	var err error
	if m.Target == "Utilization" {
		proposal, _, _, _, err = calc.GetResourceReplicas(context.Background(), int32(current), int32(m.Value), res, toTolerances(10), namespace, sel, container)
	} else {
		target := m.Value // millicores: the milli-value
		if res == v1.ResourceMemory {
			target = (m.Value << 20) * 1000
		}
		proposal, _, _, err = calc.GetRawResourceReplicas(context.Background(), int32(current), target, res, toTolerances(10), namespace, sel, container)
	}
	if err != nil {
		return current
	}
	hc := controller(&Case{}, time.Now())
	recordInitialRecommendation(hc, int32(current), key)
	minReplicas := int32(h.Min)
	obj := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: h.Name, Namespace: namespace},
		Spec:       autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &minReplicas, MaxReplicas: int32(h.Max)},
	}
	return int(normalizeDesiredReplicas(hc, obj, key, int32(current), proposal, minReplicas))
}

// upstreamUnknown is one HPA's metric outside the model at every value
// from 0 past every count: the counts its calculator proposes (capped at
// maxReplicas) and whether some value fails it.
func upstreamUnknown(c *OvCase, h OvHPA, sel labels.Selector, lister *selectingLister) OvVerdict {
	listed, _ := lister.List(sel)
	// The first name holds a Pods metric's total: a Running pod that is
	// not terminating (a Pods metric reads not-ready pods too).
	var names []string
	for _, p := range listed {
		if p.DeletionTimestamp == nil && p.Status.Phase == v1.PodRunning {
			names = append(names, p.Name)
		}
	}
	status := 0
	for _, p := range c.Deps[h.Target].Pods {
		if p.Phase != OvTerminating {
			status++
		}
	}
	current := c.Deps[h.Target].Replicas
	client := &valueClient{pods: names}
	calc := podautoscaler.NewReplicaCalculator(client, lister, cpuInitializationPeriod, delayOfInitialReadinessStatus)
	tol := toTolerances(h.TolerancePercent)
	ref := &autoscalingv2.CrossVersionObjectReference{Kind: "Ingress", Name: "main"}
	m := h.Metric
	out := OvVerdict{Counts: make([]bool, h.Max+1)}
	bound := int64(h.Max+2) * m.Value * int64(len(listed)+1)
	for a := int64(0); a <= bound; a++ {
		client.value = a
		var r int32
		var err error
		switch {
		case m.Type == "Pods":
			r, _, _, err = calc.GetMetricReplicas(int32(current), m.Value, "m", tol, namespace, sel, labels.Everything())
		case m.Type == "Object" && m.Target == "Value":
			r, _, _, err = calc.GetObjectMetricReplicas(int32(current), m.Value, "m", tol, namespace, ref, sel, labels.Everything())
		case m.Type == "Object":
			r, _, _, err = calc.GetObjectPerPodMetricReplicas(int32(status), m.Value, "m", tol, namespace, ref, labels.Everything())
		case m.Target == "Value":
			r, _, _, err = calc.GetExternalMetricReplicas(int32(current), m.Value, "m", tol, namespace, &metav1.LabelSelector{}, sel)
		default:
			r, _, _, err = calc.GetExternalPerPodMetricReplicas(int32(status), m.Value, "m", tol, namespace, &metav1.LabelSelector{})
		}
		if err != nil {
			out.Fails = true
			continue
		}
		out.Counts[min(max(int(r), 0), h.Max)] = true
	}
	return out
}

// OvSame compares the model's answer for HPA i with upstream's.
func OvSame(model func(*OvCase) ([]OvVerdict, error), i int) func(*OvCase) bool {
	return func(c *OvCase) bool {
		m, err := model(c)
		if err != nil {
			panic(err)
		}
		return ovEqual(m[i], UpstreamOverlap(c)[i])
	}
}

// OvClasses are the known divergences of an HPA whose target's selector
// lists other Deployments' pods, written up in docs/divergences.md
// (section "HPA", "A target's selector that selects another workload's
// pods"). Each applies to one HPA of a case (the index).
func OvClasses(i int) []classify.Class[*OvCase] {
	return []classify.Class[*OvCase]{{
		// The reader reads a ContainerResource metric on the only
		// container of the target's pods as a Resource metric: the
		// model's HPA reads the whole usage and request of every pod it
		// lists. Upstream's metrics client leaves out a pod without a
		// container of that name (getContainerMetrics) and
		// calculateRequests gives it a request of 0, so another
		// workload's pod whose container is named otherwise is a pod
		// without a sample: no usage, no request, counted in the
		// recomputation. Counterfactual: the other workloads' containers
		// named as the target's.
		Name: "container-metric-on-pod-without-container",
		Applies: func(c *OvCase) bool {
			h := c.HPAs[i]
			return h.Metric.Type == "ContainerResource" && slices.ContainsFunc(c.otherSelected(i), func(b int) bool {
				return c.Deps[b].Container != c.Deps[h.Target].Container
			})
		},
		Fix: func(c *OvCase) *OvCase {
			d := c.clone()
			for _, b := range c.otherSelected(i) {
				d.Deps[b].Container = c.Deps[c.HPAs[i].Target].Container
			}
			return d
		},
	}, {
		// The reader fails a ContainerResource Utilization metric whose
		// container in the target's template requests nothing (the model
		// never computes it). Upstream's calculateRequests reads the
		// pods the selector lists: while the target has no pod, those
		// are the other workloads' pods, whose containers may request
		// the resource, and the metric computes. Counterfactual: the
		// target's container requests the resource.
		Name: "container-metric-request-read-from-target-template",
		Applies: func(c *OvCase) bool {
			h := c.HPAs[i]
			return h.Metric.Type == "ContainerResource" && h.Metric.Target == "Utilization" && c.Deps[h.Target].request(h.Metric.Resource) == 0
		},
		Fix: func(c *OvCase) *OvCase {
			d := c.clone()
			t := &d.Deps[c.HPAs[i].Target]
			if c.HPAs[i].Metric.Resource == "cpu" {
				t.CPU = 100
			} else {
				t.Memory = 64
			}
			return d
		},
	}}
}

// request is d's container's request of resource (0: none).
func (d *OvDep) request(resource string) int64 {
	if resource == "memory" {
		return d.Memory
	}
	return d.CPU
}

// otherSelected are the other Deployments with pods whose pods the
// selector of HPA i's target selects.
func (c *OvCase) otherSelected(i int) []int {
	var out []int
	t := c.HPAs[i].Target
	for b := range c.Deps {
		if b != t && len(c.Deps[b].Pods) > 0 && c.selects(t, b) {
			out = append(out, b)
		}
	}
	return out
}
