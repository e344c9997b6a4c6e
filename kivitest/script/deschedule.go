package script

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// deschedulePluginArgs reads descheduler-profile's deschedule extension
// point: deschedule=P1,P2 (RemovePodsViolatingNodeTaints,
// RemovePodsViolatingNodeAffinity, RemovePodsViolatingInterPodAntiAffinity,
// RemoveFailedPods, PodLifeTime, RemovePodsHavingTooManyRestarts; their
// args in deschedulelifetime.go),
// include-prefer-no-schedule=false, excluded-taints=k|k=v,…,
// included-taints=…, node-affinity-type=requiredDuringSchedulingIgnoredDuringExecution,…
func deschedulePluginArgs(c Command, p *model.DeschedulerProfile) error {
	d := &p.Deschedule
	for _, name := range list(c.Arg("deschedule", "")) {
		found := false
		for _, pl := range model.DeschedulePlugins() {
			if pl.String() == name {
				d.Enabled, found = append(d.Enabled, pl), true
			}
		}
		if !found {
			return fmt.Errorf("unknown deschedule plugin %q", name)
		}
	}
	switch v := c.Arg("include-prefer-no-schedule", "false"); v {
	case "true", "false":
		d.NodeTaints.IncludePreferNoSchedule = v == "true"
	default:
		return fmt.Errorf("include-prefer-no-schedule=%q is not true or false", v)
	}
	d.NodeTaints.ExcludedTaints = list(c.Arg("excluded-taints", ""))
	d.NodeTaints.IncludedTaints = list(c.Arg("included-taints", ""))
	for _, name := range list(c.Arg("node-affinity-type", "")) {
		found := false
		for _, t := range model.NodeAffinityTypes() {
			if t.String() == name {
				d.NodeAffinityType, found = append(d.NodeAffinityType, t), true
			}
		}
		if !found {
			return fmt.Errorf("unknown node-affinity-type %q", name)
		}
	}
	return lifetimeArgs(c, d)
}

// templateAffinityArgs reads template's required=k=v,… (one required
// node-affinity term matching all the labels) and
// anti-affinity=topologyKey:k=v,… (required pod anti-affinity terms, one
// per entry).
func templateAffinityArgs(c Command, tb *build.TemplateBuilder) error {
	ls, err := labels("required", c.Arg("required", ""))
	if err != nil {
		return err
	}
	if len(ls) > 0 {
		var kv []string
		for _, l := range ls {
			kv = append(kv, l[0], l[1])
		}
		tb.Required(kv...)
	}
	for _, f := range list(c.Arg("anti-affinity", "")) {
		key, sel, ok := strings.Cut(f, ":")
		k, v, ok2 := strings.Cut(sel, "=")
		if !ok || !ok2 || key == "" {
			return fmt.Errorf("anti-affinity: %q is not topologyKey:key=value", f)
		}
		tb.PodAntiAffinity(key, k, v)
	}
	return nil
}

func list(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}
