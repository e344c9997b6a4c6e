package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestAddedAffinityExample: testdata/addedaffinity's kube-scheduler
// configuration adds node affinity pool NotIn [gpu] to every pod of the
// default-scheduler profile, so the trainer, pinned to the GPU pool by its
// own nodeSelector, never schedules, with kube-scheduler's message, and
// the device plugin's DaemonSet pod, which the DaemonSet controller still
// creates on the GPU node, stays Pending there. Without the configuration
// the same workloads schedule.
func TestAddedAffinityExample(t *testing.T) {
	const dir = "testdata/addedaffinity/"
	for _, c := range []struct {
		name      string
		files     []string
		code      int
		out, warn string
	}{
		{"with the profile", []string{dir + "app.yaml", dir + "scheduler.yaml"}, exitViolated,
			"Pod trainer-1 cannot be scheduled: 0/3 nodes are available: 1 node(s) didn't match scheduler-enforced node affinity, 2 node(s) didn't match Pod's node affinity/selector",
			"DaemonSet device-plugin: the DaemonSet controller creates its pod on node gpu-1, which the scheduler profile's NodeAffinity addedAffinity excludes: it stays Pending there and reserves nothing"},
		{"without", []string{dir + "app.yaml"}, exitHolds, "", ""},
	} {
		args := []string{"verify", "--nodes", dir + "nodes.yaml", "--workers", "1"}
		for _, f := range c.files {
			args = append(args, "-f", f)
		}
		var out, stderr bytes.Buffer
		code := run(context.Background(), args, &out, &stderr)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(stderr.String(), c.warn) {
			t.Errorf("%s: exit %d, want %d; want %q in\n%s\nand %q in\n%s", c.name, code, c.code, c.out, out.String(), c.warn, stderr.String())
		}
		if c.warn == "" && strings.Contains(stderr.String(), "addedAffinity") {
			t.Errorf("%s: a warning about addedAffinity:\n%s", c.name, stderr.String())
		}
	}
}
