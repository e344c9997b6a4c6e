package kubelet

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The tables below restate the rows of Kubernetes' tests of the kubelet's
// preemption for critical pods (k8s.io/kubernetes@v1.36.3,
// pkg/kubelet/preemption/preemption_test.go) in the model's terms: cpu in
// millicores, memory in MiB, upstream's test pods as templates of the
// same requests (getTestPods), the pods a kubelet runs as Running pods of
// one node. Not restated: TestHandleAdmissionFailure's "multiple pods
// with eviction error - no other failure reason" (the model's API writes
// succeed: docs/divergences.md, "Model-wide").

// The test pods of getTestPods.
const (
	tinyBurstable         = "tiny"
	bestEffort            = "bestEffort"
	clusterCritical       = "cluster-critical"
	nodeCritical          = "node-critical"
	burstable             = "burstable"
	guaranteed            = "guaranteed"
	highRequestBurstable  = "high-request-burstable"
	highRequestGuaranteed = "high-request-guaranteed"
)

func testPod(kind string) *build.TemplateBuilder {
	tb := build.Template(kind)
	switch kind {
	case tinyBurstable:
		tb.Requests(1, 1)
	case clusterCritical:
		tb.Requests(100, 100).Priority(model.SystemCriticalPriority)
	case nodeCritical:
		tb.Requests(100, 100).Priority(model.SystemCriticalPriority + 100)
	case burstable:
		tb.Requests(100, 100)
	case guaranteed:
		tb.Requests(100, 100).Guaranteed()
	case highRequestBurstable:
		tb.Requests(300, 300)
	case highRequestGuaranteed:
		tb.Requests(300, 300).Guaranteed()
	}
	return tb
}

// preemptionNode builds node 0 (cpu and memory as given, 110 pods)
// running the pods of the given kinds, and the pod to admit, Pending and
// bound there, last. It returns the pod to admit and, by slot, the kind
// of every running pod.
func preemptionNode(t *testing.T, cpu, memory int64, maxPods int, admit string, running ...string) (*model.Tx, *model.State, int, []string) {
	t.Helper()
	b := build.New()
	b.U.Options.TieBreak = model.LowestIndex
	b.AddNodes(1, build.Node().CPU(cpu).Mem(memory).MaxPods(maxPods))
	for i, kind := range running {
		b.RunPod(b.AddDeployment("run"+string(rune('a'+i)), b.AddTemplate(testPod(kind)), 1), 0)
	}
	b.PendingPod(b.AddDeployment("admit", b.AddTemplate(testPod(admit)), 1), 0)
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	return tx, s, len(running), running
}

func kindsOf(victims []int, running []string) []string {
	out := make([]string, len(victims))
	for i, v := range victims {
		out[i] = running[v]
	}
	slices.Sort(out)
	return out
}

func sorted(kinds ...string) []string {
	out := slices.Clone(kinds)
	slices.Sort(out)
	return out
}

