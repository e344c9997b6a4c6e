package manifest

import (
	"fmt"
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// NodeAffinity's addedAffinity (NodeAffinityArgs), read as kube-scheduler
// v1.36 validates and parses it (ValidateNodeAffinityArgs,
// nodeaffinity.NewNodeSelector and NewPreferredSchedulingTerms): a node
// selector ANDed with every pod's own affinity in the scheduler's Filter,
// and preferred terms added to the pod's in its Score
// (model.AddedAffinity).

// SchedulerNodeAffinityArgs are kube-scheduler's NodeAffinity arguments
// (the descheduler's plugin of that name has its own, NodeAffinityArgs).
type SchedulerNodeAffinityArgs struct {
	TypeMeta
	AddedAffinity *struct {
		Required *struct {
			NodeSelectorTerms []addedTerm `json:"nodeSelectorTerms"`
		} `json:"requiredDuringSchedulingIgnoredDuringExecution"`
		Preferred []struct {
			Weight     int32     `json:"weight"`
			Preference addedTerm `json:"preference"`
		} `json:"preferredDuringSchedulingIgnoredDuringExecution"`
	} `json:"addedAffinity"`
}

// addedTerm is a node selector term of addedAffinity.
type addedTerm struct {
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions"`
	MatchFields      []LabelSelectorRequirement `json:"matchFields"`
}

// empty reports whether the term has no requirement, which upstream skips
// (it matches no node, and scores nothing).
func (t *addedTerm) empty() bool {
	return len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0
}

// addedAffinityDecl validates and converts NodeAffinityArgs' addedAffinity
// at path (the plugin's args); nodes are the nodes' label sets, over which
// Gt and Lt become In as in pods' node affinity. nil means none.
func addedAffinityDecl(a at, path string, na *SchedulerNodeAffinityArgs, nodes nodeLabels) (*model.AddedAffinity, error) {
	if na.AddedAffinity == nil {
		return nil, nil
	}
	ap := join(path, "addedAffinity")
	out := &model.AddedAffinity{}
	if r := na.AddedAffinity.Required; r != nil {
		out.Required = true
		rp := join(ap, "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms")
		for i := range r.NodeSelectorTerms {
			t := &r.NodeSelectorTerms[i]
			if t.empty() {
				continue
			}
			sel, err := addedSelector(a, index(rp, i), t, nodes)
			if err != nil {
				return nil, err
			}
			out.Terms = append(out.Terms, sel)
		}
	}
	pp := join(ap, "preferredDuringSchedulingIgnoredDuringExecution")
	for i := range na.AddedAffinity.Preferred {
		p := &na.AddedAffinity.Preferred[i]
		ip := index(pp, i)
		// Upstream skips a term of weight 0 or without requirements before
		// parsing it.
		if p.Weight == 0 || p.Preference.empty() {
			continue
		}
		if p.Weight < 0 {
			return nil, a.errorf(join(ip, "weight"), "%d (accepted: 1 or more, 0 skips the term; kube-scheduler accepts a negative weight and fails every scheduling cycle whose NodeAffinity score goes negative, which the model does not represent)", p.Weight)
		}
		sel, err := addedSelector(a, join(ip, "preference"), &p.Preference, nodes)
		if err != nil {
			return nil, err
		}
		out.Preferred = append(out.Preferred, model.PreferredTerm{Weight: int(p.Weight), Term: sel})
	}
	return out, nil
}

// addedSelector converts one non-empty term as labels.NewRequirement
// validates its expressions.
func addedSelector(a at, path string, t *addedTerm, nodes nodeLabels) (model.Selector, error) {
	var sel model.Selector
	// A node's only field is metadata.name, its name
	// (model.NodeNameField).
	for i, r := range t.MatchFields {
		p := index(join(path, "matchFields"), i)
		if r.Operator != "In" && r.Operator != "NotIn" {
			return sel, a.errorf(join(p, "operator"), "%q (accepted: In, NotIn)", r.Operator)
		}
		if len(r.Values) != 1 {
			return sel, a.errorf(join(p, "values"), "%v (accepted: exactly one node name)", r.Values)
		}
		if r.Key != "metadata.name" {
			return sel, a.errorf(join(p, "key"), "%q (accepted: metadata.name, a node's only field)", r.Key)
		}
		sel.MatchExpressions = append(sel.MatchExpressions, model.Requirement{Key: model.NodeNameField, Operator: model.Operator(r.Operator), Values: r.Values})
	}
	for i, r := range t.MatchExpressions {
		p := index(join(path, "matchExpressions"), i)
		if r.Key == "" || !model.ValidLabelKey(r.Key) {
			return sel, a.errorf(join(p, "key"), "%q (accepted: a label key, a qualified name)", r.Key)
		}
		for j, v := range r.Values {
			if !model.ValidLabelValue(v) {
				return sel, a.errorf(index(join(p, "values"), j), "%q is not a valid label value (accepted: %s)", v, labelValueSyntax)
			}
		}
		req := model.Requirement{Key: r.Key, Operator: model.Operator(r.Operator), Values: r.Values}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				return sel, a.errorf(join(p, "values"), "empty (accepted: at least one value for operator %s)", r.Operator)
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) != 0 {
				return sel, a.errorf(join(p, "values"), "%v (accepted: none for operator %s)", r.Values, r.Operator)
			}
		case "Gt", "Lt":
			if len(r.Values) != 1 {
				return sel, a.errorf(join(p, "values"), "%v (accepted: exactly one integer for operator %s)", r.Values, r.Operator)
			}
			bound, err := strconv.ParseInt(r.Values[0], 10, 64)
			if err != nil {
				return sel, a.errorf(join(p, "values[0]"), "%q (accepted: an integer for operator %s)", r.Values[0], r.Operator)
			}
			req = model.Requirement{Key: r.Key, Operator: model.OpIn, Values: orderedValues(nodes, r.Key, r.Operator, bound)}
		default:
			return sel, a.errorf(join(p, "operator"), "%q (accepted: In, NotIn, Exists, DoesNotExist, Gt, Lt)", r.Operator)
		}
		sel.MatchExpressions = append(sel.MatchExpressions, req)
	}
	return sel, nil
}

// orderedValues are the values of key on the nodes that are integers
// above (Gt) or below (Lt) bound: In over them selects the nodes Gt or Lt
// selects (the model's selectors have no order). None: a value outside
// the label value syntax, which no node has (for a pod's term, whose
// invalid values upstream matches nothing, model.Compile also makes the
// term match nothing).
func orderedValues(nodes nodeLabels, key, op string, bound int64) []string {
	var in []string
	for _, v := range nodes.values(key) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err == nil && (op == "Gt" && n > bound || op == "Lt" && n < bound) {
			in = append(in, v)
		}
	}
	if len(in) == 0 {
		in = []string{fmt.Sprintf("%s %d (no node)", op, bound)}
	}
	return in
}
