package kivi_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// Verify a built-in case's topology and print the counterexample.
func ExampleVerify() {
	c, _ := cases.Get("c3", 3, false) // or casefile.Load("my-case.yaml")
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1}})
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Violated() {
		fmt.Println(r.Name)
		fmt.Println(strings.Join(r.Trace.Lines(), "\n"))
	}
	// Output:
	// pod_always_schedulable
	// [0][workload] CPU usage of pod 10-3 changed by +1 to 9; node 2 has 55 CPU left
	// [1][horizontal-pod-autoscaler] Scaling deployment 10 from 5 to 6 replicas
	// [2][replicaset-controller] Deployment 10 has too few replicas: creating 1
	// [3][replicaset-controller] Created pod 10-6
	// [4][kube-scheduler] Pod 10-6 cannot be scheduled: 0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints
}

// Run Kivi's scaling search: the smallest topology that breaks an intent.
func ExampleSearch() {
	c, _ := cases.Get("c5", 3, false)
	res, err := kivi.Search(context.Background(), c, kivi.Options{}, scaling.EnumerateOptions{}, scaling.Options{Workers: 1})
	if err != nil {
		panic(err)
	}
	f, _ := res.FirstFailure()
	fmt.Println(f.Setup, f.Outcome.Violated)
	// Output:
	// {node type 0: 1, node type 1: 1, deployment type 0: 2} [no_oscillation_eviction]
}

// Add an intent written in Go: a predicate over a read-only view.
func ExampleOptions_extraIntents() {
	c, _ := cases.Get("c3", 3, true)
	zonesBalanced := intents.NewPredicate("zones_balanced", "zones differ by at most 2 pods", func(v model.View) bool {
		lo, hi := -1, 0
		for _, n := range v.PodsByLabel("zone", "") {
			if lo < 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
		return hi-lo <= 2
	})
	rep, _ := kivi.Verify(context.Background(), c, kivi.Options{ExtraIntents: []intents.Intent{zonesBalanced}})
	fmt.Println(rep.Result("zones_balanced").Verdict)
	// Output:
	// holds
}

// Check what a custom controller declares of itself for the reductions
// (here: that it never reads nodes by index, while it takes the crowded
// node of lowest index) against its steps on reachable states.
func ExampleCheckDeclarations() {
	problems, err := kivi.CheckDeclarations(context.Background(), crowdCluster(),
		kivi.Options{Controllers: []kivi.Controller{lowestNodeEvictor{}}}, kivi.DeclarationCheck{})
	if err != nil {
		panic(err)
	}
	for _, p := range problems {
		fmt.Println(p.Controller, p.Declaration)
	}
	// Output:
	// crowd-evictor SymmetryFacts
}
