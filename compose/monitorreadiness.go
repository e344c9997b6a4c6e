package compose

import (
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// monitorReadiness is the readiness the observers read
// (intents.ReadinessReader), for the partial-order reduction's monitor
// footprint; known is false when some observer does not say.
func monitorReadiness(obs []Observer) (f model.Footprint, known bool) {
	for _, o := range obs {
		w, ok := o.(*watchObserver)
		if !ok {
			return model.Footprint{}, false
		}
		rr, ok := w.in.Watch.(intents.ReadinessReader)
		if !ok {
			return model.Footprint{}, false
		}
		for _, d := range rr.ReadsReadinessOf() {
			f.AddReadiness(d + 1)
		}
	}
	return f, true
}
