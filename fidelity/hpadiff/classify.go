package hpadiff

import (
	"slices"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// Class is a known cause of disagreement between the model and upstream.
// Applies says whether the cause is present in a case; Fix is the
// counterfactual that removes it on both sides without touching anything
// else the calculation reads.
type Class = classify.Class[*Case]

// Classes are the known divergences, written up in docs/divergences.md
// ("HPA replica calculation against kube-controller-manager v1.36").
var Classes = []Class{
	{
		// The model's metrics server has a sample for every Running pod
		// (controllers/hpa/pods.go: no pod is missing). Upstream assumes a
		// missing pod at its request (or the target above 100 %) on a
		// scale-down and at 0 on a scale-up, and does not take the
		// no-recomputation shortcut.
		Name:    "missing-sample",
		Applies: func(c *Case) bool { return c.has(NoSample) },
		Fix:     func(c *Case) *Case { return c.with(kindTo(NoSample, Ready)) },
	},
	{
		// Upstream's calculateRequests reads the request of every listed
		// pod, terminating ones included, and fails the metric when one
		// has none; the model drops terminating pods before the requests
		// are read (hpa.Pods are the pods that count).
		Name: "terminating-pod-without-request",
		Applies: func(c *Case) bool {
			return slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.Kind == Terminating && p.Request == 0 })
		},
		Fix: func(c *Case) *Case {
			return c.with(func(p Pod) Pod {
				if p.Kind == Terminating && p.Request == 0 {
					p.Request = 1000
				}
				return p
			})
		},
	},
}

func kindTo(from, to Kind) func(Pod) Pod {
	return func(p Pod) Pod {
		if p.Kind == from {
			p.Kind = to
		}
		return p
	}
}

// Classify names the classes that explain why same(c) is false: the first
// single present class whose counterfactual makes same true, else all
// present classes together ("a+b"), else "" (unexplained).
func Classify(c *Case, same func(*Case) bool) string {
	return classify.Classify(Classes, c, same)
}

// CalcSame compares the model's calculator with GetResourceReplicas: the
// same validity and, when valid, the same proposal. calc is the model
// side (ModelCalc, or a planted wrong one in the tests).
func CalcSame(calc func(*Case) Answer) func(*Case) bool {
	return func(c *Case) bool {
		m := calc(c)
		r, _ := RealCalc(c)
		return m == r
	}
}

// EvalSame compares the model's evaluation with upstream's.
func EvalSame(eval func(*Case) int) func(*Case) bool {
	return func(c *Case) bool { return eval(c) == RealEval(c) }
}
