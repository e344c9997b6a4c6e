package scaling

import (
	"strconv"
	"strings"
)

// Setup is one concrete topology of the search: Nodes[t] nodes of node
// type t and Replicas[d] desired replicas (the Deployment's spec, not the
// number of pod slots) of deployment d, both in the Cluster's order.
type Setup struct {
	Nodes    []int `json:"nodes"`
	Replicas []int `json:"replicas"`
}

// String renders the setup as Kivi's str_setup:
// "{node type 0: 1, node type 1: 2, deployment type 0: 3}".
func (s Setup) String() string {
	var b strings.Builder
	b.WriteByte('{')
	sep := ""
	for i, n := range s.Nodes {
		b.WriteString(sep + "node type " + strconv.Itoa(i) + ": " + strconv.Itoa(n))
		sep = ", "
	}
	for i, n := range s.Replicas {
		b.WriteString(sep + "deployment type " + strconv.Itoa(i) + ": " + strconv.Itoa(n))
		sep = ", "
	}
	b.WriteByte('}')
	return b.String()
}

// TotalNodes is the number of nodes of the setup (N in Kivi's scaling search).
func (s Setup) TotalNodes() int { return sum(s.Nodes) }

// TotalReplicas is the sum of the deployments' desired replicas.
func (s Setup) TotalReplicas() int { return sum(s.Replicas) }

// Equal reports whether two setups assign the same counts.
func (s Setup) Equal(o Setup) bool {
	return equalInts(s.Nodes, o.Nodes) && equalInts(s.Replicas, o.Replicas)
}

// clone copies the setup so that callers cannot alias the enumerator's
// buffers.
func (s Setup) clone() Setup {
	return Setup{Nodes: append([]int(nil), s.Nodes...), Replicas: append([]int(nil), s.Replicas...)}
}

// kiviKey is Kivi's sort key, computed literally in IEEE-754 doubles:
// the node counts summed as integers, then each
// deployment's count divided by 1000.0 added in order. The rounding of
// the additions decides ties between setups with two or more deployment
// types, so it must not be replaced by the integer pair (N, D).
func (s Setup) kiviKey() float64 {
	key := float64(sum(s.Nodes))
	for _, d := range s.Replicas {
		key += float64(d) / 1000.0
	}
	return key
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
