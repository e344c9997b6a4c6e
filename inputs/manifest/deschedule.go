package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// NodeTaintsArgs are RemovePodsViolatingNodeTaints' arguments the model
// reads.
type NodeTaintsArgs struct {
	IncludePreferNoSchedule bool     `json:"includePreferNoSchedule"`
	ExcludedTaints          []string `json:"excludedTaints"`
	IncludedTaints          []string `json:"includedTaints"`
	PodFilterArgs
}

// NodeAffinityArgs are RemovePodsViolatingNodeAffinity's arguments the
// model reads.
type NodeAffinityArgs struct {
	NodeAffinityType []string `json:"nodeAffinityType"`
	PodFilterArgs
}

// InterPodAntiAffinityArgs are RemovePodsViolatingInterPodAntiAffinity's
// arguments the model reads.
type InterPodAntiAffinityArgs struct {
	PodFilterArgs
}

// PodFilterArgs are the namespaces and labelSelector args with which a
// plugin filters the pods it lists (model.PodFilter).
type PodFilterArgs struct {
	Namespaces    *NamespacesArg `json:"namespaces"`
	LabelSelector *LabelSelector `json:"labelSelector"`
}

// decodeFilteredArgs decodes a plugin's args at path pp into v
// (decodeArgs) and reads their pod filter args pf, a field of v
// (podFilter).
func decodeFilteredArgs(o Object, pp string, raw []byte, v any, pf *PodFilterArgs, warns *[]Warning) (model.PodFilter, error) {
	if err := decodeArgs(o, pp, raw, v, warns); err != nil {
		return model.PodFilter{}, err
	}
	return podFilter(o, pp, *pf)
}

// podFilter reads a plugin's pod filter args at path, validated as the
// descheduler validates them (include and exclude namespaces together
// are refused; the selector must be a valid label selector).
func podFilter(o Object, path string, args PodFilterArgs) (model.PodFilter, error) {
	var f model.PodFilter
	a := o.at()
	if ns := args.Namespaces; ns != nil {
		if len(ns.Include) > 0 && len(ns.Exclude) > 0 {
			return f, a.errorf(o.path(path+".namespaces"), "only one of include and exclude namespaces can be set (accepted: include or exclude)")
		}
		f.IncludeNamespaces, f.ExcludeNamespaces = ns.Include, ns.Exclude
	}
	if args.LabelSelector != nil {
		sel, err := checkedSelector(o, path+".labelSelector", args.LabelSelector)
		if err != nil {
			return f, err
		}
		f.LabelSelector = &sel
	}
	return f, nil
}

