package manifest

import (
	"math"
	"time"

	"github.com/kivi-go/kivi/model"
)

// The descheduler's annotations of a pod (descheduler v0.36): the
// DefaultEvictor admits a pod carrying the first whatever else holds, and
// under noEvictionPolicy Mandatory refuses one carrying the second. Only
// their presence counts.
const (
	deschedulerEvictAnnotation = "descheduler.alpha.kubernetes.io/evict"
	preferNoEvictionAnnotation = "descheduler.alpha.kubernetes.io/prefer-no-eviction"
)

// evictorConstraints reads the DefaultEvictor's arguments that narrow the
// pods it lets the plugins evict (model.EvictorConstraints) as the
// descheduler v0.36 reads them: labelSelector and namespaceLabelSelector
// are label selectors (their values checked as the API server checks
// labels), minReplicas a non-negative integer (1 checks nothing, as
// upstream logs), minPodAge a Go duration ("10m"), noEvictionPolicy
// Preferred or Mandatory.
func evictorConstraints(o Object, path string, args DefaultEvictorArgs, mp *model.DeschedulerProfile, warns *[]Warning) error {
	a := o.at()
	e := &mp.Evictor
	for _, f := range []struct {
		field string
		in    *LabelSelector
		out   **model.Selector
	}{{"labelSelector", args.LabelSelector, &e.LabelSelector}, {"namespaceLabelSelector", args.NamespaceLabelSelector, &e.NamespaceLabelSelector}} {
		if f.in == nil {
			continue
		}
		sel, err := checkedSelector(o, path+"."+f.field, f.in)
		if err != nil {
			return err
		}
		if !sel.Empty() {
			*f.out = &sel
		}
	}
	if v := args.MinReplicas; v != nil {
		if *v < 0 || *v > math.MaxInt32 {
			return a.errorf(o.path(path+".minReplicas"), "%d (accepted: a non-negative integer)", *v)
		}
		if *v > 1 {
			e.MinReplicas = int(*v)
		}
	}
	if v := args.MinPodAge; v != nil {
		if _, err := time.ParseDuration(*v); err != nil {
			return a.errorf(o.path(path+".minPodAge"), "%q (accepted: a duration such as 90s, 10m or 1h30m)", *v)
		}
		e.MinPodAge = *v
	}
	switch args.NoEvictionPolicy {
	case "", "Preferred", "Mandatory":
		e.NoEvictionPolicy = args.NoEvictionPolicy
	default:
		return a.errorf(o.path(path+".noEvictionPolicy"), "%q (accepted: Preferred, Mandatory)", args.NoEvictionPolicy)
	}
	if e.MinPodAge != "" {
		*warns = append(*warns, a.warning(o.path(path+".minPodAge"), "the model has no clock: a pod the kubelet has not started yet is protected (it has no status.startTime), and a started pod is taken as old enough, as it is in every descheduling cycle after minPodAge"))
	}
	return nil
}