// TestUpstreamHandleAdmissionFailure: TestHandleAdmissionFailure, the
// admission of a pod on a node that lacks what upstream's failure
// reasons name (the node sized so), through admit and the preemption:
// the reason left (none when the handler admitted the pod) and the pods
// preempted. Upstream's "other failure reason" is a NoExecute taint the
// pod does not tolerate, a failure preemption cannot help.
func TestUpstreamHandleAdmissionFailure(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cpu, memory int64
		maxPods     int
		admit       string
		running     []string
		otherReason bool
		wantReason  string
		wantVictims []string
	}{
		{name: "critical pods cannot be preempted - no other failure reason", cpu: 1000, memory: 1000, maxPods: 1,
			admit: clusterCritical, running: []string{clusterCritical}, wantReason: unexpectedAdmissionError},
		{name: "non-critical pod should not trigger eviction - no other failure reason", cpu: 1000, memory: 100,
			admit: guaranteed, running: []string{burstable}, wantReason: "OutOfmemory"},
		{name: "best effort pods are not preempted when attempting to free resources - no other failure reason", cpu: 1000, memory: 99,
			admit: clusterCritical, running: []string{bestEffort}, wantReason: unexpectedAdmissionError},
		// 900 MiB run on 450: the critical pod lacks 550 MiB.
		{name: "multiple pods evicted - no other failure reason", cpu: 10000, memory: 450, admit: clusterCritical,
			running:     []string{clusterCritical, bestEffort, burstable, highRequestBurstable, guaranteed, highRequestGuaranteed},
			wantVictims: sorted(highRequestBurstable, highRequestGuaranteed)},
		{name: "non-critical pod should not trigger eviction - with other failure reason", cpu: 1000, memory: 100,
			admit: guaranteed, running: []string{burstable}, otherReason: true, wantReason: "OutOfmemory"},
		{name: "critical pods cannot be preempted - with other failure reason", cpu: 1000, memory: 1000, maxPods: 1,
			admit: clusterCritical, running: []string{clusterCritical}, otherReason: true, wantReason: "TaintToleration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.U.Options.TieBreak = model.LowestIndex
			node := build.Node().CPU(tc.cpu).Mem(tc.memory).MaxPods(110)
			if tc.maxPods > 0 {
				node.MaxPods(tc.maxPods)
			}
			if tc.otherReason {
				node.Taint("other", "reason", model.NoExecute)
			}
			b.AddNodes(1, node)
			for i, kind := range tc.running {
				b.RunPod(b.AddDeployment("run"+string(rune('a'+i)), b.AddTemplate(testPod(kind).TolerateAll()), 1), 0)
			}
			b.PendingPod(b.AddDeployment("admit", b.AddTemplate(testPod(tc.admit)), 1), 0)
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			p := len(tc.running)
			reason, preempt := admit(u, s, p)
			var victims []string
			if preempt {
				tx := model.NewTx(u)
				tx.Begin(nil, false)
				v, ok := podsToPreempt(tx, s, p, 0)
				if !ok {
					reason = unexpectedAdmissionError
				}
				victims = kindsOf(v, tc.running)
			}
			if reason != tc.wantReason || !slices.Equal(victims, tc.wantVictims) {
				t.Errorf("reason %q, victims %v; want %q, %v", reason, victims, tc.wantReason, tc.wantVictims)
			}
		})
	}
}

// req builds upstream's getAdmissionRequirementList(cpu, memory, pods).
func req(cpu, memory, pods int64) []requirement {
	var out []requirement
	if cpu > 0 {
		out = append(out, requirement{requireCPU, cpu})
	}
	if memory > 0 {
		out = append(out, requirement{requireMemory, memory})
	}
	if pods > 0 {
		out = append(out, requirement{requirePods, pods})
	}
	return out
}

