package manifest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/kivi-go/kivi/model"
)

// LowNodeUtilizationArgs are LowNodeUtilization's arguments
// (descheduler v0.36 nodeutilization.LowNodeUtilizationArgs).
type LowNodeUtilizationArgs struct {
	UseDeviationThresholds bool                `json:"useDeviationThresholds"`
	Thresholds             map[string]float64  `json:"thresholds"`
	TargetThresholds       map[string]float64  `json:"targetThresholds"`
	NumberOfNodes          int                 `json:"numberOfNodes"`
	MetricsUtilization     *MetricsUtilization `json:"metricsUtilization"`
	EvictableNamespaces    *NamespacesArg      `json:"evictableNamespaces"`
	EvictionLimits         *struct {
		Node *uint `json:"node"`
	} `json:"evictionLimits"`
}

// HighNodeUtilizationArgs are HighNodeUtilization's arguments.
type HighNodeUtilizationArgs struct {
	Thresholds          map[string]float64 `json:"thresholds"`
	NumberOfNodes       int                `json:"numberOfNodes"`
	EvictionModes       []string           `json:"evictionModes"`
	EvictableNamespaces *NamespacesArg     `json:"evictableNamespaces"`
}

// MetricsUtilization is LowNodeUtilization's metricsUtilization: actual
// usage from the metrics server or Prometheus instead of requests.
type MetricsUtilization struct {
	MetricsServer bool   `json:"metricsServer"`
	Source        string `json:"source"`
	Prometheus    *struct {
		Query string `json:"query"`
	} `json:"prometheus"`
}

// NamespacesArg is the plugins' evictableNamespaces.
type NamespacesArg struct {
	Include []string `json:"include"`
	Exclude []string `json:"exclude"`
}

// resourceNames are the resources a threshold may name in the model.
var resourceNames = map[string]model.Resource{"cpu": model.ResourceCPU, "memory": model.ResourceMemory, "pods": model.ResourcePods}

// thresholdsDecl converts a thresholds map; path is its field path.
func thresholdsDecl(o Object, path string, m map[string]float64) (model.ResourceThresholds, error) {
	var t model.ResourceThresholds
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		r, ok := resourceNames[k]
		if !ok {
			return t, o.at().errorf(o.path(path+"."+k), "resource %q is not modelled (accepted: cpu, memory, pods; extended resources and Prometheus' MetricResource are not modelled)", k)
		}
		t.Set(r, m[k])
	}
	return t, nil
}

// argError places a model.ArgError under the plugin's args path.
func argError(o Object, path string, err *model.ArgError) error {
	return o.at().errorf(o.path(path+"."+err.Field), "%s", err.Msg)
}

// excludeOnly is both plugins' evictableNamespaces check: include is
// rejected as upstream does; it returns the excluded namespaces.
func excludeOnly(o Object, path string, ns *NamespacesArg) ([]string, error) {
	if ns == nil {
		return nil, nil
	}
	if len(ns.Include) > 0 {
		return nil, o.at().errorf(o.path(path+".evictableNamespaces.include"), "only exclude namespaces can be set, inclusion is not supported (accepted: exclude)")
	}
	return ns.Exclude, nil
}

