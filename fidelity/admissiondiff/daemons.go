package admissiondiff

import (
	"encoding/json"
	"fmt"
	"slices"

	"pgregory.net/rapid"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	apps "k8s.io/kubernetes/pkg/apis/apps"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/controller/daemon"

	"github.com/kivi-go/kivi/fidelity/podspec"
	"github.com/kivi-go/kivi/model"
)

// Label keys of the generated nodes. NodeKey carries the node's name, so
// that no two nodes have the same content (the model groups identical
// nodes into one node type).
const (
	NodeKey     = "admissiondiff/node"
	ZoneKey     = "topology.kubernetes.io/zone"
	DiskKey     = "disk"
	RankKey     = "rank" // integer values, for Gt and Lt
	HostnameKey = "kubernetes.io/hostname"
	daemonCPU   = 10 // the daemon pod's cpu request, millicores
)

// Taint keys the generator draws from: the node lifecycle controller's
// (not-ready, unreachable, the condition taints, the cordon) and two of
// an administrator's.
var taintKeys = []string{
	v1.TaintNodeNotReady, v1.TaintNodeUnreachable, v1.TaintNodeUnschedulable, v1.TaintNodeMemoryPressure,
	v1.TaintNodeDiskPressure, v1.TaintNodePIDPressure, v1.TaintNodeNetworkUnavailable, "dedicated", "gpu",
}

var effects = []v1.TaintEffect{v1.TaintEffectNoSchedule, v1.TaintEffectPreferNoSchedule, v1.TaintEffectNoExecute}

// DaemonNode is one node of a DaemonCase.
type DaemonNode struct {
	Name          string
	Labels        map[string]string // zone, disk, rank; NodeKey and the hostname are added
	Taints        []v1.Taint
	Unschedulable bool
}

// DaemonCase is one DaemonSet's pod template's placement fields and the
// nodes it may run on.
type DaemonCase struct {
	Nodes        []DaemonNode
	NodeName     string
	NodeSelector map[string]string
	Required     *v1.NodeSelector
	Tolerations  []v1.Toleration
	HostNetwork  bool
}

func (c *DaemonCase) String() string {
	b, _ := json.MarshalIndent(c, "", "  ")
	return string(b) + "\n"
}

func nodeName(i int) string { return fmt.Sprintf("n%d", i) }

var labelValues = map[string][]string{ZoneKey: {"a", "b"}, DiskKey: {"ssd", "hdd"}, RankKey: {"1", "2", "3"}}

