package kivi_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// docRef is a path to a repository file that a comment or a document
// names: docs/…, examples/… or a top-level README.
var docRef = regexp.MustCompile(`\b(?:docs|examples)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(?:md|png|json|yaml|go)\b`)

// TestDocReferences: every docs/ or examples/ file that a Go comment or a
// Markdown document of the repository names exists, and nothing points
// at the development workspace beside the repository (../shared), which
// users do not have. Tests may read Kivi's example inputs from there as
// data (they skip without it).
func TestDocReferences(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "*.go", "*.md").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	for _, f := range strings.Fields(string(out)) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, ref := range docRef.FindAllString(text, -1) {
			if _, err := os.Stat(ref); err != nil {
				t.Errorf("%s names %s, which does not exist", f, ref)
			}
		}
		for i, line := range strings.Split(text, "\n") {
			if !strings.Contains(line, "shared/") {
				continue
			}
			if strings.HasSuffix(f, "_test.go") && strings.Contains(line, "shared/kivi-examples") {
				continue
			}
			// The words are split so that a grep for them finds no Go file.
			if strings.Contains(line, "../"+"shared") || strings.Contains(line, "shared"+"/spec") || strings.Contains(line, "shared"+"/notes") {
				t.Errorf("%s:%d points outside the repository: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
