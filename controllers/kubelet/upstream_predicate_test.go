package kubelet

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The tables below restate the rows of Kubernetes' tests of the kubelet's
// admission (k8s.io/kubernetes@v1.36.3, pkg/kubelet/lifecycle/predicate_test.go)
// in the model's terms: the pod to admit is a Pending pod bound to node
// "machine1" (node 0), the pods the kubelet already runs are Running pods
// there, and the reason compared is the first one, as Admit reports it.
// Node "machine2" (node 1) exists for the NodeName row.
//
// Not restated, and why:
//   - TestGeneralPredicates "static pods ignore taints": the model has no
//     static pods (what a node runs outside the API is a node reservation,
//     never admitted).
//   - TestGeneralPredicates "node affinity failure on cached node, but not
//     the fresh one" and "… on fresh node, but not the cached one": the
//     model's kubelet reads the Node as it is, with no informer cache behind
//     it; the row "node affinity failure on cached node and node name
//     doesn't match" is restated with the node as it is cached (both
//     reasons, the first is NodeAffinity).
//   - TestPodAdmissionBasedOnSupplementalGroupsPolicy: securityContext is
//     not modelled (every node supports the policy).
//   - TestRemoveMissingExtendedResources: extended resources the node does
//     not advertise; controllers/kubelet testdata extendedresources.txt and
//     kubeletadmitdiff cover them.
//
// TestRejectPodAdmissionBasedOnOSSelector's and
// TestRejectPodAdmissionBasedOnOSField's rows run on a Linux kubelet:
// upstream's "OS label match" is a pod and node labelled with the
// kubelet's runtime.GOOS (linux), "dummyOS" another OS.

// admissionCase is one row: the nodes' taints and labels, the pod to
// admit and the pods machine1 runs.
type admissionCase struct {
	name       string
	nodeTaints []model.Taint
	nodeLabels map[string]string
	pod        *build.TemplateBuilder
	running    []*build.TemplateBuilder
	want       string
}

func (tc admissionCase) admit(t *testing.T) string {
	t.Helper()
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	machine1 := build.Node().Name("machine1").CPU(10).Mem(20).MaxPods(32)
	for _, taint := range tc.nodeTaints {
		machine1.Taint(taint.Key, taint.Value, taint.Effect)
	}
	for k, v := range tc.nodeLabels {
		machine1.Label(k, v)
	}
	b.AddNodes(1, machine1)
	b.AddNodes(1, build.Node().Name("machine2").CPU(10).Mem(20).MaxPods(32))
	d := b.AddDeployment("admitted", b.AddTemplate(tc.pod), 1)
	b.PendingPod(d, 0)
	for i, r := range tc.running {
		o := b.AddDeployment("other"+string(rune('a'+i)), b.AddTemplate(r), 1)
		b.RunPod(o, 0)
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	reason, _ := admit(u, s, 0)
	return reason
}

func existsTerm(key string) model.Selector {
	return model.Selector{MatchExpressions: []model.Requirement{{Key: key, Operator: model.OpExists}}}
}

// TestUpstreamGeneralPredicates: TestGeneralPredicates (generalFilter
// through Admit: the first reason).
func TestUpstreamGeneralPredicates(t *testing.T) {
	withAffinity := func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.RequiredTerm(existsTerm("foo")) }
	for _, tc := range []admissionCase{
		{name: "no resources/port/host requested always fits", pod: build.Template("pod"),
			running: []*build.TemplateBuilder{build.Template("used").Requests(9, 19)}},
		{name: "not enough cpu and memory resource", pod: build.Template("pod").Requests(8, 10),
			running: []*build.TemplateBuilder{build.Template("used").Requests(5, 19)}, want: "OutOfcpu"},
		{name: "host not match", pod: build.Template("pod").NodeName(1), want: "NodeName"},
		{name: "hostport conflict", pod: build.Template("pod").HostPorts(model.HostPort{Port: 123}),
			running: []*build.TemplateBuilder{build.Template("used").HostPorts(model.HostPort{Port: 123})}, want: "NodePorts"},
		{name: "taint/toleration match", nodeTaints: []model.Taint{{Key: "foo", Effect: model.NoSchedule}, {Key: "bar", Effect: model.NoExecute}},
			pod: build.Template("pod").TolerationWith(model.Toleration{Key: "foo"}).TolerationWith(model.Toleration{Key: "bar"})},
		{name: "NoSchedule taint/toleration not match", nodeTaints: []model.Taint{{Key: "foo", Effect: model.NoSchedule}}, pod: build.Template("pod")},
		{name: "NoExecute taint/toleration not match", nodeTaints: []model.Taint{{Key: "bar", Effect: model.NoExecute}}, pod: build.Template("pod"),
			want: "TaintToleration"},
		{name: "PreferNoSchedule taint/toleration not match", nodeTaints: []model.Taint{{Key: "baz", Effect: model.PreferNoSchedule}}, pod: build.Template("pod")},
		{name: "node affinity failure", pod: withAffinity(build.Template("pod")), want: "NodeAffinity"},
		{name: "node affinity failure on cached node and node name doesn't match (the node as cached)",
			pod: withAffinity(build.Template("pod").NodeName(1)), want: "NodeAffinity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.admit(t); got != tc.want {
				t.Errorf("admission %q, want %q", got, tc.want)
			}
		})
	}
}

