package nodelifecycle

import "github.com/kivi-go/kivi/model"

// TaintManagerComponent is the trace component of the taint manager:
// Kubernetes runs it as the taint-eviction-controller.
const TaintManagerComponent = "taint-eviction-controller"

// TaintManager evicts Running pods from nodes whose NoExecute taints they
// do not tolerate. Unlike the other controllers it handles one queue item
// per step, as Kivi's taint manager is not run back-to-back.
type TaintManager struct{ model.ClusterWide }

// NewTaintManager returns the taint manager process.
func NewTaintManager() *TaintManager { return &TaintManager{} }

// Name is Kivi's process name (with its spelling).
func (*TaintManager) Name() string { return "TaintManager" }

// Enabled: the taint-manager queue has work.
func (*TaintManager) Enabled(_ *model.Universe, s *model.State) bool {
	return !s.Empty(model.TaintManagerQueue)
}

// Step handles the head of the taint-manager queue (Kivi's lifecycle) or
// any item of it (Kubernetes' lifecycle: tolerationseconds.go).
func (*TaintManager) Step(tx *model.Tx, s *model.State) {
	if !tx.U.Options.KiviLifecycle {
		processPod(tx, s)
		return
	}
	p, ok := s.Dequeue(model.TaintManagerQueue)
	if !ok {
		return
	}
	if p >= len(s.Pods) {
		s.Fail(model.FailInternal, p)
		return
	}
	n, evictIt := untoleratedNoExecute(tx.U, &s.Pods[p])
	if !evictIt {
		return
	}
	evict(tx, s, p)
	if tx.Tracing() {
		tx.Log(TaintManagerComponent, "Evicting pod %s: it does not tolerate the NoExecute taint of node %s",
			s.PodRef(p), tx.U.Nodes[n].Name)
	}
}

// untoleratedNoExecute reports whether pod p is Running on a node with a
// NoExecute taint its template does not tolerate, and which node (Kivi's
// taint manager: no tolerationSeconds).
func untoleratedNoExecute(u *model.Universe, p *model.PodState) (node int, evict bool) {
	if p.Phase != model.Running || p.Node == 0 {
		return 0, false
	}
	node = int(p.Node) - 1
	return node, u.Templates[p.Template].Fit[node].NoExecute
}
