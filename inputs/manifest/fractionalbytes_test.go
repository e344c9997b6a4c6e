package manifest

import (
	"strings"
	"testing"
)

// TestFractionalBytes: a memory or ephemeral-storage quantity that is not
// a whole number of bytes is read as written, with the API server's
// warning (pkg/api/pod warnings.go); whole numbers of bytes are quiet.
func TestFractionalBytes(t *testing.T) {
	for _, tc := range []struct {
		resources, warn string
	}{
		{`{requests: {memory: 512m}}`, `containers[0].resources.requests.memory: fractional byte value "512m": a fraction of a byte, which the API server accepts with a warning that it must be an integer, read as written; the suffix m means thousandths of a byte: did you mean 512Mi?`},
		{`{limits: {memory: 1.5}}`, `containers[0].resources.limits.memory: fractional byte value "1.5"`},
		{`{requests: {ephemeral-storage: 100m}}`, `containers[0].resources.requests.ephemeral-storage: fractional byte value "100m"`},
		{`{requests: {memory: 1.5G, ephemeral-storage: 0.5Ki, cpu: 100m}}`, ""},
		{`{requests: {memory: 129e6}}`, ""},
	} {
		t.Run(tc.resources, func(t *testing.T) {
			r := load(t, webDeployment("      containers: [{name: c, resources: "+tc.resources+"}]\n"))
			all := strings.Join(warningTexts(r), "\n")
			if tc.warn == "" && strings.Contains(all, "fractional") || !strings.Contains(all, tc.warn) {
				t.Fatalf("warnings %q, want %q", all, tc.warn)
			}
		})
	}
}
