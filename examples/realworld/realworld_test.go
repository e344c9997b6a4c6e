package realworld_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

var rewrite = flag.Bool("rewrite", false, "rewrite each folder's warnings.txt with the warnings the reader gives")

// maxStates bounds each phase of a verification, so that the verdicts
// do not depend on the machine's speed (no time bound, one worker, no
// probe and no depth-first phase, which are timed).
const maxStates = 20_000

// verdicts are the verdicts this corpus is sure of at maxStates; an
// intent not listed may end Unknown, but never in an error.
var verdicts = map[string]map[string]checker.Verdict{
	// session-sync's required affinity to memcached's pods, in any
	// namespace, finds none while memcached's pods are not yet placed:
	// kube-scheduler reports FailedScheduling and retries later.
	"affinity-namespaces-20": {"pod_always_schedulable": checker.Violated},
	// The drain evicts a replica before its replacement runs.
	"cordoned-notready-50": {"replica_num_always_meet_min": checker.Violated},
	// worker-3's pod is evicted after the default 300 s toleration.
	"ephemeral-storage-20": {"replica_num_always_meet_min": checker.Violated},
	// Both CoreDNS pods may land on control planes, which the maintenance
	// takes down in turn before the first pod is Ready again.
	"kube-system-addons-20": {"replica_num_always_meet_exp": checker.Violated},
	// The operator's pod on cp-1 is evicted when cp-1 fails.
	"operator-crds-20": {"replica_num_always_meet_min": checker.Violated},
	// A checkout pod on the lost worker is evicted.
	"priority-preemption-20": {"replica_num_always_meet_min": checker.Violated},
	// The drain of worker-2 times out while pg-0, evicted from worker-1,
	// is not Ready again: the budget refuses pg-1's eviction.
	"statefulset-db-drain-50": {"valid_end_state": checker.Violated},

	// Its Indexed Job's finished indexes are interchangeable
	// (reduction/symmetry, completion indexes): 365 756 states.
	"batch-indexed-jobs-20":  {"pod_always_schedulable": checker.Holds, "job_completes": checker.Holds},
	"cronjobs-helm-list-200": {"pod_always_schedulable": checker.Holds, "job_completes": checker.Holds},
	// A namespace eviction limit couples the nodes' evictions; the node
	// walks branch where it runs out, one node per orbit, so the 50
	// alike workers stay interchangeable and the search is small.
	"descheduler-profiles-50": {"pod_always_schedulable": checker.Holds, "no_oscillation_eviction": checker.Holds},
	"gpu-inference-20":        {"pod_always_schedulable": checker.Holds, "replica_num_always_meet_min": checker.Holds, "job_completes": checker.Holds},
	"helm-webapp-20":          {"pod_always_schedulable": checker.Holds, "replica_num_always_meet_min": checker.Holds},
	"mixed-units-20":          {"pod_always_schedulable": checker.Holds},
	"quota-limitrange-20":     {"pod_always_schedulable": checker.Holds, "rollout_completes": checker.Holds},
	"rollout-apply-50":        {"rollout_completes": checker.Holds, "replica_num_always_meet_exp": checker.Holds},
	// From where its pods run, losing worker-31 (redis-0's node) costs
	// the frontend nothing and every evicted pod finds a node.
	"running-cluster-100": {"pod_always_schedulable": checker.Holds, "replica_num_always_meet_min": checker.Holds, "valid_end_state": checker.Holds},
	// The ingress controller's hostname spread counts only the three
	// dedicated nodes its nodeSelector admits (nodeAffinityPolicy: Honor,
	// the default).
	"spread-mindomains-50":  {"pod_always_schedulable": checker.Holds, "rollout_completes": checker.Holds},
	"toleration-seconds-20": {"replica_num_always_meet_exp": checker.Holds},
	"web-hpa-200":           {"pod_always_schedulable": checker.Holds, "replica_num_always_meet_min": checker.Holds},
	"zone-outage-100":       {"pod_always_schedulable": checker.Holds, "replica_num_always_meet_min": checker.Holds},
}

// clusterDumps are the folders whose manifests are a running cluster's
// dump, read with its pods where they run (kivi verify
// --current-placement).
var clusterDumps = map[string]bool{"running-cluster-100": true}

// stateBounds are other bounds: smaller for the folders whose states
// cost the most (a maintenance of 10 of 100 nodes at a time), to keep the
// test fast; larger where a verdict needs more states and they are cheap.
var stateBounds = map[string]int64{"daemonsets-logging-100": 2_000, "batch-indexed-jobs-20": 400_000}

// folders lists the corpus: every directory with a manifests.yaml.
func folders(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob("*/manifests.yaml")
	if err != nil || len(m) < 20 {
		t.Fatalf("corpus: %v, %d folders", err, len(m))
	}
	out := make([]string, len(m))
	for i, f := range m {
		out[i] = filepath.Dir(f)
	}
	return out
}

// nodeCount is the cluster size a folder's name ends with.
func nodeCount(dir string) int {
	n, _ := strconv.Atoi(dir[strings.LastIndex(dir, "-")+1:])
	return n
}

func load(t *testing.T, dir string) (*kivi.Cluster, []string) {
	t.Helper()
	read := func(name string) *kivi.InputFile {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return &kivi.InputFile{Name: p, Data: data}
	}
	loadFiles := kivi.LoadManifests
	if clusterDumps[dir] {
		loadFiles = kivi.LoadClusterDump
	}
	c, warns, err := loadFiles([]kivi.InputFile{*read("manifests.yaml")}, read("nodes.yaml"), read("intents.yaml"))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	var lines []string
	for _, w := range warns {
		lines = append(lines, w.String())
	}
	return c, lines
}

// TestCorpus: every input loads without an error, with the warnings of
// its warnings.txt, and a bounded verification ends without an error
// with the verdicts listed in verdicts.
func TestCorpus(t *testing.T) {
	dirs := folders(t)
	for name := range verdicts {
		if !slices.Contains(dirs, name) {
			t.Errorf("verdicts of %s, which is not in the corpus", name)
		}
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			c, warns := load(t, dir)
			golden := filepath.Join(dir, "warnings.txt")
			got := strings.Join(warns, "\n")
			if got != "" {
				got += "\n"
			}
			if *rewrite {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("warnings:\n%s\nwant (%s):\n%s", got, golden, want)
			}
			if testing.Short() && nodeCount(dir) > 100 {
				t.Skip("a large cluster; -short loads it only")
			}
			bound := int64(maxStates)
			if b, ok := stateBounds[dir]; ok {
				bound = b
			}
			rep, err := kivi.Verify(context.Background(), c, kivi.Options{ProbeStates: -1, NoDepthFirst: true, ShortenFor: -1,
				Checker: checker.Options{Workers: 1, MaxStates: bound}})
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			for _, r := range rep.Results {
				t.Logf("%s: %v %s", r.Name, r.Verdict, r.Reason)
			}
			for intent, want := range verdicts[dir] {
				r := rep.Result(intent)
				if r == nil {
					t.Errorf("%s: not checked", intent)
					continue
				}
				if r.Verdict != want {
					t.Errorf("%s: %v (%s), want %v", intent, r.Verdict, r.Reason, want)
				}
			}
		})
	}
}
