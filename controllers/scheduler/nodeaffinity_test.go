package scheduler

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Pod specs of the nodeaffinity tables, as the manifest reader reads them.

const oneContainer = "      containers: [{name: c}]\n"

// expr is a node selector requirement in flow style.
func expr(key, op string, values ...string) string {
	if len(values) == 0 {
		return fmt.Sprintf("{key: %q, operator: %s}", key, op)
	}
	return fmt.Sprintf("{key: %q, operator: %s, values: [%s]}", key, op, quoteAll(values))
}

func quoteAll(vs []string) string {
	var q []string
	for _, v := range vs {
		q = append(q, fmt.Sprintf("%q", v))
	}
	return strings.Join(q, ", ")
}

// nodeTerm is a NodeSelectorTerm of the given expressions.
func nodeTerm(exprs ...string) string {
	return "{matchExpressions: [" + strings.Join(exprs, ", ") + "]}"
}

// nameField is a matchFields requirement on the node's name.
func nameField(op, name string) string {
	return fmt.Sprintf("{key: metadata.name, operator: %s, values: [%q]}", op, name)
}

// fieldTerm is a node selector term of matchFields, and of
// matchExpressions when exprs are given.
func fieldTerm(fields []string, exprs ...string) string {
	t := "{matchFields: [" + strings.Join(fields, ", ") + "]"
	if len(exprs) > 0 {
		t += ", matchExpressions: [" + strings.Join(exprs, ", ") + "]"
	}
	return t + "}"
}

// requiredSpec is a pod spec whose required node affinity has terms.
func requiredSpec(terms ...string) string {
	return oneContainer + "      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [" +
		strings.Join(terms, ", ") + "]}}}\n"
}

// selectorSpec is a pod spec with a nodeSelector.
func selectorSpec(kv ...string) string {
	var ls []string
	for i := 0; i+1 < len(kv); i += 2 {
		ls = append(ls, fmt.Sprintf("%q: %q", kv[i], kv[i+1]))
	}
	return oneContainer + "      nodeSelector: {" + strings.Join(ls, ", ") + "}\n"
}

// addedAffinityProfile is a profile whose NodeAffinity args add the
// required terms.
func addedAffinityProfile(terms ...string) string {
	return "- pluginConfig: [{name: NodeAffinity, args: {addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [" +
		strings.Join(terms, ", ") + "]}}}}]\n"
}

