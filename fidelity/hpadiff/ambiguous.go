package hpadiff

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	"k8s.io/kubernetes/pkg/controller/util/selectors"

	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/fidelity/classify"
	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/model"
)

// validateAndParseSelector is upstream's check, at the start of
// computeReplicasForMetrics, that every pod its target's selector lists
// is controlled by this HPA only (hpasControllingPodsUnderSelector over
// the hpaSelectors registry); otherwise it records AmbiguousSelector and
// fails.
//
//go:linkname validateAndParseSelector k8s.io/kubernetes/pkg/controller/podautoscaler.(*HorizontalController).validateAndParseSelector
func validateAndParseSelector(a *podautoscaler.HorizontalController, hpa *autoscalingv2.HorizontalPodAutoscaler, selector string) (labels.Selector, error)

// AmbDep is one Deployment of an AmbCase: its pod template's labels, its
// spec.selector (matchLabels a subset of them, matchExpressions that
// they satisfy, not both empty, so that it may select other
// Deployments' pods), spec.replicas and the phases of its pods that
// exist.
type AmbDep struct {
	Labels, Selector map[string]string
	Exprs            []metav1.LabelSelectorRequirement
	Replicas         int
	Pods             []AmbPhase
}

// AmbPhase is the phase of an existing pod: upstream's pod lister lists
// it whatever its phase.
type AmbPhase uint8

const (
	// AmbRunning: Running on the node.
	AmbRunning AmbPhase = iota
	// AmbPending: created, not yet bound.
	AmbPending
	// AmbTerminating: Running with a deletion timestamp.
	AmbTerminating
)

func (p AmbPhase) String() string { return [...]string{"Running", "Pending", "Terminating"}[p] }

// labelSelector is d's spec.selector.
func (d *AmbDep) labelSelector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: d.Selector, MatchExpressions: d.Exprs}
}

// AmbHPA is one HPA of an AmbCase, on Deployment Target.
type AmbHPA struct {
	Name             string
	Target, Min, Max int
}

// AmbCase is one namespace of Deployments d0, d1, … and HPAs on them, at
// one moment: which pods exist. Every HPA has synced before (its
// selector is registered upstream).
type AmbCase struct {
	Deps []AmbDep
	HPAs []AmbHPA
}

func (c *AmbCase) String() string {
	var b strings.Builder
	for i, d := range c.Deps {
		fmt.Fprintf(&b, "  deployment d%d labels %s selector %s replicas %d pods %v\n", i, labelString(d.Labels), metav1.FormatLabelSelector(d.labelSelector()), d.Replicas, d.Pods)
	}
	for _, h := range c.HPAs {
		fmt.Fprintf(&b, "  hpa %s on d%d min %d max %d\n", h.Name, h.Target, h.Min, h.Max)
	}
	return b.String()
}

func labelString(m map[string]string) string { return labels.Set(m).String() }

// clone returns a deep copy of c.
func (c *AmbCase) clone() *AmbCase {
	d := &AmbCase{HPAs: slices.Clone(c.HPAs)}
	for _, x := range c.Deps {
		x.Labels, x.Selector = maps.Clone(x.Labels), maps.Clone(x.Selector)
		x.Exprs, x.Pods = slices.Clone(x.Exprs), slices.Clone(x.Pods)
		d.Deps = append(d.Deps, x)
	}
	return d
}

// hpasOf is the number of HPAs on Deployment d.
func (c *AmbCase) hpasOf(d int) int {
	n := 0
	for _, h := range c.HPAs {
		if h.Target == d {
			n++
		}
	}
	return n
}

// selects reports whether Deployment a's selector selects b's pods.
func (c *AmbCase) selects(a, b int) bool {
	sel, err := metav1.LabelSelectorAsSelector(c.Deps[a].labelSelector())
	if err != nil {
		panic(err) // the generator's requirements are valid
	}
	return sel.Matches(labels.Set(c.Deps[b].Labels))
}

// lists reports whether the selector of Deployment d lists some pod.
func (c *AmbCase) lists(d int) bool {
	for b := range c.Deps {
		if len(c.Deps[b].Pods) > 0 && c.selects(d, b) {
			return true
		}
	}
	return false
}

