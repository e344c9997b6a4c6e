package descheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestAdmissionReasonOSLabel: a Failed pod whose kubernetes.io/os label
// is not its node's OS was rejected by the kubelet's first predicate
// (PodOSSelectorNodeLabelDoesNotMatch) and for nothing else, whatever it
// requests; a pod without the label keeps the resource reasons.
func TestAdmissionReasonOSLabel(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(10).Mem(10))
	windows := b.AddDeployment("win", b.AddTemplate(build.Template("win").Requests(1, 1).Label(model.OSLabel, "windows")), 1)
	plain := b.AddDeployment("plain", b.AddTemplate(build.Template("plain").Requests(1, 1)), 1)
	b.RunPod(windows, 0)
	b.RunPod(plain, 0)
	u, s := b.MustBuild()
	s.Pods[0].Phase, s.Pods[1].Phase = model.Failed, model.Failed
	c := newCycle(u, s, nil, nil)
	if got, want := c.admissionReasons(0), []string{model.PodOSSelectorReason}; !slices.Equal(got, want) {
		t.Errorf("windows pod on a Linux node: reasons %v, want %v", got, want)
	}
	if got, want := c.admissionReasons(1), []string{"OutOfcpu", "OutOfmemory"}; !slices.Equal(got, want) {
		t.Errorf("unlabelled pod: reasons %v, want %v", got, want)
	}
}