// GenDaemonCase draws 1–6 nodes, each with or without a zone, disk and
// rank label, 0–3 taints (distinct key and effect; the values "", x or
// y) and cordoned one in five; and a DaemonSet template with, each
// present or not, a nodeName (a node's or no node's), a nodeSelector on
// zone, disk or the hostname, required node affinity (1–2 terms of 1–2
// expressions of every operator, a quarter of them with a matchFields
// requirement on a node's name, In or NotIn), 0–3 tolerations (Exists with or
// without a key, Equal, the empty operator, every effect or none) and
// hostNetwork.
func GenDaemonCase(t *rapid.T) *DaemonCase {
	c := &DaemonCase{}
	n := rapid.IntRange(1, 6).Draw(t, "nodes")
	keys := []string{ZoneKey, DiskKey, RankKey}
	for i := range n {
		node := DaemonNode{Name: nodeName(i), Labels: map[string]string{}, Unschedulable: rapid.IntRange(1, 5).Draw(t, "cordoned") == 1}
		for _, k := range keys {
			if v := rapid.IntRange(0, len(labelValues[k])).Draw(t, "label"); v > 0 {
				node.Labels[k] = labelValues[k][v-1]
			}
		}
		for range rapid.IntRange(0, 3).Draw(t, "taints") {
			taint := v1.Taint{Key: rapid.SampledFrom(taintKeys).Draw(t, "taintKey"), Value: rapid.SampledFrom([]string{"", "x", "y"}).Draw(t, "taintValue"),
				Effect: rapid.SampledFrom(effects).Draw(t, "effect")}
			if !slices.ContainsFunc(node.Taints, func(x v1.Taint) bool { return x.Key == taint.Key && x.Effect == taint.Effect }) {
				node.Taints = append(node.Taints, taint)
			}
		}
		c.Nodes = append(c.Nodes, node)
	}
	switch rapid.IntRange(0, 7).Draw(t, "nodeName") {
	case 0:
		c.NodeName = nodeName(rapid.IntRange(0, n-1).Draw(t, "nodeNameIndex"))
	case 1:
		c.NodeName = "elsewhere"
	}
	if rapid.IntRange(0, 2).Draw(t, "nodeSelector") == 0 {
		c.NodeSelector = map[string]string{}
		for range rapid.IntRange(1, 2).Draw(t, "selectorKeys") {
			switch k := rapid.SampledFrom([]string{ZoneKey, DiskKey, HostnameKey}).Draw(t, "selectorKey"); k {
			case HostnameKey:
				c.NodeSelector[k] = nodeName(rapid.IntRange(0, n).Draw(t, "selectorHost"))
			default:
				c.NodeSelector[k] = rapid.SampledFrom(labelValues[k]).Draw(t, "selectorValue")
			}
		}
	}
	if rapid.IntRange(0, 2).Draw(t, "required") == 0 {
		c.Required = &v1.NodeSelector{}
		for range rapid.IntRange(1, 2).Draw(t, "terms") {
			var term v1.NodeSelectorTerm
			for range rapid.IntRange(1, 2).Draw(t, "expressions") {
				r := v1.NodeSelectorRequirement{Key: rapid.SampledFrom(keys).Draw(t, "exprKey")}
				ops := []v1.NodeSelectorOperator{v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn, v1.NodeSelectorOpExists, v1.NodeSelectorOpDoesNotExist}
				if r.Key == RankKey {
					ops = append(ops, v1.NodeSelectorOpGt, v1.NodeSelectorOpLt)
				}
				r.Operator = rapid.SampledFrom(ops).Draw(t, "operator")
				switch r.Operator {
				case v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn:
					vs := labelValues[r.Key]
					r.Values = []string{rapid.SampledFrom(vs).Draw(t, "value")}
					if v := rapid.SampledFrom(vs).Draw(t, "value2"); rapid.Bool().Draw(t, "twoValues") && v != r.Values[0] {
						r.Values = append(r.Values, v)
					}
				case v1.NodeSelectorOpGt, v1.NodeSelectorOpLt:
					r.Values = []string{rapid.SampledFrom([]string{"0", "1", "2", "3"}).Draw(t, "bound")}
				}
				term.MatchExpressions = append(term.MatchExpressions, r)
			}
			if rapid.IntRange(0, 3).Draw(t, "matchFields") == 0 {
				// The node's name: In or NotIn one name (n names none).
				term.MatchFields = append(term.MatchFields, v1.NodeSelectorRequirement{Key: metav1.ObjectNameField,
					Operator: rapid.SampledFrom([]v1.NodeSelectorOperator{v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn}).Draw(t, "fieldOperator"),
					Values:   []string{nodeName(rapid.IntRange(0, n).Draw(t, "fieldNode"))}})
			}
			c.Required.NodeSelectorTerms = append(c.Required.NodeSelectorTerms, term)
		}
	}
	for range rapid.IntRange(0, 3).Draw(t, "tolerations") {
		tol := v1.Toleration{}
		switch rapid.IntRange(0, 5).Draw(t, "tolerationKind") {
		case 0: // every taint (of the effect, if one is given)
			tol.Operator = v1.TolerationOpExists
		case 1, 2:
			tol.Operator, tol.Key = v1.TolerationOpExists, rapid.SampledFrom(taintKeys).Draw(t, "tolKey")
		case 3, 4:
			tol.Operator, tol.Key = v1.TolerationOpEqual, rapid.SampledFrom(taintKeys).Draw(t, "tolKey")
			tol.Value = rapid.SampledFrom([]string{"", "x", "y"}).Draw(t, "tolValue")
		default: // the empty operator means Equal
			tol.Key = rapid.SampledFrom(taintKeys).Draw(t, "tolKey")
			tol.Value = rapid.SampledFrom([]string{"", "x"}).Draw(t, "tolValue")
		}
		if e := rapid.IntRange(0, len(effects)).Draw(t, "tolEffect"); e > 0 {
			tol.Effect = effects[e-1]
		}
		c.Tolerations = append(c.Tolerations, tol)
	}
	c.HostNetwork = rapid.IntRange(0, 3).Draw(t, "hostNetwork") == 0
	return c
}

