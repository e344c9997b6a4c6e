package casefile

import "testing"

// TestLowerCamel: Kubernetes' JSON spelling of Go field names
// (k8s.io/api types: matchLabels, matchExpressions, key, cpu).
func TestLowerCamel(t *testing.T) {
	for in, want := range map[string]string{
		"Key": "key", "MatchLabels": "matchLabels", "MatchExpressions": "matchExpressions",
		"CPU": "cpu", "At": "at", "HTTPPort": "httpPort", "TopologyBalanceNodeFit": "topologyBalanceNodeFit",
		"MaxPerNode": "maxPerNode", "x": "x",
	} {
		if got := lowerCamel(in); got != want {
			t.Errorf("lowerCamel(%q) = %q, want %q", in, got, want)
		}
	}
}
