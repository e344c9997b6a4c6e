package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/examples/incidents"
)

// TestIncidentCases: `kivi cases` lists every incident with its expected
// intent, `kivi verify --case NAME` verifies the incident as written
// (no scaling search) and reports that intent, and --no-violation runs
// its fixed twin, which holds.
func TestIncidentCases(t *testing.T) {
	var list, stderr bytes.Buffer
	if code := run(context.Background(), []string{"cases"}, &list, &stderr); code != exitHolds {
		t.Fatalf("kivi cases: exit %d: %s", code, stderr.String())
	}
	for _, in := range incidents.List() {
		if !strings.Contains(list.String(), in.Name) || !strings.Contains(list.String(), in.Link) {
			t.Errorf("kivi cases does not list %s", in.Name)
		}
		var out bytes.Buffer
		code := run(context.Background(), []string{"verify", "--case", in.Name, "--workers", "1"}, &out, &stderr)
		if code != exitViolated || !strings.Contains(out.String(), "Violating intent(s): "+in.Expect) {
			t.Errorf("verify --case %s: exit %d, want %d naming %s:\n%s", in.Name, code, exitViolated, in.Expect, out.String())
		}
		if strings.Contains(out.String(), "Working on setup") {
			t.Errorf("verify --case %s ran a scaling search:\n%s", in.Name, out.String())
		}
		out.Reset()
		code = run(context.Background(), []string{"verify", "--case", in.Name, "--no-violation", "--workers", "1"}, &out, &stderr)
		if code != exitHolds {
			t.Errorf("verify --case %s --no-violation: exit %d, want %d:\n%s", in.Name, code, exitHolds, out.String())
		}
	}
}
