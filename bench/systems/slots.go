package systems

// Pod slot statuses, as in spread.pml and dedup.pml.
const (
	slotNone    byte = 0
	slotPending byte = 1
	slotBound   byte = 2
	slotRunning byte = 3
)

// slots locates the st[] and nd[] arrays of pod slots in a state.
type slots struct{ st, nd, n int }

// lowest is the LOWEST(s, j) macro: the lowest slot with status want (on
// node j when want is bound or running), or n when there is none.
func (p slots) lowest(s State, want byte, j int) int {
	k := 0
	for k < p.n && !(s[p.st+k] == want && (want < slotBound || int(s[p.nd+k]) == j)) {
		k++
	}
	return k
}

// highestRunning is the HIGHEST_RUNNING(j) macro; its guard ensures one
// exists.
func (p slots) highestRunning(s State, j int) int {
	k := p.n - 1
	for !(s[p.st+k] == slotRunning && int(s[p.nd+k]) == j) {
		k--
	}
	return k
}
