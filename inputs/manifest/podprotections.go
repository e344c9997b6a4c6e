package manifest

import (
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// The DefaultEvictor's protections by name (descheduler v0.36,
// defaultevictor/types.go): the default ones, which defaultDisabled
// lifts, and the extra ones, which extraEnabled adds.
var (
	defaultPodProtections = []string{"PodsWithLocalStorage", "SystemCriticalPods", "FailedBarePods", "DaemonSetPods"}
	extraPodProtections   = []string{"PodsWithPVC", "PodsWithoutPDB", "PodsWithResourceClaims"}
)

// podProtections sets a profile's protections from the DefaultEvictor's
// arguments as the descheduler does (getEffectivePodProtections): when
// podProtections names any protection, it alone decides and the legacy
// booleans are refused beside it (the descheduler does not start);
// otherwise the legacy booleans decide. The descheduler's Helm chart
// writes podProtections by default.
func podProtections(o Object, path string, args DefaultEvictorArgs, mp *model.DeschedulerProfile, warns *[]Warning) error {
	pp := path + ".podProtections"
	pr := args.PodProtections
	legacy := map[string]bool{
		"evictLocalStoragePods": args.EvictLocalStoragePods, "evictDaemonSetPods": args.EvictDaemonSetPods,
		"evictSystemCriticalPods": args.EvictSystemCriticalPods, "evictFailedBarePods": args.EvictFailedBarePods,
		"ignorePvcPods": args.IgnorePvcPods, "ignorePodsWithoutPDB": args.IgnorePodsWithoutPDB,
	}
	if len(pr.DefaultDisabled) == 0 && len(pr.ExtraEnabled) == 0 {
		mp.EvictLocalStoragePods, mp.EvictSystemCriticalPods, mp.EvictFailedBarePods = args.EvictLocalStoragePods, args.EvictSystemCriticalPods, args.EvictFailedBarePods
		mp.IgnorePvcPods, mp.Evictor.PodsWithoutPDB = args.IgnorePvcPods, args.IgnorePodsWithoutPDB
		warnDaemonSetProtection(o, path, args.EvictDaemonSetPods, "evictDaemonSetPods", warns)
		return nil
	}
	var set []string
	for name, on := range legacy {
		if on {
			set = append(set, name)
		}
	}
	if len(set) > 0 {
		slices.Sort(set)
		return o.at().errorf(o.path(path), "%s set beside podProtections: the descheduler refuses the deprecated booleans next to podProtections' extraEnabled or defaultDisabled (accepted: one of the two spellings)", strings.Join(set, ", "))
	}
	for _, l := range []struct {
		field     string
		names     []string
		supported []string
	}{{"defaultDisabled", pr.DefaultDisabled, defaultPodProtections}, {"extraEnabled", pr.ExtraEnabled, extraPodProtections}} {
		for i, n := range l.names {
			if !slices.Contains(l.supported, n) {
				return o.at().errorf(o.path(index(pp+"."+l.field, i)), "%q (accepted: %s)", n, strings.Join(l.supported, ", "))
			}
			if slices.Index(l.names, n) < i {
				return o.at().errorf(o.path(index(pp+"."+l.field, i)), "%s listed twice (accepted: each protection once)", n)
			}
		}
	}
	disabled := func(n string) bool { return slices.Contains(pr.DefaultDisabled, n) }
	enabled := func(n string) bool { return slices.Contains(pr.ExtraEnabled, n) }
	mp.EvictLocalStoragePods, mp.EvictSystemCriticalPods, mp.EvictFailedBarePods = disabled("PodsWithLocalStorage"), disabled("SystemCriticalPods"), disabled("FailedBarePods")
	mp.IgnorePvcPods, mp.Evictor.PodsWithoutPDB = enabled("PodsWithPVC"), enabled("PodsWithoutPDB")
	warnDaemonSetProtection(o, pp, disabled("DaemonSetPods"), "defaultDisabled DaemonSetPods", warns)
	if pr.Config != nil && pr.Config.PodsWithPVC != nil && len(pr.Config.PodsWithPVC.ProtectedStorageClasses) > 0 {
		*warns = append(*warns, o.at().warning(o.path(pp+".config.PodsWithPVC.protectedStorageClasses"), "not modelled: the model has no storage classes, so every pod with a PersistentVolumeClaim is protected"))
	}
	return nil
}

// warnDaemonSetProtection warns about lifting the DaemonSetPods
// protection, which the model has nothing to apply to: a DaemonSet's pods
// are room reserved on their nodes, never evicted.
func warnDaemonSetProtection(o Object, path string, daemonSets bool, daemonSetsField string, warns *[]Warning) {
	if daemonSets {
		*warns = append(*warns, o.at().warning(o.path(path), "%s: not modelled: a DaemonSet's pods are room reserved on their nodes, never evicted", daemonSetsField))
	}
}
