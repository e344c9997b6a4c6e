package kivi_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportRules enforces docs/architecture.md: checker imports nothing of
// ours, model only its own subpackages, controllers/events/intents only
// model, kivitest/script/build only model, and no package imports
// kivitest/script.
func TestImportRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/kivi-go/kivi"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			var ok bool
			switch {
			case strings.HasPrefix(pkg, "/explorer"):
				// The page generator takes the report as JSON bytes: the
				// root package imports it, never the other way round.
				ok = false
			case strings.HasPrefix(pkg, "/checker"):
				ok = strings.HasPrefix(dep, "/checker")
			case strings.HasPrefix(pkg, "/model"):
				ok = strings.HasPrefix(dep, "/model")
			case strings.HasPrefix(dep, "/kivitest/script") && !strings.HasPrefix(pkg, "/kivitest/script"):
				// The script environment is test support: tests import
				// it, no package does.
				ok = false
			case pkg == "/kivitest/script/build":
				// The controllers' own tests build clusters with it.
				ok = dep == "/model"
			case strings.HasPrefix(pkg, "/controllers"), strings.HasPrefix(pkg, "/events"), strings.HasPrefix(pkg, "/intents"):
				ok = dep == "/model" || strings.HasPrefix(dep, pkg+"/") // own subpackages
			default:
				ok = true
			}
			if !ok {
				t.Errorf("%s imports %s, which docs/architecture.md forbids", fields[0], imp)
			}
		}
	}
}

// TestRootPullsNoKubernetesModule: importing the root package (or
// kivitest) must not bring k8s.io/api, apimachinery or client-go into a
// user's build.
func TestRootPullsNoKubernetesModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".", "./kivitest").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "k8s.io/") {
			t.Errorf("the root package depends on %s", dep)
		}
	}
}
