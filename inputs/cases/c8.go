package cases

import "github.com/kivi-go/kivi/model"

func c8Info() Info {
	return Info{ID: "c8", KiviID: "s9", Title: "descheduler against soft spreading and preferred affinity, an eviction loop", Expect: "no_oscillation_eviction",
		Scenario: []string{
			"Soft spreading by hostname and lifecycle plus a preference for on-demand over spot nodes:",
			"the scheduler violates a soft constraint, the descheduler enforces it, the scheduler repeats.",
		},
		NoViolation: "the descheduler only balances DoNotSchedule constraints (there are none)",
		generate:    c8}
}

// c8 is Kivi's case definitions "C8 (s9)" (descheduler issue #921): ⌈s/5⌉ on-demand and
// s−⌈s/5⌉ spot nodes, 2s pods created by a command, soft spreading by
// hostname and lifecycle, preferred affinity spot 4 / on-demand 5, and a
// descheduler balancing soft constraints too.
func c8(s int, noViolation bool) *model.Cluster {
	t1 := ceilDiv(s, 5)
	t2 := s - t1
	slots := 2 * s
	d := kiviDeploymentName(s, slots)
	c := &model.Cluster{PodSlots: slots}
	onDemand := node64("on-demand", 0, s)
	onDemand.Labels = map[string]string{"lifecycle": "on-demand"}
	spot := node64("spot", 0, s)
	spot.Labels = map[string]string{"lifecycle": "spot"}
	addNodes(c, onDemand, t1)
	addNodes(c, spot, t2)
	soft := func(key string) model.SpreadDecl {
		return model.SpreadDecl{MaxSkew: 1, TopologyKey: key, WhenUnsatisfiable: "ScheduleAnyway", LabelSelector: appSelector()}
	}
	lifecycle := func(v string) model.Selector {
		return model.Selector{MatchExpressions: []model.Requirement{{Key: "lifecycle", Operator: model.OpIn, Values: []string{v}}}}
	}
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: 8, Memory: 8,
		Spread:    []model.SpreadDecl{soft("hostname"), soft("lifecycle")},
		Preferred: []model.PreferredTerm{{Weight: 4, Term: lifecycle("spot")}, {Weight: 5, Term: lifecycle("on-demand")}}}}
	dep := deployment(d, 2*s, s, defaultPerNode)
	dep.Created = notCreated()
	c.Deployments = []model.DeploymentDecl{dep}
	profile := model.DeschedulerProfile{Name: "default",
		Balance:                []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint},
		Constraints:            model.AllConstraints,
		TopologyBalanceNodeFit: true}
	if noViolation {
		profile.Constraints = model.HardConstraints
	}
	c.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{profile}}
	c.Events = []model.EventDecl{createTarget(d)}
	c.Intents = []model.IntentDecl{{Name: "no_oscillation_eviction", Params: didOne()}}
	return c
}
