package manifest

import (
	"strings"
	"testing"
)

// TestSchedulerConfiguration: a KubeSchedulerConfiguration's
// percentageOfNodesToScore reaches the model, the default-scheduler
// profile's own value winning over the global one and other profiles
// ignored; its operational fields are not warned about (its plugins:
// TestSchedulerProfile).
func TestSchedulerConfiguration(t *testing.T) {
	const web = "      containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n"
	for _, c := range []struct {
		name, config string
		want         int
		warns        []string
	}{
		{"none", "", 0, nil},
		{"global", "percentageOfNodesToScore: 30\n", 30, nil},
		{"the default profile's own", "percentageOfNodesToScore: 30\nprofiles:\n- {schedulerName: default-scheduler, percentageOfNodesToScore: 100}\n- {schedulerName: batch, percentageOfNodesToScore: 10}\n", 100, nil},
		{"a profile without a name is the default", "profiles:\n- {percentageOfNodesToScore: 70}\n", 70, nil},
		{"another profile's", "percentageOfNodesToScore: 40\nprofiles:\n- {schedulerName: batch, percentageOfNodesToScore: 10}\n", 40, nil},
		{"plugins", "parallelism: 16\nprofiles:\n- schedulerName: default-scheduler\n  plugins: {score: {disabled: [{name: ImageLocality}]}}\n  pluginConfig: [{name: NodeResourcesFit, args: {}}]\n", 0,
			nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := webDeployment(web)
			if c.config != "" {
				in += "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + c.config
			}
			r := load(t, in)
			if got := r.Cluster.Scheduler.PercentageOfNodesToScore; got != c.want {
				t.Errorf("percentageOfNodesToScore %d, want %d", got, c.want)
			}
			wantWarnings(t, r.Warnings, "document 3", c.warns)
		})
	}
}

// wantWarnings checks the warnings about one document (those whose text
// contains where, e.g. "document 3"): as many as want, each containing
// its want in order.
func wantWarnings(t *testing.T, warnings []Warning, where string, want []string) {
	t.Helper()
	var got []string
	for _, w := range warnings {
		if strings.Contains(w.String(), where) {
			got = append(got, w.String())
		}
	}
	if len(got) != len(want) {
		t.Fatalf("warnings %q, want %q", got, want)
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("warning %q, want one containing %q", got[i], w)
		}
	}
}
