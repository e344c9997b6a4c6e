package script_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/examples/zonerebalancer"
	"github.com/kivi-go/kivi/kivitest/script"
)

// TestOwnController runs testdata/*.txt with the zone rebalancer of
// examples/zonerebalancer registered: a user's controller in the shared
// vocabulary.
func TestOwnController(t *testing.T) {
	script.Run(t, "testdata", script.WithProcess("zone-rebalancer", zonerebalancer.Rebalancer{ZoneKey: "zone"}))
}

// TestErrors: a command the vocabulary does not know, an argument its
// handler does not take, or a command in the wrong phase is an error,
// not a silently different cluster.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"nodes count=1"}, `unknown command "nodes"`},
		{[]string{"node count=1 mem=8"}, "node takes no argument mem="},
		{[]string{"node count=1 big"}, `node: unexpected "big"`},
		{[]string{"node-status node=1 status=NotReady"}, "needs a cluster"},
		{[]string{"node count=1", "build", "node count=1"}, "comes before build"},
		{[]string{"node count=1", "build", "step kube-scheduler"}, `unknown process "kube-scheduler"`},
		{[]string{"node count=1", "build", "node-status node=2 status=NotReady"}, `unknown node "2"`},
		{[]string{"node count=1", "build", "node-status node=1 status=Down"}, `unknown status "Down"`},
		{[]string{"node taints=a=b:Sometimes"}, `unknown effect "Sometimes"`},
		{[]string{"template name=t", "deployment name=d template=u"}, `unknown template "u"`},
		{[]string{"node count=1", "template name=t", "deployment name=d template=t", "pod deployment=d"}, "a Running pod needs node="},
	} {
		env := script.NewEnv(t.TempDir())
		var err error
		for _, l := range tc.lines {
			if _, err = env.ExecLine(l); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.lines, err, tc.want)
		}
	}
}