// ambValues is the label alphabet: app always (web twice as likely, so
// that selectors often overlap), track and tier sometimes.
var ambValues = map[string][]string{"app": {"web", "web", "api"}, "track": {"stable", "canary"}, "tier": {"front", "back"}}

// GenAmbCase draws a case: 2..4 Deployments whose template labels come
// from ambValues, each selector's matchLabels a subset of its labels and,
// a third of the time, one matchExpressions requirement its labels
// satisfy (In, NotIn, Exists, DoesNotExist, possibly on a key they lack),
// never an empty selector; 1..4 HPAs on random Deployments (so some share
// one), minReplicas 1..3, maxReplicas up to 3 above; spec.replicas 0..6;
// half of the Deployments with 1..2 pods (never more than spec.replicas),
// Running mostly, else Pending or Terminating.
func GenAmbCase(r *rand.Rand) *AmbCase {
	c := &AmbCase{}
	for range 2 + r.IntN(3) {
		var d AmbDep
		d.Labels, d.Selector, d.Exprs = genLabelsAndSelector(r)
		d.Replicas = r.IntN(7)
		if d.Replicas > 0 && r.IntN(2) == 0 {
			for range 1 + r.IntN(min(d.Replicas, 2)) {
				d.Pods = append(d.Pods, []AmbPhase{AmbRunning, AmbRunning, AmbRunning, AmbPending, AmbTerminating}[r.IntN(5)])
			}
		}
		c.Deps = append(c.Deps, d)
	}
	for i := range 1 + r.IntN(4) {
		h := AmbHPA{Name: fmt.Sprintf("h%d", i), Target: r.IntN(len(c.Deps)), Min: 1 + r.IntN(3)}
		h.Max = h.Min + r.IntN(4)
		c.HPAs = append(c.HPAs, h)
	}
	return c
}

// genRequirement draws a matchExpressions requirement that own satisfies.
func genRequirement(r *rand.Rand, own map[string]string) metav1.LabelSelectorRequirement {
	key := []string{"app", "track", "tier"}[r.IntN(3)]
	values := slices.Compact(slices.Sorted(slices.Values(ambValues[key])))
	other := func(v string) string { // a value of key other than v
		for _, x := range values {
			if x != v {
				return x
			}
		}
		return v
	}
	v, has := own[key]
	req := metav1.LabelSelectorRequirement{Key: key}
	switch op := r.IntN(3); {
	case has && op == 0:
		req.Operator = metav1.LabelSelectorOpExists
	case has && op == 1:
		req.Operator, req.Values = metav1.LabelSelectorOpIn, []string{v}
		if r.IntN(2) == 0 {
			req.Values = []string{v, other(v)}
		}
	case has:
		req.Operator, req.Values = metav1.LabelSelectorOpNotIn, []string{other(v)}
	case op == 0:
		req.Operator = metav1.LabelSelectorOpDoesNotExist
	default:
		req.Operator, req.Values = metav1.LabelSelectorOpNotIn, []string{values[r.IntN(len(values))]}
	}
	return req
}

// AmbVerdict is one side's answer for one HPA: whether its sync finds
// AmbiguousSelector, and the replica counts its workload's HPA syncs may
// leave (Decided false when some HPA of the workload would compute a
// metric instead, which this test does not compare).
type AmbVerdict struct {
	Ambiguous bool
	Outcomes  []int
	Decided   bool
}

// entryCase is reconcileAutoscaler's entry cases for an HPA of minReplicas
// ≥ 1 whose target has not the scaled-to-zero condition: 0 replicas
// disable scaling, a count above maxReplicas or below minReplicas is set
// to that bound; ok false leaves the count to the metrics.
func entryCase(current, lo, hi int) (desired int, ok bool) {
	switch {
	case current == 0:
		return 0, true
	case current > hi:
		return hi, true
	case current < lo:
		return lo, true
	}
	return current, false
}

