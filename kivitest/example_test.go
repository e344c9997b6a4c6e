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
	// [4][kube-scheduler] Pod 10-6 cannot be scheduled: 0/3 nodes are available
}
