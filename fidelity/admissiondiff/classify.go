package admissiondiff

import (
	"github.com/kivi-go/kivi/fidelity/classify"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Class is a known cause of disagreement (classify.Class).
type Class[C any] = classify.Class[C]

// Classify names the classes that explain a disagreement
// (classify.Classify).
func Classify[C any](classes []Class[C], c C, same func(C) bool) string {
	return classify.Classify(classes, c, same)
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
