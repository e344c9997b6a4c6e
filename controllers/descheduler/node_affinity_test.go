package descheduler

import (
	"errors"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestInvalidNodeAffinityTypeUpstream is the row "Invalid Affinity type,
// should not evict any pods" of sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/removepodsviolatingnodeaffinity/node_affinity_test.go,
// TestRemovePodsViolatingNodeAffinity: a nodeAffinityType other than the
// two IgnoredDuringExecution ones evicts nothing upstream, which its
// validation rejects (validation_test.go); the model rejects it when the
// universe is built, so no cycle runs. The other rows of that table are
// in deschedule_test.go (TestRemovePodsViolatingNodeAffinityUpstream) and,
// for the limits of 0, evictions_test.go.
func TestInvalidNodeAffinityTypeUpstream(t *testing.T) {
	b := build.New()
	b.AddNodes(1, upstreamNode("nodeWithoutLabels"))
	b.AddNodes(1, upstreamNode("nodeWithLabels").Label("kubernetes.io/desiredNode", "yes"))
	d := b.AddDeployment("p", b.AddTemplate(build.Template("p").Requests(100, 0)), 1)
	b.RunPod(d, 0)
	b.U.Descheduler = policy(affinityProfile(false, model.NodeAffinityType(9)))
	if _, _, err := b.Build(0); !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("nodeAffinityType 9: err %v, want model.ErrInvalid", err)
	}
}
