package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// balancePlugins are the balance plugins the model implements.
var balancePlugins = map[string]model.BalancePlugin{
	"RemoveDuplicates": model.RemoveDuplicates,
	"RemovePodsViolatingTopologySpreadConstraint": model.RemovePodsViolatingTopologySpreadConstraint,
	"LowNodeUtilization":                          model.LowNodeUtilization,
	"HighNodeUtilization":                         model.HighNodeUtilization,
}

// deschedulerDecl converts a DeschedulerPolicy with the descheduler's
// defaults (descheduler v0.36: constraints [DoNotSchedule],
// topologyBalanceNodeFit true; DefaultEvictor evictSystemCriticalPods and
// nodeFit false; no eviction limit, and a limit of 0 admits no eviction; LowNodeUtilization and
// HighNodeUtilization need their thresholds, nodeutilization.go).
func deschedulerDecl(o Object, classes *priorityClassTable, warns *[]Warning) (*model.Descheduler, error) {
	p := o.Value.(*DeschedulerPolicy)
	a := o.at()
	out := &model.Descheduler{}
	for _, lim := range []struct {
		v   *uint
		out *int
	}{{p.MaxNoOfPodsToEvictPerNode, &out.MaxPerNode}, {p.MaxNoOfPodsToEvictPerNamespace, &out.MaxPerNamespace}, {p.MaxNoOfPodsToEvictTotal, &out.MaxTotal}} {
		if lim.v != nil {
			*lim.out = int(min(*lim.v, 1<<20))
			out.EvictionLimitZero = out.EvictionLimitZero || *lim.v == 0
		}
	}
	if len(p.Profiles) == 0 {
		return nil, a.errorf(o.path("profiles"), "empty (accepted: at least one profile)")
	}
	for i, pr := range p.Profiles {
		path := index("profiles", i)
		mp := model.DeschedulerProfile{Name: pr.Name, Constraints: model.HardConstraints, TopologyBalanceNodeFit: true}
		for _, name := range pr.Plugins.Balance.Enabled {
			bp, ok := balancePlugins[name]
			if !ok {
				*warns = append(*warns, a.warning(o.path(path+".plugins.balance.enabled"), "ignored: balance plugin %s is not modelled (only %s)", name, balancePluginNames()))
				continue
			}
			if !slices.Contains(pr.Plugins.Balance.Disabled, name) && !slices.Contains(mp.Balance, bp) {
				mp.Balance = append(mp.Balance, bp)
			}
		}
		if err := deschedulePlugins(o, path, &pr, &mp, warns); err != nil {
			return nil, err
		}
		for j, pc := range pr.PluginConfig {
			pp := index(path+".pluginConfig", j) + ".args"
			var err error
			switch pc.Name {
			case "DefaultEvictor":
				var args DefaultEvictorArgs
				if err = decodeArgs(o, pp, pc.Args, &args, warns); err != nil {
					break
				}
				mp.NodeFit = args.NodeFit
				if err = podProtections(o, pp, args, &mp, warns); err != nil {
					break
				}
				if err = priorityThreshold(o, pp+".priorityThreshold", args, classes, &mp, warns); err != nil {
					break
				}
				err = evictorConstraints(o, pp, args, &mp, warns)
			case "RemovePodsViolatingTopologySpreadConstraint":
				var args TopologySpreadArgs
				if err = decodeArgs(o, pp, pc.Args, &args, warns); err != nil {
					break
				}
				if args.TopologyBalanceNodeFit != nil {
					mp.TopologyBalanceNodeFit = *args.TopologyBalanceNodeFit
				}
				if mp.TopologySpreadFilter, err = podFilter(o, pp, args.PodFilterArgs); err != nil {
					break
				}
				if args.Constraints != nil {
					hard := slices.Contains(args.Constraints, "DoNotSchedule")
					soft := slices.Contains(args.Constraints, "ScheduleAnyway")
					for k, c := range args.Constraints {
						if c != "DoNotSchedule" && c != "ScheduleAnyway" {
							return nil, a.errorf(o.path(index(pp+".constraints", k)), "%q (accepted: DoNotSchedule, ScheduleAnyway)", c)
						}
					}
					switch {
					case hard && soft:
						mp.Constraints = model.AllConstraints
					case soft:
						mp.Constraints = model.SoftConstraints
					}
				}
			case "RemoveDuplicates":
				var args RemoveDuplicatesArgs
				if err = decodeArgs(o, pp, pc.Args, &args, warns); err != nil {
					break
				}
				mp.RemoveDuplicatesFilter, err = podFilter(o, pp, PodFilterArgs{Namespaces: args.Namespaces})
				mp.RemoveDuplicatesExcludeOwnerKinds = args.ExcludeOwnerKinds
				for k, kind := range args.ExcludeOwnerKinds {
					if !slices.Contains(model.OwnerKinds, kind) {
						*warns = append(*warns, o.at().warning(o.path(index(pp+".excludeOwnerKinds", k)), "%q owns no pod of the model (its pods' owners are %s; kinds are compared as written, case included)", kind, strings.Join(model.OwnerKinds, ", ")))
					}
				}
			case "LowNodeUtilization":
				mp.LowNodeUtilization, err = lowNodeUtilizationDecl(o, pp, pc.Args, warns)
			case "HighNodeUtilization":
				mp.HighNodeUtilization, err = highNodeUtilizationDecl(o, pp, pc.Args, warns)
			default:
				if isDeschedulePlugin(pc.Name) {
					break // deschedulePlugins read it
				}
				*warns = append(*warns, a.warning(o.path(index(path+".pluginConfig", j)), "ignored: plugin %s is not modelled", pc.Name))
			}
			if err != nil {
				return nil, err
			}
		}
		if err := requireNodeUtilizationArgs(o, path, &mp); err != nil {
			return nil, err
		}
		out.Profiles = append(out.Profiles, mp)
	}
	return out, nil
}

// decodeArgs decodes plugin args strictly; fields the model does not
// read (namespaces, label selectors, priority thresholds, ...) restrict
// what the plugin evicts, so they are warned about.
func decodeArgs(o Object, path string, raw []byte, v any, warns *[]Warning) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	unknown, err := strictDecode(o.at(), o.path(path), raw, v)
	if err != nil {
		return err
	}
	for _, u := range unknown {
		*warns = append(*warns, o.at().warning(o.path(join(path, u)), "ignored: %s", fmt.Sprintf("this %s argument is not modelled", "plugin")))
	}
	return nil
}
