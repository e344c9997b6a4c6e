package scheddiff

import (
	"context"
	"strings"

	v1 "k8s.io/api/core/v1"
	api "k8s.io/kubernetes/pkg/apis/core"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	podregistry "k8s.io/kubernetes/pkg/registry/core/pod"
)

// admit does to p what the API server's pod strategy does at creation
// (PrepareForCreate) to the fields the scheduler reads that the in-process
// framework does not see otherwise: it merges the inter-pod affinity
// terms' matchLabelKeys and mismatchLabelKeys into their labelSelectors
// (`In` / `NotIn` the pod's own values) and, under
// MatchLabelKeysInPodTopologySpreadSelectorMerge, the spread constraints'
// matchLabelKeys into theirs. Only spec.affinity and
// spec.topologySpreadConstraints are taken from the result:
// PrepareForCreate also resets the status, which the snapshot sets.
func admit(p *v1.Pod) {
	var in api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(p, &in, nil); err != nil {
		panic(err)
	}
	podregistry.Strategy.PrepareForCreate(context.Background(), &in)
	var out v1.Pod
	if err := apiv1.Convert_core_Pod_To_v1_Pod(&in, &out, nil); err != nil {
		panic(err)
	}
	p.Spec.Affinity, p.Spec.TopologySpreadConstraints = out.Spec.Affinity, out.Spec.TopologySpreadConstraints
}

// labelKeysErrors returns the API server's validation errors of an
// admitted pod about its matchLabelKeys and mismatchLabelKeys (pod
// strategy Validate, after PrepareForCreate merged them), empty when it
// accepts them.
func labelKeysErrors(p *v1.Pod) []string {
	var in api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(p, &in, nil); err != nil {
		panic(err)
	}
	var out []string
	for _, e := range podregistry.Strategy.Validate(context.Background(), &in) {
		// The field of a key in both matchLabelKeys and labelSelector is the
		// term's path with the key's index; the detail names the field.
		if strings.Contains(e.Error(), "LabelKeys") {
			out = append(out, e.Error())
		}
	}
	return out
}
