package manifest

import (
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// nodeList reads a drain's nodes: a list of node names, each once.
func (r *intentsReader) nodeList(path string, v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, r.a.errorf(path, "%s (accepted: a list of node names: %s)", describeValue(v), shortList(r.nodes))
	}
	var out []string
	for i, x := range list {
		p := fmt.Sprintf("%s[%d]", path, i)
		name, err := r.name(p, x, "node", r.nodes)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, name) {
			return nil, r.a.errorf(p, "node %q is drained twice (accepted: each node once)", name)
		}
		out = append(out, name)
	}
	return out, nil
}

// flag reads a boolean option.
func (r *intentsReader) flag(path string, v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, r.a.errorf(path, "%s (accepted: true, false)", describeValue(v))
	}
	return b, nil
}

// checkDrain checks what a drain's fields say together: its nodes, one
// way or the other, and no more nodes at once than it drains.
func (r *intentsReader) checkDrain(path string, ed model.EventDecl) error {
	switch {
	case ed.Node != "" && len(ed.Nodes) > 0:
		return r.a.errorf(join(path, "nodes"), "drain takes node (one node) or nodes (a list), not both")
	case ed.Node == "" && len(ed.Nodes) == 0:
		return r.a.errorf(path, "drain needs its nodes (accepted: node: NAME, or nodes: [NAME, …]; nodes: %s)", shortList(r.nodes))
	}
	if n := max(len(ed.Nodes), 1); ed.Parallel > n {
		return r.a.errorf(join(path, "parallel"), "%d (accepted: an integer 1..%d, the nodes drained at once)", ed.Parallel, n)
	}
	return nil
}
