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
	r.lister.s = cache.NewSnapshot(pods, nodes)
}