// deschedulePlugins reads a profile's deschedule extension point into mp:
// the enabled plugins the model implements (a plugin also listed as
// disabled is left out), a warning naming the others, and the args of
// the modelled plugins from pluginConfig (deschedulelifetime.go for
// RemoveFailedPods, PodLifeTime and RemovePodsHavingTooManyRestarts). It checks the args as the
// descheduler validates them when it starts.
func deschedulePlugins(o Object, path string, pr *DeschedulerProfile, mp *model.DeschedulerProfile, warns *[]Warning) error {
	a := o.at()
	var ignored []string
	for _, name := range pr.Plugins.Deschedule.Enabled {
		i := slices.IndexFunc(model.DeschedulePlugins(), func(p model.DeschedulePlugin) bool { return p.String() == name })
		if i < 0 {
			ignored = append(ignored, name)
			continue
		}
		p := model.DeschedulePlugins()[i]
		if !slices.Contains(pr.Plugins.Deschedule.Disabled, name) && !mp.Deschedule.Has(p) {
			mp.Deschedule.Enabled = append(mp.Deschedule.Enabled, p)
		}
	}
	if len(ignored) > 0 {
		*warns = append(*warns, a.warning(o.path(path+".plugins.deschedule.enabled"),
			"ignored: deschedule plugins %s are not modelled (only %s)", strings.Join(ignored, ", "), pluginNames()))
	}
	var affinityArgs string // the path of RemovePodsViolatingNodeAffinity's args, when given
	failedArgs := false     // RemoveFailedPods has a pluginConfig entry
	restartsArgs := false   // RemovePodsHavingTooManyRestarts has a pluginConfig entry
	for j, pc := range pr.PluginConfig {
		pp := index(path+".pluginConfig", j) + ".args"
		switch pc.Name {
		case model.RemovePodsViolatingNodeTaints.String():
			var args NodeTaintsArgs
			if err := decodeArgs(o, pp, pc.Args, &args, warns); err != nil {
				return err
			}
			if len(args.ExcludedTaints) > 0 && len(args.IncludedTaints) > 0 {
				return a.errorf(o.path(pp), "includedTaints and excludedTaints are both set (accepted: one of them)")
			}
			mp.Deschedule.NodeTaints = model.NodeTaintsArgs{IncludePreferNoSchedule: args.IncludePreferNoSchedule,
				ExcludedTaints: args.ExcludedTaints, IncludedTaints: args.IncludedTaints}
			f, err := podFilter(o, pp, args.PodFilterArgs)
			if err != nil {
				return err
			}
			mp.Deschedule.NodeTaintsFilter = f
			if args.IncludedTaints != nil && len(args.IncludedTaints) == 0 && mp.Deschedule.Has(model.RemovePodsViolatingNodeTaints) {
				// Upstream tells an empty list from a missing one: no
				// taint is included, so the plugin never evicts.
				*warns = append(*warns, a.warning(o.path(pp+".includedTaints"), "ignored: RemovePodsViolatingNodeTaints: an empty includedTaints includes no taint, so the plugin evicts nothing"))
				mp.Deschedule.Enabled = slices.DeleteFunc(mp.Deschedule.Enabled, func(p model.DeschedulePlugin) bool {
					return p == model.RemovePodsViolatingNodeTaints
				})
			}
		case model.RemovePodsViolatingNodeAffinity.String():
			var args NodeAffinityArgs
			f, err := decodeFilteredArgs(o, pp, pc.Args, &args, &args.PodFilterArgs, warns)
			if err != nil {
				return err
			}
			affinityArgs = pp
			mp.Deschedule.NodeAffinityFilter = f
			mp.Deschedule.NodeAffinityType = nil
			for k, v := range args.NodeAffinityType {
				i := slices.IndexFunc(model.NodeAffinityTypes(), func(t model.NodeAffinityType) bool { return t.String() == v })
				if i < 0 {
					return a.errorf(o.path(index(pp+".nodeAffinityType", k)), "%q (accepted: %s)", v, affinityTypeNames())
				}
				mp.Deschedule.NodeAffinityType = append(mp.Deschedule.NodeAffinityType, model.NodeAffinityTypes()[i])
			}
		case model.RemovePodsViolatingInterPodAntiAffinity.String():
			var args InterPodAntiAffinityArgs
			f, err := decodeFilteredArgs(o, pp, pc.Args, &args, &args.PodFilterArgs, warns)
			if err != nil {
				return err
			}
			mp.Deschedule.InterPodAntiAffinityFilter = f
		case model.RemoveFailedPods.String():
			if err := failedPodsArgs(o, pp, pc.Args, mp, warns); err != nil {
				return err
			}
			failedArgs = true
		case model.PodLifeTime.String():
			if err := podLifeTimeArgs(o, pp, pc.Args, mp, warns); err != nil {
				return err
			}
		case model.RemovePodsHavingTooManyRestarts.String():
			if !mp.Deschedule.Has(model.RemovePodsHavingTooManyRestarts) {
				// Upstream builds and validates only enabled plugins.
				continue
			}
			if err := tooManyRestartsArgs(o, pp, pc.Args, mp, warns); err != nil {
				return err
			}
			restartsArgs = true
		}
	}
	if !restartsArgs && mp.Deschedule.Has(model.RemovePodsHavingTooManyRestarts) {
		return a.errorf(o.path(path+".pluginConfig"), "RemovePodsHavingTooManyRestarts needs args with podRestartThreshold (accepted: an integer of at least 1; its default 0 fails the descheduler's validation)")
	}
	if !failedArgs && mp.Deschedule.Has(model.RemoveFailedPods) {
		// No pluginConfig entry: upstream's defaults.
		mp.Deschedule.FailedPods.MinPodLifetimeSeconds = defaultMinPodLifetimeSeconds
	}
	if lt := &mp.Deschedule.PodLifeTime; mp.Deschedule.Has(model.PodLifeTime) && !lt.HasAgeLimit() && len(lt.States) == 0 && lt.Conditions == 0 && len(lt.ExitCodes) == 0 {
		return a.errorf(o.path(path+".pluginConfig"), "PodLifeTime needs args with a filtering criterion (accepted: at least one of maxPodLifeTimeSeconds, states, conditions, exitCodes)")
	}
	if mp.Deschedule.Has(model.RemovePodsViolatingNodeAffinity) && len(mp.Deschedule.NodeAffinityType) == 0 {
		field := path + ".pluginConfig"
		if affinityArgs != "" {
			field = affinityArgs + ".nodeAffinityType"
		}
		return a.errorf(o.path(field), "RemovePodsViolatingNodeAffinity needs nodeAffinityType (accepted: a list of %s)", affinityTypeNames())
	}
	return nil
}

// isDeschedulePlugin reports whether a pluginConfig entry is one
// deschedulePlugins reads.
func isDeschedulePlugin(name string) bool {
	return slices.ContainsFunc(model.DeschedulePlugins(), func(p model.DeschedulePlugin) bool { return p.String() == name })
}

func pluginNames() string { return joinStringers(model.DeschedulePlugins()) }

func affinityTypeNames() string { return joinStringers(model.NodeAffinityTypes()) }

func joinStringers[T fmt.Stringer](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, ", ")
}
