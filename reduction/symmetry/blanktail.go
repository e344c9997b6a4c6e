package symmetry

import "github.com/kivi-go/kivi/model"

// Blank slots at the end. New pods take the lowest Free slot, so a state
// usually ends in a run of slots that are Free and all zero, in no queue
// and named by no failure: blank. All blank slots have one content key,
// the greatest a Free slot can have but for slots that are Free and yet
// carry a node, usage or failure (none do in a reachable state), and are
// on no node, so they sort last among the slots of that key, by slot:
// the trailing run stays where it is, and the canonicaliser can leave it
// out of its sorts. This matters: a model sized for a scale-up has many
// more slots than pods most of the time.

// blankTail returns the first slot of the trailing run of blank slots of
// s (len(s.Pods) when there is none). The caller checks that no other
// Free slot sorts after them (podSortKeys' oddFree).
func blankTail(s *model.State) int {
	pods := s.Pods
	f := model.BlankTail(pods) // the trailing run of blank slots, read as memory
	if f == len(pods) {
		return f
	}
	for _, q := range podQueues {
		for _, p := range s.Queues[q] {
			if int(p) >= f && int(p) < len(pods) {
				f = int(p) + 1
			}
		}
	}
	if s.Failed == model.FailNoFeasibleNode && int(s.FailedArg) >= f && int(s.FailedArg) < len(pods) {
		f = int(s.FailedArg) + 1
	}
	return f
}

// blank reports whether p is the zero PodState (Free), field by field
// without branches.
func blank(p *model.PodState) bool {
	return uint32(p.Phase)|uint32(p.Node)|uint32(p.Owner)|uint32(p.RS)|uint32(p.Template)|
		uint32(p.Pattern)|uint32(p.NominatedNode)|uint32(p.Ordinal)|uint32(p.Readiness)|uint32(p.Failure)|uint32(p.Restarts)|uint32(p.CPU)|uint32(p.Memory) == 0 && !p.WasRunning
}
