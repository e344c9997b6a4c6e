package descheduler

import "github.com/kivi-go/kivi/model"

var _ model.Footprinter = (*Controller)(nil)

// DisabledBy: no descheduler (never enabled), the first busy core queue,
// or no request.
func (*Controller) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	if u.Descheduler == nil {
		return model.Footprint{}
	}
	if f, busy := model.ControllerQueuesDisabledBy(s); busy {
		return f
	}
	var f model.Footprint
	f.Add(model.CompDeschedulerPending)
	return f
}
