package events

import (
	"github.com/kivi-go/kivi/model"
)

// successor is one outcome of a step: the choices that led to it, its
// trace lines and the resulting state.
type successor struct {
	choices []int
	lines   []model.Line
	state   *model.State
}

// successors runs p.Step from s once per combination of its choices,
// exactly as the System does (docs/model.md): Begin(nil), run, Advance,
// Restart, ... until Advance reports that every combination was produced.
func successors(u *model.Universe, s *model.State, p model.Process) []successor {
	var out []successor
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	for {
		next := s.Clone()
		p.Step(tx, next)
		out = append(out, successor{
			choices: append([]int(nil), tx.Choices()...),
			lines:   append([]model.Line(nil), tx.Lines...),
			state:   next,
		})
		if !tx.Advance() {
			return out
		}
		tx.Restart(true)
	}
}