// v1Node is node i as the API server holds it: with its name as the
// hostname label and, when cordoned, the unschedulable taint the node
// lifecycle controller adds (TaintNodesByCondition).
func (c *DaemonCase) v1Node(i int) *v1.Node {
	n := c.Nodes[i]
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: map[string]string{NodeKey: n.Name, HostnameKey: n.Name}},
		Spec: v1.NodeSpec{Taints: slices.Clone(n.Taints), Unschedulable: n.Unschedulable}}
	for k, v := range n.Labels {
		node.Labels[k] = v
	}
	cordon := v1.Taint{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule}
	if n.Unschedulable && !slices.ContainsFunc(node.Spec.Taints, func(t v1.Taint) bool { return t.MatchTaint(&cordon) }) {
		node.Spec.Taints = append(node.Spec.Taints, cordon)
	}
	return node
}

// v1DaemonSet is the case's DaemonSet as the API server stores it
// (defaulted).
func (c *DaemonCase) v1DaemonSet() *appsv1.DaemonSet {
	labels := map[string]string{"app": "agent"}
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "default"},
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: v1.PodSpec{
				Containers:   []v1.Container{{Name: "agent", Image: "registry.k8s.io/pause"}},
				NodeName:     c.NodeName,
				NodeSelector: c.NodeSelector,
				Tolerations:  slices.Clone(c.Tolerations),
				HostNetwork:  c.HostNetwork,
			}}}}
	if c.Required != nil {
		ds.Spec.Template.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: c.Required.DeepCopy()}}
	}
	appsdefaults.SetObjectDefaults_DaemonSet(ds)
	return ds
}

// Validate returns the API server's validation errors of the case's
// DaemonSet (ValidateDaemonSet), "" when it accepts it: the generator
// draws valid DaemonSets only.
func (c *DaemonCase) Validate() string {
	var in apps.DaemonSet
	if err := appsdefaults.Convert_v1_DaemonSet_To_apps_DaemonSet(c.v1DaemonSet(), &in, nil); err != nil {
		return err.Error()
	}
	if errs := appsvalidation.ValidateDaemonSet(&in, corevalidation.PodValidationOptions{}); len(errs) > 0 {
		return errs.ToAggregate().Error()
	}
	return ""
}

// Placement is, for every node of a case, whether a side runs the
// DaemonSet's pod there.
type Placement []bool

// Upstream is NodeShouldRunDaemonPod's answer on every node: shouldRun
// (a new pod is created there) and shouldContinueRunning (a pod already
// there stays).
type Upstream struct{ ShouldRun, ShouldContinueRunning Placement }

// lifecycleNoSchedule reports whether t is a NoSchedule taint the node
// lifecycle controller adds to a node that stops reporting Ready.
func lifecycleNoSchedule(t v1.Taint) bool {
	return t.Effect == v1.TaintEffectNoSchedule && (t.Key == v1.TaintNodeNotReady || t.Key == v1.TaintNodeUnreachable)
}