// lowNodeUtilizationDecl reads LowNodeUtilization's args and validates
// them as ValidateLowNodeUtilizationArgs does.
func lowNodeUtilizationDecl(o Object, path string, raw json.RawMessage, warns *[]Warning) (*model.LowNodeUtilizationArgs, error) {
	var args LowNodeUtilizationArgs
	if err := decodeArgs(o, path, raw, &args, warns); err != nil {
		return nil, err
	}
	excluded, err := excludeOnly(o, path, args.EvictableNamespaces)
	if err != nil {
		return nil, err
	}
	if m := args.MetricsUtilization; m != nil {
		mp := path + ".metricsUtilization"
		switch {
		case m.Source == "KubernetesMetrics" && m.MetricsServer:
			return nil, o.at().errorf(o.path(mp), "it is not allowed to set both %q source and metricsServer (accepted: one of them)", "KubernetesMetrics")
		case m.Source == "KubernetesMetrics" && m.Prometheus != nil:
			return nil, o.at().errorf(o.path(mp+".prometheus"), "prometheus configuration is not allowed when source is %q", "KubernetesMetrics")
		case m.Source == "Prometheus":
			return nil, o.at().errorf(o.path(mp+".source"), "Prometheus metrics are not modelled (accepted: KubernetesMetrics, or no metricsUtilization: requests)")
		case m.Source != "" && m.Source != "KubernetesMetrics":
			return nil, o.at().errorf(o.path(mp+".source"), "%q (accepted: KubernetesMetrics, Prometheus)", m.Source)
		}
		if m.MetricsServer || m.Source != "" {
			*warns = append(*warns, o.at().warning(o.path(mp), "ignored: actual usage from metrics is not modelled; utilisation is computed from the pods' requests against allocatable, the descheduler's default"))
		}
	}
	out := &model.LowNodeUtilizationArgs{UseDeviationThresholds: args.UseDeviationThresholds,
		// A negative numberOfNodes acts like 0 upstream (no check rejects it).
		NumberOfNodes: min(max(args.NumberOfNodes, 0), model.MaxNumberOfNodes), ExcludedNamespaces: excluded}
	if out.Thresholds, err = thresholdsDecl(o, path+".thresholds", args.Thresholds); err != nil {
		return nil, err
	}
	if out.TargetThresholds, err = thresholdsDecl(o, path+".targetThresholds", args.TargetThresholds); err != nil {
		return nil, err
	}
	if args.EvictionLimits != nil && args.EvictionLimits.Node != nil {
		n := int(min(*args.EvictionLimits.Node, model.MaxNumberOfNodes))
		out.EvictionLimitNode = &n
	}
	if e := out.Validate(); e != nil {
		return nil, argError(o, path, e)
	}
	return out, nil
}

// highNodeUtilizationDecl reads HighNodeUtilization's args and validates
// them as ValidateHighNodeUtilizationArgs does.
func highNodeUtilizationDecl(o Object, path string, raw json.RawMessage, warns *[]Warning) (*model.HighNodeUtilizationArgs, error) {
	var args HighNodeUtilizationArgs
	if err := decodeArgs(o, path, raw, &args, warns); err != nil {
		return nil, err
	}
	excluded, err := excludeOnly(o, path, args.EvictableNamespaces)
	if err != nil {
		return nil, err
	}
	out := &model.HighNodeUtilizationArgs{NumberOfNodes: min(max(args.NumberOfNodes, 0), model.MaxNumberOfNodes), ExcludedNamespaces: excluded}
	if out.Thresholds, err = thresholdsDecl(o, path+".thresholds", args.Thresholds); err != nil {
		return nil, err
	}
	if e := out.Validate(); e != nil {
		return nil, argError(o, path, e)
	}
	for k, m := range args.EvictionModes {
		if m != "OnlyThresholdingResources" {
			return nil, o.at().errorf(o.path(index(path+".evictionModes", k)), "invalid eviction mode %q (accepted: OnlyThresholdingResources)", m)
		}
		out.OnlyThresholdingResources = true
	}
	return out, nil
}

// requireNodeUtilizationArgs rejects an enabled node-utilisation plugin
// without args: upstream's defaults have no thresholds, which its
// validation rejects.
func requireNodeUtilizationArgs(o Object, path string, mp *model.DeschedulerProfile) error {
	for _, b := range mp.Balance {
		missing := b == model.LowNodeUtilization && mp.LowNodeUtilization == nil ||
			b == model.HighNodeUtilization && mp.HighNodeUtilization == nil
		if missing {
			accepted := "thresholds and targetThresholds"
			if b == model.HighNodeUtilization {
				accepted = "thresholds"
			}
			return o.at().errorf(o.path(path+".pluginConfig"), "%s is enabled without args: no resource threshold is configured (accepted: a pluginConfig entry named %s with %s)", b, b, accepted)
		}
	}
	return nil
}

// balancePluginNames lists the modelled balance plugins for messages.
func balancePluginNames() string {
	names := make([]string, 0, len(balancePlugins))
	for n := range balancePlugins {
		names = append(names, n)
	}
	slices.Sort(names)
	return fmt.Sprint(names)
}
