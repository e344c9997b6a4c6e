package events

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestMaintenancePastNode255: in a cluster of more nodes than a byte
// numbers, the maintenance driver's next-node index goes past 255
// (model.MaintenanceIndexWidth), so it starts every node once and the
// maintenance finishes only when every node is back.
func TestMaintenancePastNode255(t *testing.T) {
	const nodes = 300
	b := build.New()
	b.AddNodes(nodes, build.Node())
	b.AddTemplate(build.Template("app").Requests(1, 1))
	b.AddEvent(model.Event{Kind: model.Maintenance, Parallel: nodes})
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = InitialPhase(u)
	m := Maintenance{event: 0}
	m.driverStep(u, s)
	mem, w := vars(u, s, 0), u.MaintenanceIndexWidth()
	if next := model.MaintenanceNext(mem, w); next != nodes {
		t.Fatalf("after the driver's step the next node is %d, want %d", next, nodes)
	}
	for n, pc := range mem[w:] {
		if pc != maintStarted {
			t.Fatalf("node %d: program counter %d, want started (%d)", n, pc, maintStarted)
		}
	}
	if m.driverEnabled(u, s) || finished(u, s, 0) {
		t.Fatal("the driver may start a node again, or the maintenance has finished with every node still up")
	}
	for n := range nodes {
		mem[w+n] = maintDone
	}
	if !finished(u, s, 0) {
		t.Fatal("every node is back from maintenance, but the maintenance has not finished")
	}
}