// RealDaemons asks the DaemonSet controller's NodeShouldRunDaemonPod
// about every node, and returns what the model's rule corresponds to:
// the pod runs on the node if it was created there before the node
// lifecycle controller added the not-ready and unreachable NoSchedule
// taints (shouldRun on the node without them) and may continue running
// there now (shouldContinueRunning on the node as it is).
func RealDaemons(c *DaemonCase) (Placement, Upstream) {
	logger := klog.Background()
	ds := c.v1DaemonSet()
	var want Placement
	var up Upstream
	for i := range c.Nodes {
		node := c.v1Node(i)
		run, cont := daemon.NodeShouldRunDaemonPod(logger, node, ds)
		up.ShouldRun = append(up.ShouldRun, run)
		up.ShouldContinueRunning = append(up.ShouldContinueRunning, cont)
		before := node.DeepCopy()
		before.Spec.Taints = slices.DeleteFunc(before.Spec.Taints, lifecycleNoSchedule)
		created, _ := daemon.NodeShouldRunDaemonPod(logger, before, ds)
		want = append(want, created && cont)
	}
	return want, up
}

// YAML renders the case as the manifest stream the model reads: the
// nodes (8 cores, 32 GiB), a Deployment whose pods tolerate every taint
// (so that no node is left out as one no modelled pod can use) and the
// DaemonSet, whose pod requests 10m.
func (c *DaemonCase) YAML() []byte {
	var docs []any
	for i, n := range c.Nodes {
		node := c.v1Node(i)
		m := map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": n.Name, "labels": node.Labels},
			"status": map[string]any{"allocatable": map[string]any{"cpu": "8", "memory": "32Gi"}}}
		spec := map[string]any{}
		if len(n.Taints) > 0 {
			spec["taints"] = n.Taints
		}
		if n.Unschedulable {
			spec["unschedulable"] = true
		}
		if len(spec) > 0 {
			m["spec"] = spec
		}
		docs = append(docs, m)
	}
	docs = append(docs, map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "app"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]string{"app": "a"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]string{"app": "a"}}, "spec": map[string]any{
				"containers":  []any{map[string]any{"name": "c", "image": "registry.k8s.io/pause", "resources": map[string]any{"requests": map[string]string{"cpu": "100m"}}}},
				"tolerations": []any{map[string]string{"operator": "Exists"}}}}}})
	spec := map[string]any{"containers": []any{map[string]any{"name": "agent", "image": "registry.k8s.io/pause",
		"resources": map[string]any{"requests": map[string]string{"cpu": fmt.Sprintf("%dm", daemonCPU)}}}}}
	if c.NodeName != "" {
		spec["nodeName"] = c.NodeName
	}
	if c.NodeSelector != nil {
		spec["nodeSelector"] = c.NodeSelector
	}
	if c.Required != nil {
		spec["affinity"] = map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": c.Required}}
	}
	if len(c.Tolerations) > 0 {
		spec["tolerations"] = c.Tolerations
	}
	if c.HostNetwork {
		spec["hostNetwork"] = true
	}
	docs = append(docs, map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": map[string]any{"name": "agent"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]string{"app": "agent"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]string{"app": "agent"}}, "spec": spec}}})
	return podspec.Stream(docs)
}

// ModelDaemons is the model's placement: manifest.LoadStream on the
// case's YAML; a node runs the pod when its node type (one per node: the
// nodes differ in NodeKey) has the pod's request reserved.
func ModelDaemons(c *DaemonCase) (Placement, error) {
	r, err := podspec.ReadCase(c.YAML())
	if err != nil {
		return nil, err
	}
	var out Placement
	for _, n := range c.Nodes {
		i := slices.IndexFunc(r.Cluster.NodeTypes, func(t model.NodeType) bool { return t.Labels[NodeKey] == n.Name })
		if i < 0 {
			return nil, fmt.Errorf("model: node %s left out of the cluster\n%s", n.Name, c.YAML())
		}
		switch reserved := r.Cluster.NodeTypes[i].ReservedCPU; reserved {
		case 0, daemonCPU:
			out = append(out, reserved == daemonCPU)
		default:
			return nil, fmt.Errorf("model: node %s reserves %dm, not 0 or %dm", n.Name, reserved, daemonCPU)
		}
	}
	return out, nil
}