// UpstreamAmbiguous is kube-controller-manager's answer for every HPA of
// c: a HorizontalController whose hpaSelectors registry holds every HPA
// with its target's selector (as after each HPA's first sync) and whose
// pod lister holds c's pods, labelled with their template's labels;
// validateAndParseSelector on each HPA with its target's selector as the
// scale subresource reports it. An HPA's outcome is its entry case, else
// the count when it is ambiguous, else undecided (its metrics decide).
func UpstreamAmbiguous(c *AmbCase) []AmbVerdict {
	hc := &podautoscaler.HorizontalController{}
	reg := selectors.NewBiMultimap()
	var pods []*v1.Pod
	for d, dep := range c.Deps {
		for i, phase := range dep.Pods {
			l := maps.Clone(dep.Labels)
			l["pod-template-hash"] = fmt.Sprintf("h%d", d)
			p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("d%d-h%d-%d", d, d, i), Namespace: namespace, Labels: l},
				Spec: v1.PodSpec{NodeName: "n1"}, Status: v1.PodStatus{Phase: v1.PodRunning}}
			switch phase {
			case AmbPending:
				p.Spec.NodeName, p.Status.Phase = "", v1.PodPending
			case AmbTerminating:
				p.DeletionTimestamp = &metav1.Time{Time: time.Now()}
			}
			pods = append(pods, p)
		}
	}
	selector := func(d int) string {
		return metav1.FormatLabelSelector(c.Deps[d].labelSelector())
	}
	for _, h := range c.HPAs {
		sel, err := labels.Parse(selector(h.Target))
		if err != nil {
			panic(err) // the generator's selectors always parse
		}
		reg.PutSelector(selectors.Key{Name: h.Name, Namespace: namespace}, sel)
	}
	set := func(name string, v any) {
		f := reflect.ValueOf(hc).Elem().FieldByName(name)
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
	}
	set("hpaSelectors", reg)
	set("podLister", corelisters.PodLister(&selectingLister{pods}))
	set("eventRecorder", record.EventRecorder(&record.FakeRecorder{}))
	out := make([]AmbVerdict, len(c.HPAs))
	for i, h := range c.HPAs {
		obj := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: h.Name, Namespace: namespace}}
		_, err := validateAndParseSelector(hc, obj, selector(h.Target))
		out[i].Ambiguous = err != nil && hasReason(obj, "AmbiguousSelector")
		if err != nil && !out[i].Ambiguous {
			panic(fmt.Sprintf("validateAndParseSelector on %s: %v", h.Name, err))
		}
	}
	for i, h := range c.HPAs {
		out[i].Decided = true
		for j, o := range c.HPAs {
			if o.Target != h.Target {
				continue
			}
			current := c.Deps[h.Target].Replicas
			desired, ok := entryCase(current, o.Min, o.Max)
			if !ok && !out[j].Ambiguous {
				out[i].Decided, out[i].Outcomes = false, nil
				break
			}
			if !slices.Contains(out[i].Outcomes, desired) {
				out[i].Outcomes = append(out[i].Outcomes, desired)
			}
		}
		slices.Sort(out[i].Outcomes)
	}
	return out
}

func hasReason(obj *autoscalingv2.HorizontalPodAutoscaler, reason string) bool {
	return slices.ContainsFunc(obj.Status.Conditions, func(c autoscalingv2.HorizontalPodAutoscalerCondition) bool {
		return c.Type == autoscalingv2.ScalingActive && c.Status == v1.ConditionFalse && c.Reason == reason
	})
}

// selectingLister lists the pods a selector selects, as the informer's
// lister does.
type selectingLister struct{ pods []*v1.Pod }