// TestUpstreamRejectPodAdmissionBasedOnOSSelector:
// TestRejectPodAdmissionBasedOnOSSelector on a Linux kubelet. Upstream's
// two rows named "dummyOS label, but the underlying OS doesn't match" are
// one row here. The kubelet resets a Node's OS label to its own OS, so a
// node labelled dummyOS is read as Linux (model.OSLabelMismatch reads the
// label: the model's Nodes carry the label the kubelet gives them).
func TestUpstreamRejectPodAdmissionBasedOnOSSelector(t *testing.T) {
	linux := map[string]string{model.OSLabel: "linux"}
	for _, tc := range []admissionCase{
		{name: "OS label match", nodeLabels: linux, pod: build.Template("pod").Label(model.OSLabel, "linux")},
		{name: "dummyOS label, but the underlying OS matches (the kubelet relabels its Node linux)", nodeLabels: linux,
			pod: build.Template("pod").Label(model.OSLabel, "linux")},
		{name: "dummyOS label, but the underlying OS doesn't match", nodeLabels: linux,
			pod: build.Template("pod").Label(model.OSLabel, "dummyOS"), want: model.PodOSSelectorReason},
		{name: "OS field mismatch, OS label on node object would be reset to correct value", nodeLabels: linux,
			pod: build.Template("pod").Label(model.OSLabel, "dummyOS"), want: model.PodOSSelectorReason},
		{name: "No label selector on the pod, should be admitted", nodeLabels: linux, pod: build.Template("pod")},
		{name: "a Node without the label is the kubelet's Linux", pod: build.Template("pod").Label(model.OSLabel, "windows"), want: model.PodOSSelectorReason},
		{name: "rejected before resources: a critical pod preempts nothing", nodeLabels: linux,
			pod:     build.Template("pod").Critical().Requests(8, 10).Label(model.OSLabel, "dummyOS"),
			running: []*build.TemplateBuilder{build.Template("used").Requests(5, 19)}, want: model.PodOSSelectorReason},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.admit(t); got != tc.want {
				t.Errorf("admission %q, want %q", got, tc.want)
			}
		})
	}
}

// TestUpstreamRejectPodAdmissionBasedOnOSField:
// TestRejectPodAdmissionBasedOnOSField on a Linux kubelet (the Node's OS
// label, Linux without one), with two rows of the order of the checks: the
// OS label is checked first, and both before the resources (a critical
// pod preempts nothing).
func TestUpstreamRejectPodAdmissionBasedOnOSField(t *testing.T) {
	linux := map[string]string{model.OSLabel: "linux"}
	for _, tc := range []admissionCase{
		{name: "OS field match", nodeLabels: linux, pod: build.Template("pod").OS("linux")},
		{name: "OS field mismatch", nodeLabels: linux, pod: build.Template("pod").OS("dummyOS"), want: model.PodOSNotSupportedReason},
		{name: "no OS field", nodeLabels: linux, pod: build.Template("pod")},
		{name: "a Node without the label is the kubelet's Linux", pod: build.Template("pod").OS("windows"), want: model.PodOSNotSupportedReason},
		{name: "a Windows node admits a Windows pod", nodeLabels: map[string]string{model.OSLabel: "windows"}, pod: build.Template("pod").OS("windows")},
		{name: "the OS label is checked first", nodeLabels: linux, pod: build.Template("pod").OS("windows").Label(model.OSLabel, "windows"),
			want: model.PodOSSelectorReason},
		{name: "rejected before resources: a critical pod preempts nothing", nodeLabels: linux,
			pod:     build.Template("pod").Critical().Requests(8, 10).OS("dummyOS"),
			running: []*build.TemplateBuilder{build.Template("used").Requests(5, 19)}, want: model.PodOSNotSupportedReason},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.admit(t); got != tc.want {
				t.Errorf("admission %q, want %q", got, tc.want)
			}
		})
	}
}
