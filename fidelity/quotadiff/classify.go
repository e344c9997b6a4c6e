package quotadiff

import (
	"slices"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// Class is a known cause of disagreement (classify.Class).
type Class = classify.Class[*Case]

// Same reports whether the model's refusal is one of upstream's.
func Same(m string, u Upstream) bool { return slices.Contains(u.Refusals, m) }

// subUnit maps the generator's quantities that are not whole model
// units (millicores, MiB) to the model's reading of them: requests and
// limits rounded up.
var subUnit = map[string]string{"250500u": "251m", "100M": "96Mi"}

// Classes are the known divergences, written up in docs/divergences.md
// ("ResourceQuota admission against the API server v1.36").
var Classes = []Class{
	{
		// A deleted pod is charged until its deletion grace period has
		// passed (QuotaV1Pod); the model, which has no clock, takes it as
		// passed at once (docs/divergences.md, "ResourceQuotas").
		Name: "terminating pod within its grace period",
		Applies: func(c *Case) bool {
			return slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.Deleted && p.WithinGrace })
		},
		Fix: func(c *Case) *Case {
			d := c.clone()
			for i := range d.Pods {
				d.Pods[i].WithinGrace = false
			}
			return d
		},
	},
	{
		// The model frees a Succeeded pod's slot at once (the Job
		// model); upstream keeps the object, which count/pods charges.
		Name: "Succeeded pod object gone",
		Applies: func(c *Case) bool {
			return slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.Phase == Succeeded }) &&
				slices.ContainsFunc(c.Quotas, func(q Quota) bool { _, ok := q.Hard["count/pods"]; return ok })
		},
		Fix: func(c *Case) *Case {
			d := c.clone()
			d.Pods = slices.DeleteFunc(d.Pods, func(p Pod) bool { return p.Phase == Succeeded })
			return d
		},
	},
	{
		// The model reads cpu in millicores and memory in MiB, each
		// request and limit rounded up; upstream sums the exact
		// quantities.
		Name: "sub-unit quantity",
		Applies: func(c *Case) bool {
			sub := false
			c.mapContainers(func(q string) string {
				_, ok := subUnit[q]
				sub = sub || ok
				return q
			})
			return sub
		},
		Fix: func(c *Case) *Case {
			return c.mapContainers(func(q string) string {
				if r, ok := subUnit[q]; ok {
					return r
				}
				return q
			})
		},
	},
}

// mapContainers applies f to every request and limit of the case's
// containers.
func (c *Case) mapContainers(f func(q string) string) *Case {
	d := c.clone()
	for _, s := range d.Specs {
		for _, x := range slices.Concat(s.Containers, s.InitContainers) {
			for _, r := range []Resources{x.Requests, x.Limits} {
				for k, q := range r {
					r[k] = f(q)
				}
			}
		}
	}
	return d
}