func (l *selectingLister) List(sel labels.Selector) ([]*v1.Pod, error) {
	var out []*v1.Pod
	for _, p := range l.pods {
		if sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out, nil
}
func (l *selectingLister) Pods(string) corelisters.PodNamespaceLister { return l }
func (l *selectingLister) Get(name string) (*v1.Pod, error) {
	for _, p := range l.pods {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("pod %s not found", name)
}

// AmbYAML is the case as a running cluster's dump: one Node, the
// Deployments, the HPAs (a CPU Utilization target) and the pods that
// exist, all Running on the node (the reader leaves unbound and
// terminating pods out: ModelAmbiguous sets their phases in the state),
// owned by their Deployment's ReplicaSet.
func (c *AmbCase) AmbYAML() []byte {
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
	const ctr = "[{name: app, resources: {requests: {cpu: 100m, memory: 64Mi}}}]"
	for d, dep := range c.Deps {
		var exprs []string
		for _, e := range dep.Exprs {
			exprs = append(exprs, fmt.Sprintf("{key: %s, operator: %s, values: [%s]}", e.Key, e.Operator, strings.Join(e.Values, ", ")))
		}
		fmt.Fprintf(&b, "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: d%d, namespace: default}, spec: {replicas: %d, selector: {matchLabels: %s, matchExpressions: [%s]}, template: {metadata: {labels: %s}, spec: {containers: %s}}}}\n",
			d, dep.Replicas, flow(dep.Selector), strings.Join(exprs, ", "), flow(dep.Labels), ctr)
	}
	for _, h := range c.HPAs {
		fmt.Fprintf(&b, "- {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: %s, namespace: default}, spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d%d}, minReplicas: %d, maxReplicas: %d, metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]}}\n",
			h.Name, h.Target, h.Min, h.Max)
	}
	for d, dep := range c.Deps {
		for i := range dep.Pods {
			l := maps.Clone(dep.Labels)
			l["pod-template-hash"] = fmt.Sprintf("h%d", d)
			fmt.Fprintf(&b, "- {apiVersion: v1, kind: Pod, metadata: {name: d%d-h%d-%d, namespace: default, labels: %s, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: d%d-h%d, controller: true}]}, spec: {nodeName: n1, containers: %s}, status: {phase: Running}}\n",
				d, d, i, flow(l), d, d, ctr)
		}
	}
	return []byte(b.String())
}

// ModelAmbiguous is the model's answer for every HPA of c: the case read
// as a running cluster's dump by the manifest reader
// (manifest.LoadStream with CurrentPlacement), the universe built, and
// for each HPA's workload hpa.AmbiguousNow (the decision its sync takes)
// and the replica counts the model's HPA step leaves when that workload's
// sync is queued (every choice of the step). The outcomes are compared
// only where upstream's are decided.
func ModelAmbiguous(c *AmbCase) ([]AmbVerdict, error) {
	u, s, dep, err := loadDump(c.AmbYAML())
	if err != nil {
		return nil, err
	}
	if err := setPhases(c, s, dep); err != nil {
		return nil, err
	}
	out := make([]AmbVerdict, len(c.HPAs))
	for i, h := range c.HPAs {
		d, ok := dep[fmt.Sprintf("d%d", h.Target)]
		if !ok {
			return nil, fmt.Errorf("model: no workload d%d in %v", h.Target, slices.Collect(maps.Keys(dep)))
		}
		if s.Deps[d].HPA == 0 {
			return nil, fmt.Errorf("model: d%d has no HPA", h.Target)
		}
		if got := s.Deps[d].Replicas; int(got) != c.Deps[h.Target].Replicas {
			return nil, fmt.Errorf("model: d%d has %d replicas, want %d", h.Target, got, c.Deps[h.Target].Replicas)
		}
		out[i] = AmbVerdict{Ambiguous: hpa.AmbiguousNow(u, s, d), Decided: true, Outcomes: stepOutcomes(u, s, d)}
	}
	return out, nil
}

// setPhases gives the pods the reader placed the case's phases: an
// unbound Pending pod, a Terminating one that had been Running. dep maps
// the Deployments' names to their model indices.
func setPhases(c *AmbCase, s *model.State, dep map[string]int) error {
	counts := make([]int, len(c.Deps))
	for d := range c.Deps {
		counts[d] = len(c.Deps[d].Pods)
	}
	return eachCasePod(s, dep, counts, c.AmbYAML, func(d, n int, p *model.PodState) {
		switch c.Deps[d].Pods[n] {
		case AmbPending:
			p.Phase, p.Node = model.Pending, 0
		case AmbTerminating:
			p.Phase, p.WasRunning = model.Terminating, true
		}
	})
}

// loadDump reads a case's YAML as a running cluster's dump and builds
// it; dep maps the Deployments' names to their model indices.
func loadDump(yaml []byte) (*model.Universe, *model.State, map[string]int, error) {
	r, err := manifest.LoadStream([]manifest.File{{Name: "case.yaml", Data: yaml}}, nil, nil, manifest.Options{CurrentPlacement: true})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("model: %w\n%s", err, yaml)
	}
	u, s, err := r.Cluster.Build()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("model: build: %w\n%s", err, yaml)
	}
	dep := map[string]int{}
	for i, d := range u.Deployments {
		dep[d.Name] = i
	}
	return u, s, dep, nil
}

