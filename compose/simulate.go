package compose

import (
	"math/rand/v2"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
	"github.com/kivi-go/kivi/tracenames"
)

// Simulation is one random run of a problem.
type Simulation struct {
	Steps []report.TraceStep
	// Stopped says why the run ended: "failed: <property>", "deadlock",
	// or "step bound".
	Stopped string
	Final   *model.State
}

// Simulate walks one random path from the initial state: at every state it
// picks a successor uniformly with a generator seeded by seed, for at most
// maxSteps steps, and stops early at a violated invariant or a state
// without successors. The same seed gives the same run.
func (p *Problem) Simulate(seed uint64, maxSteps int) *Simulation {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	sys := p.System
	var cur *model.State
	sys.Initial(func(s *model.State) { cur = s.Clone() })
	sim := &Simulation{}
	nm := tracenames.New(sys.U)
	nm.Start(cur)
	for step := 0; ; step++ {
		for _, inv := range p.Properties.Invariants {
			if !inv.Holds(cur) {
				sim.Stopped = "failed: " + inv.Name
				sim.Final = cur
				return sim
			}
		}
		if step >= maxSteps {
			sim.Stopped = "step bound"
			sim.Final = cur
			return sim
		}
		var steps []checker.Step
		sys.Next(cur, func(st checker.Step, _ *model.State) { steps = append(steps, st) })
		if len(steps) == 0 {
			sim.Stopped = "deadlock"
			for _, ec := range p.Properties.EndConditions {
				if !ec.Holds(cur) {
					sim.Stopped = "failed: " + ec.Name
					break
				}
			}
			sim.Final = cur
			return sim
		}
		pick := steps[rng.IntN(len(steps))]
		next, lines, err := sys.Replay(cur, pick)
		if err != nil {
			sim.Stopped = "internal error: " + err.Error()
			sim.Final = cur
			return sim
		}
		actor := sys.ActorName(pick)
		sim.Steps = append(sim.Steps, report.TraceStep{Actor: actor, Lines: nm.Step(next, actor != deploymentActor, lines)})
		cur = next
	}
}
