package kivi_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docRef is a path to a repository file that a comment or a document
// names: docs/…, examples/… or a top-level README.
var docRef = regexp.MustCompile(`\b(?:docs|examples)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(?:md|png|json|yaml|go)\b`)

// mdName is a Markdown file name a Go file mentions: a path, or a bare
// name (a page of docs/, a README, a file the code writes).
var mdName = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)

// mdExists reports whether the Markdown file name, as the Go file f
// mentions it, is a file of the repository: a path from the repository
// root or from f's directory, or a bare name found in docs/, at the root,
// in f's directory or below it.
func mdExists(f, name string) bool {
	dir := filepath.Dir(f)
	if strings.Contains(name, "/") {
		for _, p := range []string{name, filepath.Join(dir, name)} {
			if _, err := os.Stat(p); err == nil {
				return true
			}
		}
		return false
	}
	for _, p := range []string{filepath.Join("docs", name), name} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// TestDocReferences: every docs/ or examples/ file that a Go comment or a
// Markdown document of the repository names exists, every Markdown file a
// Go file names is one of the repository's, and nothing points
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
		if strings.Contains(f, "/testdata/") && strings.HasSuffix(f, "README.md") {
			// A collection's README names its files' paths in the
			// repositories they come from.
			continue
		}
		for _, ref := range docRef.FindAllString(text, -1) {
			if _, err := os.Stat(ref); err != nil {
				t.Errorf("%s names %s, which does not exist", f, ref)
			}
		}
		if strings.HasSuffix(f, ".go") {
			for _, loc := range mdName.FindAllStringIndex(text, -1) {
				name := text[loc[0]:loc[1]]
				if loc[0] > 0 && text[loc[0]-1] == '%' {
					continue // a format string's "%s/README.md"
				}
				if !mdExists(f, name) {
					t.Errorf("%s names %s, which is not a file of the repository", f, name)
				}
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
