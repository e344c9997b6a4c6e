package script

import (
	"fmt"
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// lifetimeArgs reads descheduler-profile's RemoveFailedPods,
// PodLifeTime and RemovePodsHavingTooManyRestarts (restartsArgs) args: failed-reasons=R,…, failed-exit-codes=N,…,
// failed-exclude-owner-kinds=K,…, failed-min-age=S (default 0: no age
// filter), lifetime-max-age=S (default none), lifetime-states=S,…,
// lifetime-conditions=N, lifetime-exit-codes=N,…,
// lifetime-include-owner-kinds=K,…, lifetime-exclude-owner-kinds=K,….
func lifetimeArgs(c Command, d *model.DescheduleConfig) error {
	f := &d.FailedPods
	f.Reasons = list(c.Arg("failed-reasons", ""))
	f.ExcludeOwnerKinds = list(c.Arg("failed-exclude-owner-kinds", ""))
	var err error
	if f.ExitCodes, err = exitCodes(c, "failed-exit-codes"); err != nil {
		return err
	}
	age, err := strconv.ParseUint(c.Arg("failed-min-age", "0"), 10, 32)
	if err != nil {
		return fmt.Errorf("failed-min-age: %v", err)
	}
	f.MinPodLifetimeSeconds = uint(age)
	l := &d.PodLifeTime
	if v := c.Arg("lifetime-max-age", ""); v != "" {
		age, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return fmt.Errorf("lifetime-max-age: %v", err)
		}
		max := uint(age)
		l.MaxPodLifeTimeSeconds = &max
	}
	l.States = list(c.Arg("lifetime-states", ""))
	if l.Conditions, err = intArg(c, "lifetime-conditions", 0); err != nil {
		return err
	}
	if l.ExitCodes, err = exitCodes(c, "lifetime-exit-codes"); err != nil {
		return err
	}
	l.IncludeOwnerKinds = list(c.Arg("lifetime-include-owner-kinds", ""))
	l.ExcludeOwnerKinds = list(c.Arg("lifetime-exclude-owner-kinds", ""))
	return restartsArgs(c, d)
}

// restartsArgs reads descheduler-profile's RemovePodsHavingTooManyRestarts
// args: restarts-threshold=N (default 1), restarts-including-init=true|false,
// restarts-states=S,….
func restartsArgs(c Command, d *model.DescheduleConfig) error {
	r := &d.TooManyRestarts
	n, err := intArg(c, "restarts-threshold", 1)
	if err != nil {
		return err
	}
	r.PodRestartThreshold = int32(n)
	switch v := c.Arg("restarts-including-init", "false"); v {
	case "true", "false":
		r.IncludingInitContainers = v == "true"
	default:
		return fmt.Errorf("restarts-including-init=%q is not true or false", v)
	}
	r.States = list(c.Arg("restarts-states", ""))
	return nil
}

func exitCodes(c Command, key string) ([]int32, error) {
	var out []int32
	for _, v := range list(c.Arg(key, "")) {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		out = append(out, int32(n))
	}
	return out, nil
}
