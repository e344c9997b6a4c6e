package model

import "testing"

// The rows below restate k8s.io/kubernetes@v1.36.3,
// pkg/controller/tainteviction/taint_eviction_test.go TestCreatePod,
// TestUpdateNode, TestUpdateNodeWithMultipleTaints and
// TestUpdateNodeWithMultiplePods: the NoExecute taints of a pod's node
// (after the update) and its tolerations decide whether the
// taint-eviction-controller deletes it at once (EvictedAtOnce), after its
// least tolerationSeconds (EvictedLater: upstream's rows that expect no
// deletion within their short wait, or one after 1 s), or never
// (NotEvicted). The taint manager's step acts on that class
// (controllers/nodelifecycle tolerationseconds.go); a node whose taint is
// removed before the step cancels the eviction ("Taint removed",
// TestUpdateNodeWithMultipleTaints' last update): the model's taint
// manager evicts only while the node still carries the taint.
//
// Not restated: TestDeletePod, TestDeleteNode, TestEventualConsistency and
// TestPodDeletionEvent (informer events and the controller's work queue:
// the model's pods and nodes are read as they are), and
// timed_workers_test.go (the timers: the model has no clock); the rows of
// TestUpdatePod and TestCreateNode are the same classes as these.

// createNoExecuteTaint is upstream's testTaint<i>=test<i>:NoExecute.
func createNoExecuteTaint(i int) Taint {
	return Taint{Key: "testTaint" + string(rune('0'+i)), Value: "test" + string(rune('0'+i)), Effect: NoExecute}
}

// addToleration is upstream's toleration of testTaint<i> for seconds
// (−1: forever).
func addToleration(i int, seconds int64) []Toleration {
	tol := Toleration{Key: "testTaint" + string(rune('0'+i)), Value: "test" + string(rune('0'+i)), Effect: NoExecute}
	if seconds >= 0 {
		tol.TolerationSeconds = &seconds
	}
	return []Toleration{tol}
}

func TestUpstreamTaintEvictionClasses(t *testing.T) {
	one, hundred, minute := int64(1), int64(100), int64(60)
	for _, tc := range []struct {
		name   string
		taints []Taint
		tols   []Toleration
		want   NoExecuteEviction
	}{
		{"TestCreatePod/scheduled on untainted Node", nil, nil, NotEvicted},
		{"TestCreatePod/schedule on tainted Node", []Taint{createNoExecuteTaint(1)}, nil, EvictedAtOnce},
		{"TestCreatePod/schedule on tainted Node with finite toleration", []Taint{createNoExecuteTaint(1)}, addToleration(1, 100), EvictedLater},
		{"TestCreatePod/schedule on tainted Node with infinite toleration", []Taint{createNoExecuteTaint(1)}, addToleration(1, -1), NotEvicted},
		{"TestCreatePod/schedule on tainted Node with infinite invalid toleration", []Taint{createNoExecuteTaint(1)}, addToleration(2, -1), EvictedAtOnce},
		{"TestUpdateNode/Added taint, expect node patched and deleted", []Taint{createNoExecuteTaint(1)}, nil, EvictedAtOnce},
		{"TestUpdateNode/Added tolerated taint", []Taint{createNoExecuteTaint(1)}, addToleration(1, 100), EvictedLater},
		{"TestUpdateNode/Only one added taint tolerated", []Taint{createNoExecuteTaint(1), createNoExecuteTaint(2)}, addToleration(1, 100), EvictedAtOnce},
		{"TestUpdateNode/Taint removed", nil, addToleration(1, 1), NotEvicted},
		{"TestUpdateNode/Pod with multiple tolerations are evicted when first one runs out",
			[]Taint{createNoExecuteTaint(1), createNoExecuteTaint(2)},
			[]Toleration{{Key: "testTaint1", Value: "test1", Effect: NoExecute, TolerationSeconds: &one},
				{Key: "testTaint2", Value: "test2", Effect: NoExecute, TolerationSeconds: &hundred}},
			EvictedLater},
		{"TestUpdateNodeWithMultipleTaints/untainted", nil, multipleTaintsTolerations(&minute), NotEvicted},
		{"TestUpdateNodeWithMultipleTaints/permanently tolerated taint", []Taint{createNoExecuteTaint(1)}, multipleTaintsTolerations(&minute), NotEvicted},
		{"TestUpdateNodeWithMultipleTaints/temporarily tolerated taint added",
			[]Taint{createNoExecuteTaint(1), createNoExecuteTaint(2)}, multipleTaintsTolerations(&minute), EvictedLater},
		{"TestUpdateNodeWithMultiplePods/Pods with different toleration times/pod1", []Taint{createNoExecuteTaint(1)}, nil, EvictedAtOnce},
		{"TestUpdateNodeWithMultiplePods/Pods with different toleration times/pod2", []Taint{createNoExecuteTaint(1)}, addToleration(1, 1), EvictedLater},
		{"TestUpdateNodeWithMultiplePods/Pods with different toleration times/pod3", []Taint{createNoExecuteTaint(1)}, addToleration(1, -1), NotEvicted},
		{"TestUpdateNodeWithMultiplePods/Evict all pods not matching all taints instantly/pod2",
			[]Taint{createNoExecuteTaint(1), createNoExecuteTaint(2)}, addToleration(1, 1), EvictedAtOnce},
		{"TestUpdateNodeWithMultiplePods/Evict all pods not matching all taints instantly/pod3",
			[]Taint{createNoExecuteTaint(1), createNoExecuteTaint(2)}, addToleration(1, -1), EvictedAtOnce},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := noExecuteToleration(tc.taints, tc.tols); got.Eviction != tc.want {
				t.Errorf("got %+v, want %v", got, tc.want)
			}
		})
	}
}

// multipleTaintsTolerations are TestUpdateNodeWithMultipleTaints' pod's:
// testTaint1 forever, testTaint2 for a minute (operator Exists).
func multipleTaintsTolerations(minute *int64) []Toleration {
	return []Toleration{
		{Key: "testTaint1", Operator: "Exists", Effect: NoExecute},
		{Key: "testTaint2", Operator: "Exists", Effect: NoExecute, TolerationSeconds: minute},
	}
}
