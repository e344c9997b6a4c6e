package scheduler

import "github.com/kivi-go/kivi/model"

// waitsForTermination reports whether a pod that found no feasible node
// waits instead of failing the state: some pod is still terminating on a
// node, so its requests still count (NodeResourcesFit), and its removal
// may make room. kube-scheduler parks such a pod in its unschedulable
// queue and retries it when an assigned pod is deleted; the model's
// kubelet queues every waiting pod again when it removes a pod
// (controllers/kubelet). A pod that still finds no node once no pod is
// terminating fails the state then, so pod_always_schedulable is judged
// on the cluster without the pods on their way out, and no violation is
// lost, only found at the retry. A pod that stays Terminating on a node
// that is not Ready (model.KeepsTerminatingPod) is not waited for: it
// goes only when its node comes back, and the scheduler's attempt is
// judged on the cluster with the node down, as for a pod the kubelet
// removed. Where templates differ in priority the question comes after
// PostFilter: a pod that preempts is nominated whatever terminates, and
// only one that finds no victims waits. Under Kivi's lifecycle
// (model.Options.KiviLifecycle) every attempt is judged at once.
func waitsForTermination(u *model.Universe, s *model.State) bool {
	if u.Options.KiviLifecycle {
		return false
	}
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase == model.Terminating && p.Node != 0 && !model.KeepsTerminatingPod(u, s, p) {
			return true
		}
	}
	return false
}
