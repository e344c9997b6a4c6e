package casefile

import (
	"bytes"
	"strings"
	"testing"
)

// TestManifestGetsAHint: a Kubernetes manifest given as a case file is
// named as such, with the -f flag that reads it.
func TestManifestGetsAHint(t *testing.T) {
	for _, data := range []string{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Node\n",
		`{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}}`,
	} {
		_, err := Parse("web.yaml", []byte(data))
		if err == nil || !strings.Contains(err.Error(), "web.yaml: this is a Kubernetes manifest") || !strings.Contains(err.Error(), "kivi verify -f web.yaml") {
			t.Errorf("%q: got %v, want the -f hint", data[:20], err)
		}
	}
}

// TestOversizedCaseFile: a case file larger than any the model holds is
// refused before parsing.
func TestOversizedCaseFile(t *testing.T) {
	data := bytes.Repeat([]byte("# padding\n"), 1<<20)
	_, err := Parse("big.yaml", data)
	if err == nil || !strings.Contains(err.Error(), "big.yaml: the file is 10.5 MB (accepted: at most 8 MiB") {
		t.Fatalf("got %v, want the size limit", err)
	}
}