// TestUpstreamGetPodsToPreempt: TestGetPodsToPreempt (victimsFor over the
// candidates preemptionCandidates gives).
func TestUpstreamGetPodsToPreempt(t *testing.T) {
	for _, tc := range []struct {
		name      string
		preemptor string
		running   []string
		reqs      []requirement
		want      []string
		wantErr   bool
	}{
		{name: "no requirements", preemptor: clusterCritical, reqs: req(0, 0, 0), want: []string{}},
		{name: "no pods", preemptor: clusterCritical, reqs: req(0, 0, 1), wantErr: true},
		{name: "equal pods and resources requirements", preemptor: clusterCritical, running: []string{burstable},
			reqs: req(100, 100, 1), want: []string{burstable}},
		{name: "higher requirements than pod requests", preemptor: clusterCritical, running: []string{burstable},
			reqs: req(200, 200, 2), wantErr: true},
		{name: "choose between bestEffort and burstable", preemptor: clusterCritical, running: []string{burstable, bestEffort},
			reqs: req(0, 0, 1), want: []string{bestEffort}},
		{name: "choose between burstable and guaranteed", preemptor: clusterCritical, running: []string{burstable, guaranteed},
			reqs: req(0, 0, 1), want: []string{burstable}},
		{name: "choose lower request burstable if it meets requirements", preemptor: clusterCritical,
			running: []string{bestEffort, highRequestBurstable, burstable}, reqs: req(100, 100, 0), want: []string{burstable}},
		{name: "choose higher request burstable if lower does not meet requirements", preemptor: clusterCritical,
			running: []string{bestEffort, burstable, highRequestBurstable}, reqs: req(150, 150, 0), want: []string{highRequestBurstable}},
		{name: "multiple pods required", preemptor: clusterCritical,
			running: []string{bestEffort, burstable, highRequestBurstable, guaranteed, highRequestGuaranteed},
			reqs:    req(350, 350, 0), want: sorted(burstable, highRequestBurstable)},
		{name: "evict guaranteed when we have to, and dont evict the extra burstable", preemptor: clusterCritical,
			running: []string{bestEffort, burstable, highRequestBurstable, guaranteed, highRequestGuaranteed},
			reqs:    req(0, 550, 0), want: sorted(highRequestBurstable, highRequestGuaranteed)},
		{name: "evict cluster critical pod for node critical pod", preemptor: nodeCritical, running: []string{clusterCritical},
			reqs: req(100, 0, 0), want: []string{clusterCritical}},
		{name: "can not evict node critical pod for cluster critical pod", preemptor: clusterCritical, running: []string{nodeCritical},
			reqs: req(100, 0, 0), wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx, s, p, running := preemptionNode(t, 100000, 100000, 110, tc.preemptor, tc.running...)
			victims, ok := victimsFor(tx, s, tc.reqs, preemptionCandidates(tx.U, s, p, 0))
			if ok == tc.wantErr {
				t.Fatalf("ok = %v, want %v (victims %v)", ok, !tc.wantErr, kindsOf(victims, running))
			}
			if got := kindsOf(victims, running); ok && !slices.Equal(got, tc.want) {
				t.Errorf("victims %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUpstreamAdmissionRequirements: TestAdmissionRequirementsDistance
// and TestAdmissionRequirementsSubtract (distance, subtract).
func TestUpstreamAdmissionRequirements(t *testing.T) {
	tx, s, _, running := preemptionNode(t, 1000, 1000, 110, clusterCritical, burstable, bestEffort)
	pod := map[string]int{running[0]: 0, running[1]: 1}
	for _, tc := range []struct {
		name string
		reqs []requirement
		pod  string
		want float64
	}{
		{"no requirements", req(0, 0, 0), burstable, 0},
		{"no requests, some requirements", req(100, 100, 1), bestEffort, 2},
		{"equal requests and requirements", req(100, 100, 1), burstable, 0},
		{"higher requests than requirements", req(50, 50, 0), burstable, 0},
	} {
		if got := distance(tx.U, s, tc.reqs, pod[tc.pod]); got != tc.want {
			t.Errorf("TestAdmissionRequirementsDistance/%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		reqs []requirement
		pod  string
		want []requirement
	}{
		{"subtract a pod from no requirements", req(0, 0, 0), burstable, req(0, 0, 0)},
		{"subtract no requests from some requirements", req(100, 100, 1), bestEffort, req(100, 100, 0)},
		{"equal requests and requirements", req(100, 100, 1), burstable, req(0, 0, 0)},
		{"subtract higher requests than requirements", req(50, 50, 0), burstable, req(0, 0, 0)},
		{"subtract lower requests than requirements", req(200, 200, 1), burstable, req(100, 100, 0)},
	} {
		if got := subtract(tx.U, s, tc.reqs, pod[tc.pod]); !slices.Equal(got, tc.want) {
			t.Errorf("TestAdmissionRequirementsSubtract/%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestUpstreamSmallerResourceRequest: TestSmallerResourceRequest
// (compareRequests(a, b) ≤ 0 is smallerResourceRequest(a, b)). The
// storage row's pods request neither cpu nor memory here: the model keeps
// no other resource they could be compared by.
func TestUpstreamSmallerResourceRequest(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(10000).Mem(10000))
	kinds := map[string]*build.TemplateBuilder{
		"no-requests": build.Template("no-requests"),
		"low-memory":  build.Template("low-memory").Requests(100, 50),
		"high-memory": build.Template("high-memory").Requests(100, 200),
		"high-cpu":    build.Template("high-cpu").Requests(200, 50),
	}
	names := []string{"no-requests", "low-memory", "high-memory", "high-cpu"}
	slot := map[string]int{}
	for i, name := range names {
		b.RunPod(b.AddDeployment(name, b.AddTemplate(kinds[name]), 1), 0)
		slot[name] = i
	}
	u, s := b.MustBuild()
	for _, tc := range []struct {
		name       string
		pod1, pod2 string
		want       bool
	}{
		{"some requests vs no requests should return false", "low-memory", "no-requests", false},
		{"lower memory should return true", "low-memory", "high-memory", true},
		{"memory priority over CPU", "high-memory", "high-cpu", false},
		{"equal resource request should return true", "low-memory", "low-memory", true},
		{"resource type other than CPU and memory are ignored", "no-requests", "no-requests", true},
	} {
		if got := compareRequests(u, s, slot[tc.pod1], slot[tc.pod2]) <= 0; got != tc.want {
			t.Errorf("%s: smallerResourceRequest(%s, %s) = %v, want %v", tc.name, tc.pod1, tc.pod2, got, tc.want)
		}
	}
}
