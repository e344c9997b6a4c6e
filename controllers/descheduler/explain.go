package descheduler

import (
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Explain describes what one descheduling cycle would decide from s,
// whether or not the descheduler is enabled there: per profile and
// plugin, the duplicates per owner and node, and per topology constraint
// its domains with their pods, whether it is balanced, and the moves. It
// ends with the trace lines the cycle prints. s is not modified.
func Explain(u *model.Universe, s *model.State) string {
	var b strings.Builder
	if u.Descheduler == nil {
		return "no descheduler policy\n"
	}
	if !s.DeschedulerPending || !s.ControllerQueuesEmpty() {
		b.WriteString("not enabled in this state (no pending request or controllers busy); one cycle would do:\n")
	}
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	c := newCycle(u, s.Clone(), tx, &b)
	c.run()
	if len(tx.Lines) > 0 {
		b.WriteString("trace:\n")
		for _, l := range tx.Lines {
			b.WriteString("  " + l.String() + "\n")
		}
	}
	return b.String()
}
