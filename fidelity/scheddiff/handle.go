package scheddiff

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Framework returns the default profile's framework, the handle other
// plugins (DefaultPreemption in fidelity/preemptiondiff) are built on,
// and the context it runs in.
func (r *Real) Framework() (framework.Framework, context.Context) { return r.fw, r.ctx }

// SetSnapshot makes nodes and pods the cluster every plugin of the
// framework sees, as Decide does for its question.
func (r *Real) SetSnapshot(nodes []*v1.Node, pods []*v1.Pod) {
	r.lister.s = newSnapshot(nodes, pods)
}

// newSnapshot is the scheduler cache's snapshot of nodes and pods. The
// cache keeps the pods of a deleted Node until they are deleted too,
// but its snapshot lists only the nodes of its node tree
// (cacheImpl.UpdateSnapshot): those pods count for no filter or score.
// cache.NewSnapshot would list them under a NodeInfo without a node.
func newSnapshot(nodes []*v1.Node, pods []*v1.Pod) *cache.Snapshot {
	listed := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		listed[n.Name] = true
	}
	onNodes := make([]*v1.Pod, 0, len(pods))
	for _, p := range pods {
		if listed[p.Spec.NodeName] {
			onNodes = append(onNodes, p)
		}
	}
	return cache.NewSnapshot(onNodes, nodes)
}
