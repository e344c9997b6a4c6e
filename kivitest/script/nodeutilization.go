package script

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// nodeUtilizationArgs reads descheduler-profile's arguments of the
// node-utilisation plugins: low-thresholds=cpu:20,memory:20,pods:20
// low-targets=… [low-deviation=false] [low-number-of-nodes=0]
// [low-node-limit=N] for LowNodeUtilization, high-thresholds=…
// [high-number-of-nodes=0] [high-only-thresholding=false] for
// HighNodeUtilization. The arguments are kept as given: Build validates
// them.
func nodeUtilizationArgs(c Command, p *model.DeschedulerProfile) error {
	if c.Arg("low-thresholds", "") != "" || c.Arg("low-targets", "") != "" {
		a := &model.LowNodeUtilizationArgs{}
		var err error
		if a.Thresholds, err = thresholds("low-thresholds", c.Arg("low-thresholds", "")); err != nil {
			return err
		}
		if a.TargetThresholds, err = thresholds("low-targets", c.Arg("low-targets", "")); err != nil {
			return err
		}
		if a.UseDeviationThresholds, err = boolArg(c, "low-deviation"); err != nil {
			return err
		}
		if a.NumberOfNodes, err = intArg(c, "low-number-of-nodes", 0); err != nil {
			return err
		}
		if c.Arg("low-node-limit", "") != "" {
			n, err := intArg(c, "low-node-limit", 0)
			if err != nil {
				return err
			}
			a.EvictionLimitNode = &n
		}
		p.LowNodeUtilization = a
	}
	if c.Arg("high-thresholds", "") != "" {
		a := &model.HighNodeUtilizationArgs{}
		var err error
		if a.Thresholds, err = thresholds("high-thresholds", c.Arg("high-thresholds", "")); err != nil {
			return err
		}
		if a.NumberOfNodes, err = intArg(c, "high-number-of-nodes", 0); err != nil {
			return err
		}
		if a.OnlyThresholdingResources, err = boolArg(c, "high-only-thresholding"); err != nil {
			return err
		}
		p.HighNodeUtilization = a
	}
	return nil
}

func boolArg(c Command, key string) (bool, error) {
	switch v := c.Arg(key, "false"); v {
	case "true", "false":
		return v == "true", nil
	default:
		return false, fmt.Errorf("%s=%q is not true or false", key, v)
	}
}

// thresholds parses resource:percent,…
func thresholds(key, v string) (model.ResourceThresholds, error) {
	var t model.ResourceThresholds
	if v == "" {
		return t, nil
	}
	for _, f := range strings.Split(v, ",") {
		name, pct, ok := strings.Cut(f, ":")
		x, err := strconv.ParseFloat(pct, 64)
		if !ok || err != nil {
			return t, fmt.Errorf("%s: %q is not resource:percent", key, f)
		}
		switch name {
		case "cpu":
			t.Set(model.ResourceCPU, x)
		case "memory":
			t.Set(model.ResourceMemory, x)
		case "pods":
			t.Set(model.ResourcePods, x)
		default:
			return t, fmt.Errorf("%s: unknown resource %q (cpu, memory, pods)", key, name)
		}
	}
	return t, nil
}
