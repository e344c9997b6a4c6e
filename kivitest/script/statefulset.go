package script

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// statefulset name=S template=T [replicas=1]
// [pod-management=OrderedReady|Parallel] [strategy=RollingUpdate|OnDelete]
// [partition=0] [max-unavailable=N|N%] [ordinals-start=0]
// [hpa=min:max:targetCPUPercent] [inactive]: a StatefulSet (and its
// config, named S). max-unavailable given is the MaxUnavailableStatefulSet
// feature gate's path.
func (e *Env) statefulSet(c Command) (string, error) {
	return e.workload(c, e.b.AddStatefulSet, func(cfg *model.DeploymentConfig, t int) (err error) {
		*cfg, err = statefulSetConfig(c, t)
		return err
	})
}

// statefulSetConfig is the StatefulSet configuration of template t that
// c's pod-management, strategy, partition, max-unavailable and
// ordinals-start arguments give.
func statefulSetConfig(c Command, t int) (model.DeploymentConfig, error) {
	var err error
	cfg := model.DeploymentConfig{PodTemplate: t, MaxUnavailable: model.IntOrPercent{Value: 1}}
	switch p := c.Arg("pod-management", "OrderedReady"); p {
	case "OrderedReady":
	case "Parallel":
		cfg.StatefulSet.PodManagement = model.Parallel
	default:
		return cfg, fmt.Errorf("unknown pod-management %q (OrderedReady, Parallel)", p)
	}
	switch st := c.Arg("strategy", "RollingUpdate"); st {
	case "RollingUpdate":
	case "OnDelete":
		cfg.Strategy = model.OnDelete
	default:
		return cfg, fmt.Errorf("unknown strategy %q (RollingUpdate, OnDelete)", st)
	}
	if cfg.StatefulSet.Partition, err = intArg(c, "partition", 0); err != nil {
		return cfg, err
	}
	if cfg.StatefulSet.OrdinalsStart, err = intArg(c, "ordinals-start", 0); err != nil {
		return cfg, err
	}
	if v := c.Arg("max-unavailable", ""); v != "" {
		p, percent := strings.CutSuffix(v, "%")
		n, err := ints("max-unavailable", p)
		if err != nil {
			return cfg, err
		}
		cfg.MaxUnavailable = model.IntOrPercent{Value: n[0], Percent: percent}
		cfg.StatefulSet.MaxUnavailableSet = true
	}
	return cfg, nil
}
