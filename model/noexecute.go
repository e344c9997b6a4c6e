package model

// The taints the node lifecycle controller puts on a node that is not
// Ready (v1.TaintNodeNotReady, v1.TaintNodeUnreachable): not-ready when
// the kubelet reports the node's Ready condition False, unreachable when
// it stops reporting (Unknown). Both have the effect NoExecute.
const (
	TaintNodeNotReady    = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable = "node.kubernetes.io/unreachable"
)

// NodeDownTaints indexes NodeFit.NodeDown: the not-ready taint, then the
// unreachable one.
var NodeDownTaints = [2]string{TaintNodeNotReady, TaintNodeUnreachable}

// DefaultTolerationSeconds is the tolerationSeconds the
// DefaultTolerationSeconds admission plugin gives every pod for the
// not-ready and unreachable taints (--default-not-ready-toleration-seconds,
// --default-unreachable-toleration-seconds).
const DefaultTolerationSeconds = 300

// NoExecuteEviction is what the taint-eviction-controller does with a pod
// on a node with NoExecute taints (pkg/controller/tainteviction,
// processPodOnNode).
type NoExecuteEviction uint8

const (
	// NotEvicted: no NoExecute taint, or every one tolerated forever.
	NotEvicted NoExecuteEviction = iota
	// EvictedAtOnce: some taint is not tolerated, or a toleration it uses
	// has tolerationSeconds ≤ 0.
	EvictedAtOnce
	// EvictedLater: every taint tolerated, the least tolerationSeconds of
	// the tolerations used is positive: the pod is evicted that long
	// after the taint appeared, unless the taint goes first.
	EvictedLater
)

func (e NoExecuteEviction) String() string {
	switch e {
	case NotEvicted:
		return "NotEvicted"
	case EvictedAtOnce:
		return "EvictedAtOnce"
	case EvictedLater:
		return "EvictedLater"
	}
	return "NoExecuteEviction(?)"
}

// NoExecuteToleration is a template's standing against a set of NoExecute
// taints: the eviction and, for EvictedLater, after how many seconds.
type NoExecuteToleration struct {
	Eviction NoExecuteEviction
	Seconds  int64
}

// Evicted reports whether the pod goes, at once or later.
func (t NoExecuteToleration) Evicted() bool { return t.Eviction != NotEvicted }

// noExecuteToleration is upstream's processPodOnNode for the NoExecute
// taints among taints: GetMatchingTolerations takes, for each taint, the
// first toleration that tolerates it (a taint none tolerates evicts at
// once), and getMinTolerationTime the least tolerationSeconds among
// those (none set: forever; one ≤ 0: at once).
func noExecuteToleration(taints []Taint, tols []Toleration) NoExecuteToleration {
	least, finite := int64(0), false
	for _, taint := range taints {
		if taint.Effect != NoExecute {
			continue
		}
		used := -1
		for i := range tols {
			if tols[i].Tolerates(taint) {
				used = i
				break
			}
		}
		if used < 0 {
			return NoExecuteToleration{Eviction: EvictedAtOnce}
		}
		if sec := tols[used].TolerationSeconds; sec != nil {
			if *sec <= 0 {
				return NoExecuteToleration{Eviction: EvictedAtOnce}
			}
			if !finite || *sec < least {
				least, finite = *sec, true
			}
		}
	}
	if !finite {
		return NoExecuteToleration{}
	}
	return NoExecuteToleration{Eviction: EvictedLater, Seconds: least}
}

// withDefaultTolerationSeconds is the DefaultTolerationSeconds admission
// plugin (plugin/pkg/admission/defaulttolerationseconds): a pod with no
// toleration whose key is the taint's (or empty) and whose effect is
// NoExecute (or empty) gets `key Exists NoExecute for 300 s`, for the
// not-ready and the unreachable taint each. tols is not modified.
func withDefaultTolerationSeconds(tols []Toleration) []Toleration {
	out := tols
	for _, key := range NodeDownTaints {
		has := false
		for _, t := range tols {
			if (t.Key == key || t.Key == "") && (t.Effect == NoExecute || t.Effect == "") {
				has = true
				break
			}
		}
		if !has {
			sec := int64(DefaultTolerationSeconds)
			out = append(out[:len(out):len(out)], Toleration{Key: key, Operator: "Exists", Effect: NoExecute, TolerationSeconds: &sec})
		}
	}
	return out
}

// admittedTolerations are the tolerations of t's pods as the API server
// admits them, which the scheduler, the kubelet and the taint manager
// judge: t's own plus the DefaultTolerationSeconds ones, except under
// Kivi's lifecycle, which has none.
func (u *Universe) admittedTolerations(t *PodTemplate) []Toleration {
	if u.Options.KiviLifecycle {
		return t.Tolerations
	}
	return withDefaultTolerationSeconds(t.Tolerations)
}

