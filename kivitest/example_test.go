package kivitest_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/kivitest"
)

// A test in a repository that keeps its cluster as a case file: it fails,
// printing the counterexample, when an intent breaks. Here the built-in
// case C3 stands for the repository's file (kivitest.File("kivi.yaml")).
func ExampleVerify() {
	t := &testing.T{} // in a real test, the *testing.T of the test function
	res := kivitest.Check(t, kivitest.Case("c3", 3, false), kivitest.Original(), kivitest.Workers(1))
	fmt.Println(res.Violated)
	fmt.Print(res.Report.Intents[0].Lines()[4])
	// Output:
	// [pod_always_schedulable]
	// [4][kube-scheduler] Pod 10-6 cannot be scheduled: 0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints
}

// A test in a repository that keeps Kubernetes manifests: the files are
// read as `kivi verify -f` reads them, the intents file (told apart by
// its content) included. These are the worked example of docs/inputs.md,
// whose zone spread leaves a pod with no feasible node when node-b fails.
func ExampleManifests() {
	t := &testing.T{} // in a real test, the *testing.T of the test function
	src := kivitest.Manifests(t, "../examples/inputs/manifests.yaml", "../examples/inputs/nodes.yaml", "../examples/inputs/intents.yaml")
	res := kivitest.Check(t, src, kivitest.Original(), kivitest.Workers(1))
	fmt.Println(res.Violated)
	// Output:
	// [pod_always_schedulable]
}

// A check of a running cluster: its dump (`kubectl get …,pods -A -o
// yaml`) is read with its pods where they run, and the verification
// explores what follows from there. Here a 100-node cluster loses the
// node of a Redis pod: every evicted pod finds a node and the frontend
// keeps its replicas.
func ExampleClusterDump() {
	t := &testing.T{} // in a real test, the *testing.T of the test function
	dir := "../examples/realworld/running-cluster-100/"
	src := kivitest.ClusterDump(t, dir+"manifests.yaml", dir+"nodes.yaml", dir+"intents.yaml")
	res := kivitest.Check(t, src, kivitest.Original(), kivitest.Workers(1))
	fmt.Println(res.Violated, res.Unknown, res.Report.Verdict)
	// Output:
	// [] false holds
}