// eachCasePod calls set on each pod the reader placed for Deployment d<d>
// of a case (counts[d] of them, in slot order), with its index n among
// them; yaml is the case, for the error when the counts differ.
func eachCasePod(s *model.State, dep map[string]int, counts []int, yaml func() []byte, set func(d, n int, p *model.PodState)) error {
	for d, want := range counts {
		owner := dep[fmt.Sprintf("d%d", d)] + 1
		n := 0
		for i := range s.Pods {
			p := &s.Pods[i]
			if p.Phase == model.Free || int(p.Owner) != owner {
				continue
			}
			if n >= want {
				return fmt.Errorf("model: d%d has more than its %d pods", d, want)
			}
			set(d, n, p)
			n++
		}
		if n != want {
			return fmt.Errorf("model: d%d has %d pods, want %d\n%s", d, n, want, yaml())
		}
	}
	return nil
}

// stepOutcomes runs the model's HPA step with deployment d's sync queued
// and every other queue empty, over every choice the step makes, and
// returns the replica counts it leaves d at, sorted.
func stepOutcomes(u *model.Universe, s0 *model.State, d int) []int {
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	var out []int
	for {
		s := s0.Clone()
		for q := range s.Queues {
			s.Queues[q] = nil
		}
		s.Enqueue(model.HPAQueue, d)
		hpa.New().Step(tx, s)
		if got := int(s.Deps[d].Replicas); !slices.Contains(out, got) {
			out = append(out, got)
		}
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	slices.Sort(out)
	return out
}

// AmbSame compares the model's answer for HPA i with upstream's: the same
// decision, and the same outcomes where upstream's are decided.
func AmbSame(model func(*AmbCase) ([]AmbVerdict, error), i int) func(*AmbCase) bool {
	return func(c *AmbCase) bool {
		m, err := model(c)
		if err != nil {
			panic(err)
		}
		return ambEqual(m[i], UpstreamAmbiguous(c)[i])
	}
}

func ambEqual(m, r AmbVerdict) bool {
	return m.Ambiguous == r.Ambiguous && (!r.Decided || slices.Equal(m.Outcomes, r.Outcomes))
}

// AmbClasses are the known divergences of the AmbiguousSelector decision,
// written up in docs/divergences.md (section "HPA", "Several HPAs of one
// workload"). Each applies to one HPA of a case (the index).
func AmbClasses(i int) []classify.Class[*AmbCase] {
	return []classify.Class[*AmbCase]{{
		// The model takes every HPA of a workload that several HPAs scale
		// as ambiguous (model.HPA.Ambiguous, no metric compiled). Upstream
		// finds them so only when their target's selector lists some pod:
		// with none listed, hpasControllingPodsUnderSelector returns no
		// HPA and the sync goes on to its metrics. Counterfactual: a pod
		// of the target exists.
		Name: "shared-target-no-listed-pod",
		Applies: func(c *AmbCase) bool {
			t := c.HPAs[i].Target
			return c.hpasOf(t) > 1 && !c.lists(t)
		},
		Fix: func(c *AmbCase) *AmbCase {
			d := c.clone()
			t := &d.Deps[c.HPAs[i].Target]
			t.Replicas, t.Pods = max(t.Replicas, 1), []AmbPhase{AmbRunning}
			return d
		},
	}}
}

// genLabelsAndSelector draws a Deployment's template labels from
// ambValues (app, track half the time, tier a third) and its selector:
// matchLabels a subset of them and, a third of the time, one
// matchExpressions requirement they satisfy (genRequirement), never an
// empty selector.
func genLabelsAndSelector(r *rand.Rand) (labels, selector map[string]string, exprs []metav1.LabelSelectorRequirement) {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	labels, selector = map[string]string{"app": pick(ambValues["app"])}, map[string]string{}
	if r.IntN(2) == 0 {
		labels["track"] = pick(ambValues["track"])
	}
	if r.IntN(3) == 0 {
		labels["tier"] = pick(ambValues["tier"])
	}
	keys := slices.Sorted(maps.Keys(labels))
	for _, k := range keys {
		if r.IntN(2) == 0 {
			selector[k] = labels[k]
		}
	}
	if r.IntN(3) == 0 {
		exprs = append(exprs, genRequirement(r, labels))
	}
	if len(selector) == 0 && len(exprs) == 0 {
		k := pick(keys)
		selector[k] = labels[k]
	}
	return labels, selector, exprs
}