// compileNoExecute fills f's NoExecute tolerations for a node with taints:
// its own NoExecute taints, and those plus each taint of a node that is
// not Ready. Under Kivi's lifecycle there are no tolerationSeconds and no
// not-ready taints: an untolerated NoExecute taint evicts, a node that is
// not Ready evicts everything at once.
func compileNoExecute(f *NodeFit, taints []Taint, tols []Toleration, kivi bool) {
	if kivi {
		if f.NoExecute {
			f.NoExecuteTaints = NoExecuteToleration{Eviction: EvictedAtOnce}
		}
		f.NodeDown = [2]NoExecuteToleration{{Eviction: EvictedAtOnce}, {Eviction: EvictedAtOnce}}
		f.OutOfService = [3]NoExecuteToleration{{Eviction: EvictedAtOnce}, {Eviction: EvictedAtOnce}, {Eviction: EvictedAtOnce}}
		return
	}
	f.NoExecuteTaints = noExecuteToleration(taints, tols)
	oos := Taint{Key: TaintNodeOutOfService, Value: outOfServiceValue, Effect: NoExecute}
	for i, key := range NodeDownTaints {
		down := append(taints[:len(taints):len(taints)], Taint{Key: key, Effect: NoExecute})
		f.NodeDown[i] = noExecuteToleration(down, tols)
		f.OutOfService[i] = noExecuteToleration(append(down, oos), tols)
	}
	f.OutOfService[2] = noExecuteToleration(append(taints[:len(taints):len(taints)], oos), tols)
}

// TakesNodesDown reports whether a node of u is not Ready at the start
// (NodesDownAtStart) or an event of u can make one not Ready
// (kernelPanic, maintenance, nodeFailure).
func TakesNodesDown(u *Universe) bool {
	if u.NodesDownAtStart {
		return true
	}
	for i := range u.Events {
		switch u.Events[i].Kind {
		case KernelPanic, Maintenance, NodeFailure:
			return true
		}
	}
	return false
}

// TaintEvictionRuns reports whether the taint-eviction-controller has
// anything to do in u: some node has a taint, or (under Kubernetes'
// lifecycle) a node may go down and its pods then wait out their
// tolerations of the not-ready and unreachable taints. Only then do
// controllers queue pods for it.
func TaintEvictionRuns(u *Universe) bool {
	return u.HasTaints || !u.Options.KiviLifecycle && TakesNodesDown(u)
}

// A node's status carries, besides its health, the Ready condition the
// node lifecycle controller saw when it handled the node under
// Kubernetes' lifecycle: False (the not-ready taints) or Unknown (the
// unreachable ones). With TaintQueued (zones.go) the node carries only the
// NoSchedule taint of that key, its NoExecute taint held back by the zone
// states; without, both. Events that take a node down set its health
// alone (a node that just went down is not handled yet), and an event
// that makes it Ready again clears the condition and the taints with it,
// as the node lifecycle controller removes the taints from a Ready node.
const (
	TaintedNotReady    NodeStatus = 0x40
	TaintedUnreachable NodeStatus = 0x80
	taintBits                     = TaintedNotReady | TaintedUnreachable
)

// Health is the status without the taint (nor TaintQueued, zones.go):
// Ready, NotReady or Unhealthy.
func (s NodeStatus) Health() NodeStatus { return s &^ (taintBits | TaintQueued) }

// NodeDownTaint returns the index into NodeDownTaints of the node's
// not-ready or unreachable NoExecute taint; ok is false when it has
// neither (not handled yet, or the taint held back).
func (s NodeStatus) NodeDownTaint() (i int, ok bool) {
	if s.TaintIsQueued() {
		return 0, false
	}
	return s.NodeDownCondition()
}

// NodeDownCondition returns the index into NodeDownTaints of the key the
// node controller decided for the node (0: its Ready condition is False,
// 1: Unknown), whether its NoExecute taint is placed or held back; ok is
// false when it has not decided.
func (s NodeStatus) NodeDownCondition() (i int, ok bool) {
	switch s & taintBits {
	case TaintedNotReady:
		return 0, true
	case TaintedUnreachable:
		return 1, true
	}
	return 0, false
}

// HeldBack returns the status with the NoExecute taint held back
// (TaintQueued) and the condition kept.
func (s NodeStatus) HeldBack() NodeStatus { return s | TaintQueued }

// WithHeldNodeDownTaint returns the status held back with NodeDownTaints[i]
// as the decided key: the node carries its NoSchedule taint only.
func (s NodeStatus) WithHeldNodeDownTaint(i int) NodeStatus {
	return s.WithNodeDownTaint(i) | TaintQueued
}

// WithNodeDownTaint returns the status with NodeDownTaints[i] as taint.
func (s NodeStatus) WithNodeDownTaint(i int) NodeStatus {
	if i == 0 {
		return s.Health() | TaintedNotReady
	}
	return s.Health() | TaintedUnreachable
}
