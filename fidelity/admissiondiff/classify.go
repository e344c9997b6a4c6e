package admissiondiff

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Class is a known cause of disagreement between the model and upstream.
// Applies says whether the cause is present in a case; Fix is the
// counterfactual that removes it on both sides without touching anything
// else the comparison reads.
type Class[C any] struct {
	Name    string
	Applies func(C) bool
	Fix     func(C) C
}

// Classify names the classes that explain why same(c) is false: the first
// single present class whose counterfactual makes same true, else all
// present classes together ("a+b"), else "" (unexplained).
func Classify[C any](classes []Class[C], c C, same func(C) bool) string {
	var present []Class[C]
	for _, k := range classes {
		if k.Applies(c) {
			present = append(present, k)
		}
	}
	for _, k := range present {
		if same(k.Fix(c)) {
			return k.Name
		}
	}
	if len(present) < 2 {
		return ""
	}
	d := c
	var names []string
	for _, k := range present {
		d = k.Fix(d)
		names = append(names, k.Name)
	}
	if same(d) {
		return strings.Join(names, "+")
	}
	return ""
}

// LimitClasses are the known divergences of the LimitRange comparison,
// written up in docs/divergences.md ("LimitRanger against the API server
// v1.36").
var LimitClasses = []Class[*LimitCase]{
	{
		// The model reads cpu in millicores and memory in MiB, rounding
		// every request and every bound up on its own; upstream compares
		// and sums the exact quantities (and rounds the sum).
		Name: "sub-unit quantity",
		Applies: func(c *LimitCase) bool {
			sub := false
			c.mapResources(func(name, q string) string {
				sub = sub || !isWhole(name, q)
				return q
			})
			return sub
		},
		Fix: func(c *LimitCase) *LimitCase { return c.mapResources(roundUp) },
	},
	{
		// LimitRange items of type Pod are warned about and not checked
		// by the model; upstream bounds the pod's summed requests and
		// limits by them.
		Name: "Pod item not checked",
		Applies: func(c *LimitCase) bool {
			for _, lr := range c.LimitRanges {
				for _, it := range lr {
					if it.Type == "Pod" {
						return true
					}
				}
			}
			return false
		},
		Fix: func(c *LimitCase) *LimitCase {
			d := c.clone()
			for i, lr := range d.LimitRanges {
				var keep []Item
				for _, it := range lr {
					if it.Type != "Pod" {
						keep = append(keep, it)
					}
				}
				d.LimitRanges[i] = keep
			}
			return d
		},
	},
}

// roundUp rounds a cpu quantity up to whole millicores and a memory one
// up to whole MiB.
func roundUp(name, q string) string {
	if name == "cpu" {
		return roundedUp(q, milliCore, "m")
	}
	return roundedUp(q, mebibyte, "Mi")
}

// isWhole reports whether q is a whole number of the model's unit for
// resource name.
func isWhole(name, q string) bool {
	v := resource.MustParse(q)
	if name == "cpu" {
		return v.MilliValue()*1_000_000 == v.ScaledValue(resource.Nano)
	}
	return v.Value()%(1<<20) == 0
}