// TestNodeAffinity transcribes TestNodeAffinity (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go): the
// Filter's status on one node, the pod read from its manifest. The model
// has no PreFilter result (it filters every node), so a row's PreFilter
// expectations are not checked, only its Filter status. The rows whose
// pod uses matchFields read the node's name (model.NodeNameField); the
// last row, of our own, has a node whose hostname label is not its name,
// which matchFields must not read. The rows whose pod the API server
// refuses or the reader
// does ("Pod with empty MatchExpressions ...", "Pod with an invalid value
// in Affinity term ...") are in TestNodeAffinityUnparsedTerms, on a
// universe built in Go.
func TestNodeAffinity(t *testing.T) {
	podReason := reject(UnschedulableAndUnresolvable, k8sReasonNodeAffinity)
	node := func(name string, kv ...string) []kLabelledNode {
		if name == "" {
			name = "node"
		}
		return []kLabelledNode{{name: name, labels: lbl(kv...)}}
	}
	gpuTerm := nodeTerm(expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER"))
	for _, tc := range []struct {
		name, spec, profile string
		node                []kLabelledNode
		want                Status
	}{
		{name: "missing labels", spec: selectorSpec("foo", "bar"), node: node(""), want: podReason},
		{name: "same labels", spec: selectorSpec("foo", "bar"), node: node("", "foo", "bar")},
		{name: "node labels are superset", spec: selectorSpec("foo", "bar"), node: node("", "foo", "bar", "baz", "blah")},
		{name: "node labels are subset", spec: selectorSpec("foo", "bar", "baz", "blah"), node: node("", "foo", "bar"), want: podReason},
		{name: "Pod with matchExpressions using In operator that matches the existing node",
			spec: requiredSpec(nodeTerm(expr("foo", "In", "bar", "value2"))), node: node("", "foo", "bar")},
		{name: "Pod with matchExpressions using Gt operator that matches the existing node",
			spec: requiredSpec(nodeTerm(expr("kernel-version", "Gt", "0204"))), node: node("", "kernel-version", "0206")},
		{name: "Pod with matchExpressions using NotIn operator that matches the existing node",
			spec: requiredSpec(nodeTerm(expr("mem-type", "NotIn", "DDR", "DDR2"))), node: node("", "mem-type", "DDR3")},
		{name: "Pod with matchExpressions using Exists operator that matches the existing node",
			spec: requiredSpec(nodeTerm(expr("GPU", "Exists"))), node: node("", "GPU", "NVIDIA-GRID-K1")},
		{name: "Pod with affinity that don't match node's labels won't schedule onto the node",
			spec: requiredSpec(nodeTerm(expr("foo", "In", "value1", "value2"))), node: node("", "foo", "bar"), want: podReason},
		{name: "Pod with no Affinity will schedule onto a node", spec: oneContainer, node: node("", "foo", "bar")},
		{name: "Pod with Affinity but nil NodeSelector will schedule onto a node",
			spec: oneContainer + "      affinity: {nodeAffinity: {}}\n", node: node("", "foo", "bar")},
		{name: "Pod with multiple matchExpressions ANDed that matches the existing node",
			spec: requiredSpec(gpuTerm), node: node("", "GPU", "NVIDIA-GRID-K1")},
		{name: "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
			spec: requiredSpec(nodeTerm(expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER"))), node: node("", "GPU", "NVIDIA-GRID-K1"), want: podReason},
		{name: "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
			spec: requiredSpec(nodeTerm(expr("foo", "In", "bar", "value2")), nodeTerm(expr("diffkey", "In", "wrong", "value2"))), node: node("", "foo", "bar")},
		{name: "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node",
			spec: requiredSpec(nodeTerm(expr("foo", "Exists"))) + "      nodeSelector: {foo: bar}\n", node: node("", "foo", "bar")},
		{name: "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
			spec: requiredSpec(nodeTerm(expr("foo", "Exists"))) + "      nodeSelector: {foo: bar}\n", node: node("", "foo", "barrrrrr"), want: podReason},
		{name: "Pod with matchFields using In operator that matches the existing node",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1")})), node: node("node1")},
		{name: "Pod with matchFields using In operator that does not match the existing node",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1")})), node: node("node2"), want: podReason},
		{name: "Pod with two terms: matchFields does not match, but matchExpressions matches",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1"), nameField("In", "node2")}), nodeTerm(expr("foo", "In", "bar"))),
			node: node("node2", "foo", "bar")},
		{name: "Pod with one term: matchFields does not match, but matchExpressions matches",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1")}, expr("foo", "In", "bar"))), node: node("node2", "foo", "bar"), want: podReason},
		{name: "Pod with one term: both matchFields and matchExpressions match",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1")}, expr("foo", "In", "bar"))), node: node("node1", "foo", "bar")},
		{name: "Pod with two terms: both matchFields and matchExpressions do not match",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1")}), nodeTerm(expr("foo", "In", "not-match-to-bar"))),
			node: node("node2", "foo", "bar"), want: podReason},
		{name: "Pod with two terms of node.Name affinity",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1")}), fieldTerm([]string{nameField("In", "node2")})), node: node("node2")},
		{name: "Pod with two conflicting mach field requirements",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1"), nameField("In", "node2")})), node: node("node2", "foo", "bar"), want: podReason},
		{name: "matchFields read the node's name, not its hostname label",
			spec: requiredSpec(fieldTerm([]string{nameField("In", "node1")}), fieldTerm([]string{nameField("NotIn", "node1")}, expr("kubernetes.io/hostname", "In", "node2"))),
			node: node("node1", "kubernetes.io/hostname", "host-1")},
		{name: "matchFields NotIn read the node's name",
			spec: requiredSpec(fieldTerm([]string{nameField("NotIn", "node1")})), node: node("node1", "kubernetes.io/hostname", "node2"), want: podReason},
		{name: "Matches added affinity and Pod's node affinity",
			spec: requiredSpec(nodeTerm(expr("zone", "In", "foo"))), node: node("node2", "zone", "foo"),
			profile: addedAffinityProfile("{matchFields: [{key: metadata.name, operator: In, values: [node2]}]}")},
		{name: "Matches added affinity but not Pod's node affinity",
			spec: requiredSpec(nodeTerm(expr("zone", "In", "bar"))), node: node("node2", "zone", "foo"),
			profile: addedAffinityProfile("{matchFields: [{key: metadata.name, operator: In, values: [node2]}]}"), want: podReason},
		{name: "Doesn't match added affinity", spec: oneContainer, node: node("node2", "zone", "foo"),
			profile: addedAffinityProfile(nodeTerm(expr("zone", "In", "bar"))), want: reject(UnschedulableAndUnresolvable, k8sReasonEnforced)},
		{name: "Matches node selector correctly even if PreFilter is not called", spec: selectorSpec("foo", "bar"), node: node("", "foo", "bar", "baz", "blah")},
		{name: "Matches node affinity correctly even if PreFilter is not called", spec: requiredSpec(gpuTerm), node: node("", "GPU", "NVIDIA-GRID-K1")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildManifests(t, tc.node, tc.spec, tc.profile)
			if got := filterEach(u, s, p, nodeAffinityFilter{})[0]; got != tc.want {
				t.Errorf("status %s, want %s", fmtStatus(got), fmtStatus(tc.want))
			}
		})
	}
}

// TestNodeAffinityUnparsedTerms transcribes the rows of TestNodeAffinity
// (node_affinity_test.go) whose required term kube-scheduler cannot use:
// "Pod with empty MatchExpressions is not a valid value will match no
// objects and won't schedule onto the node" and "Pod with an invalid value
// in Affinity term won't be scheduled onto the node". The manifest reader
// refuses both (the API server refuses the second); a universe built in
// Go, as a case file builds one, may hold them, and the node must then
// be rejected.
func TestNodeAffinityUnparsedTerms(t *testing.T) {
	for _, tc := range []struct {
		name string
		term model.Selector
	}{
		{"Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node", model.Selector{}},
		{"Pod with an invalid value in Affinity term won't be scheduled onto the node",
			model.Selector{MatchExpressions: []model.Requirement{{Key: "foo", Operator: model.OpNotIn, Values: []string{"invalid value: ___@#$%^"}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildWithTemplate(t, []*build.NodeBuilder{build.Node().Name("node").Label("foo", "bar")},
				model.PodTemplate{Name: "pod", Labels: map[string]string{}, Required: []model.Selector{tc.term}})
			want := reject(UnschedulableAndUnresolvable, k8sReasonNodeAffinity)
			if got := filterEach(u, s, p, nodeAffinityFilter{})[0]; got != want {
				t.Errorf("status %s, want %s", fmtStatus(got), fmtStatus(want))
			}
		})
	}
}

// buildWithTemplate is buildPlain with the incoming pod's template
// given whole.
func buildWithTemplate(t *testing.T, nodes []*build.NodeBuilder, tmpl model.PodTemplate) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	for _, nb := range nodes {
		b.AddNodes(1, nb)
	}
	b.U.Templates = append(b.U.Templates, tmpl)
	b.PendingPod(b.AddDeployment("incoming", len(b.U.Templates)-1, 0), -1)
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u, s, 0
}

// TestNodeAffinityPriority transcribes TestNodeAffinityPriority
// (node_affinity_test.go): the normalised scores, pods and profiles read
// from manifests. A pod without preferred terms is skipped, which gives
// every node 0, as upstream's rows without PreScore expect. The row
// "PreScore returns error when an incoming Pod has a broken affinity" is
// TestNodeAffinityBrokenPreferredTerm.
func TestNodeAffinityPriority(t *testing.T) {
	label1, label2, label3 := lbl("foo", "bar"), lbl("key", "value"), lbl("az", "az1")
	label4, label5 := lbl("abc", "az11", "def", "az22"), lbl("foo", "bar", "key", "value", "az", "az1")
	affinity1 := "[{weight: 2, preference: " + nodeTerm(expr("foo", "In", "bar")) + "}]"
	affinity2 := "[{weight: 2, preference: " + nodeTerm(expr("foo", "In", "bar")) + "}, {weight: 4, preference: " + nodeTerm(expr("key", "In", "value")) +
		"}, {weight: 5, preference: " + nodeTerm(expr("foo", "In", "bar"), expr("key", "In", "value"), expr("az", "In", "az1")) + "}]"
	preferred := func(terms string) string {
		return oneContainer + "      affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: " + terms + "}}\n"
	}
	added := func(terms string) string {
		return "- pluginConfig: [{name: NodeAffinity, args: {addedAffinity: {preferredDuringSchedulingIgnoredDuringExecution: " + terms + "}}}]\n"
	}
	nodes := func(ls ...map[string]string) []kLabelledNode {
		var out []kLabelledNode
		for i, l := range ls {
			out = append(out, kLabelledNode{name: fmt.Sprint("node", i+1), labels: l})
		}
		return out
	}
	for _, tc := range []struct {
		name, spec, profile string
		nodes               []kLabelledNode
		want                []int64 // nil: PreScore skips
	}{
		{name: "all nodes are same priority as NodeAffinity is nil", spec: oneContainer, nodes: nodes(label1, label2, label3)},
		{name: "Skip is returned in PreScore when NodeAffinity is nil", spec: oneContainer, nodes: nodes(label1)},
		{name: "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
			spec: preferred(affinity1), nodes: nodes(label4, label2, label3), want: []int64{0, 0, 0}},
		{name: "only node1 matches the preferred scheduling requirements of pod",
			spec: preferred(affinity1), nodes: nodes(label1, label2, label3), want: []int64{100, 0, 0}},
		{name: "all nodes matches the preferred scheduling requirements of pod but with different priorities ",
			spec: preferred(affinity2), nodes: nodes(label1, label5, label2), want: []int64{18, 100, 36}},
		{name: "added affinity", spec: oneContainer, profile: added(affinity1), nodes: nodes(label1, label2), want: []int64{100, 0}},
		{name: "added affinity and pod has default affinity", spec: preferred(affinity1),
			profile: added("[{weight: 3, preference: " + nodeTerm(expr("key", "In", "value")) + "}]"),
			nodes:   nodes(label1, label2, label5), want: []int64{40, 60, 100}},
		{name: "calculate the priorities correctly even if PreScore is not called",
			spec: preferred(affinity2), nodes: nodes(label1, label5, label2), want: []int64{18, 100, 36}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildManifests(t, tc.nodes, tc.spec, tc.profile)
			_, norm, skipped := rawScores(u, s, p, nodeAffinityScore{})
			if tc.want == nil {
				if !skipped {
					t.Errorf("scores %v, want PreScore to skip", norm)
				}
				return
			}
			if skipped || !slices.Equal(norm, tc.want) {
				t.Errorf("scores %v (skipped %v), want %v", norm, skipped, tc.want)
			}
		})
	}
}

// TestNodeAffinityBrokenPreferredTerm transcribes the row "PreScore
// returns error when an incoming Pod has a broken affinity" of
// TestNodeAffinityPriority (node_affinity_test.go): a preferred term whose
// key is not a label key makes PreScore fail, which the model represents
// as a cycle that places the pod nowhere once it scores
// (PodTemplate.PreferredInvalid). The API server refuses such a pod; a
// universe built in Go, as a case file builds one, may hold it.
func TestNodeAffinityBrokenPreferredTerm(t *testing.T) {
	term := model.Selector{MatchExpressions: []model.Requirement{{Key: "invalid key", Operator: model.OpIn, Values: []string{"bar"}}}}
	nodes := []*build.NodeBuilder{build.Node().Name("node1").Label("foo", "bar"), build.Node().Name("node2").Label("foo", "bar")}
	u, s, p := buildWithTemplate(t, nodes, model.PodTemplate{Name: "pod", Labels: map[string]string{},
		Preferred: []model.PreferredTerm{{Weight: 2, Term: term}}})
	if !u.Templates[s.Pods[p].Template].PreferredInvalid {
		t.Errorf("a preferred term keyed %q does not fail PreScore", term.MatchExpressions[0].Key)
	}
	if feasible, top := Decide(u, s, p); len(top) != 0 {
		t.Errorf("feasible %v, top %v: want the cycle to fail and place the pod nowhere", feasible, top)
	}
}

// TestNodeAffinityInvalidKeyMatchesNoNode is the Filter's side of the
// same rule (nodeaffinity's required terms parse as the preferred ones
// do): a required term keyed by no valid label key fails to parse and
// matches no node, even under NotIn, which every node would pass.
func TestNodeAffinityInvalidKeyMatchesNoNode(t *testing.T) {
	term := model.Selector{MatchExpressions: []model.Requirement{{Key: "invalid key", Operator: model.OpNotIn, Values: []string{"bar"}}}}
	u, s, p := buildWithTemplate(t, []*build.NodeBuilder{build.Node().Name("node").Label("foo", "bar")},
		model.PodTemplate{Name: "pod", Labels: map[string]string{}, Required: []model.Selector{term}})
	want := reject(UnschedulableAndUnresolvable, k8sReasonNodeAffinity)
	if got := filterEach(u, s, p, nodeAffinityFilter{})[0]; got != want {
		t.Errorf("status %s, want %s", fmtStatus(got), fmtStatus(want))
	}
}
