package kivi_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/kivi-go/kivi"

// importRules reads the import-rules table of docs/architecture.md: for
// each package pattern (a directory, "." for the root, "dir/..." for a
// tree), the patterns of ours it may import ("nothing" for none).
func importRules(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "<!-- import-rules -->")
	table, _, ok2 := strings.Cut(table, "<!-- /import-rules -->")
	if !ok || !ok2 {
		t.Fatal("docs/architecture.md: no <!-- import-rules --> table")
	}
	rules := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[2:] {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 2 {
			t.Fatalf("docs/architecture.md: import rule %q: want two cells", line)
		}
		pkg := strings.Trim(strings.TrimSpace(cells[0]), "`")
		var allowed []string
		for _, a := range strings.Split(cells[1], ",") {
			if a = strings.Trim(strings.TrimSpace(a), "`"); a != "nothing" {
				allowed = append(allowed, a)
			}
		}
		if _, dup := rules[pkg]; dup {
			t.Fatalf("docs/architecture.md: two import rules for %s", pkg)
		}
		rules[pkg] = allowed
	}
	return rules
}

// matches reports whether package dir (relative to the module, "." for
// the root) is named by pattern.
func matches(pattern, dir string) bool {
	if tree, ok := strings.CutSuffix(pattern, "/..."); ok {
		return dir == tree || strings.HasPrefix(dir, tree+"/")
	}
	return dir == pattern
}

// TestImportRules enforces the import rules of docs/architecture.md on
// every package of the main module: no package without a rule, no import
// of ours a rule does not list.
func TestImportRules(t *testing.T) {
	rules := importRules(t)
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	rel := func(p string) string {
		if p == module {
			return "."
		}
		return strings.TrimPrefix(p, module+"/")
	}
	used := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		dir := rel(fields[0])
		var rule string
		for pattern := range rules {
			// The most specific pattern wins: an exact directory over a tree.
			if matches(pattern, dir) && (rule == "" || !strings.HasSuffix(pattern, "/...")) {
				rule = pattern
			}
		}
		if rule == "" {
			t.Errorf("%s has no import rule in docs/architecture.md (every package needs one)", fields[0])
			continue
		}
		used[rule] = true
		for _, imp := range fields[1:] {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := rel(imp)
			if !slices.ContainsFunc(rules[rule], func(a string) bool { return matches(a, dep) }) {
				t.Errorf("%s imports %s, which docs/architecture.md does not allow (row %s: %v)", fields[0], imp, rule, rules[rule])
			}
		}
	}
	for pattern := range rules {
		if !used[pattern] {
			t.Errorf("docs/architecture.md: import rule for %s, which is no package", pattern)
		}
	}
}

// TestImportRulesCatch: the rule checker rejects what the table forbids,
// so that TestImportRules cannot pass for want of reading the table.
func TestImportRulesCatch(t *testing.T) {
	rules := importRules(t)
	for _, tc := range []struct {
		pkg, rule, dep string
		ok             bool
	}{
		{"checker", "checker", "model", false},
		{"model", "model", "checker", false},
		{"controllers/scheduler", "controllers/scheduler", "controllers/hpa", false},
		{"controllers/scheduler", "controllers/scheduler", "model", true},
		{"cmd/kivi", "cmd/kivi", "model", false},
		{"cmd/kivi", "cmd/kivi", "compose", false},
		{"cmd/kivi", "cmd/kivi", ".", true},
		{"kivitest", "kivitest", "inputs/manifest", false},
		{"inputs/manifest", "inputs/...", "intents", false},
		{"compose", "compose", "reduction/symmetry", true},
		{"reduction/por", "reduction/...", "compose", false},
	} {
		got := slices.ContainsFunc(rules[tc.rule], func(a string) bool { return matches(a, tc.dep) })
		if got != tc.ok || !matches(tc.rule, tc.pkg) {
			t.Errorf("%s importing %s: allowed %v, want %v", tc.pkg, tc.dep, got, tc.ok)
		}
	}
}

// TestRootPullsNoKubernetesModule: importing the root package (or
// kivitest) must not bring k8s.io/api, apimachinery or client-go into a
// user's build.
func TestRootPullsNoKubernetesModule(t *testing.T) {
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

// TestEveryPackageHasDoc: every package of the main module says what it
// is in a package comment.
func TestEveryPackageHasDoc(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{if .Doc}}doc{{end}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) == 1 {
			t.Errorf("%s has no package comment", f[0])
		}
	}
}
