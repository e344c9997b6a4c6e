package modeltest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rewrite is the conventional golden-file flag: `go test ./... -rewrite`
// regenerates the expected outputs of every script. Commit a rewrite only
// after reading its diff.
var rewrite = flag.Bool("rewrite", false, "rewrite the expected outputs of testdata scripts")

// Command is one command of an interaction script:
//
//	# comments and blank lines between commands are kept
//	name arg1 key=value ...
//	----
//	expected output lines
//
// The expected output ends at the first blank line; a command without
// output has no "----" block.
type Command struct {
	Pos  string // file:line
	Name string
	Args []string
}

// Arg returns the value of key=value argument key, or def.
func (c Command) Arg(key, def string) string {
	for _, a := range c.Args {
		if k, v, ok := strings.Cut(a, "="); ok && k == key {
			return v
		}
	}
	return def
}

// RunScript runs every command of the script at path through handle and
// compares its output with the expected one (or rewrites it with
// -rewrite).
func RunScript(t *testing.T, path string, handle func(t *testing.T, c Command) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out strings.Builder
	changed := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			out.WriteString(line)
			if i < len(lines)-1 {
				out.WriteByte('\n')
			}
			continue
		}
		fields := strings.Fields(trimmed)
		cmd := Command{Pos: fmt.Sprintf("%s:%d", filepath.Base(path), i+1), Name: fields[0], Args: fields[1:]}
		// Expected output: after "----" up to the first blank line.
		var expected []string
		j := i + 1
		if j < len(lines) && strings.TrimSpace(lines[j]) == "----" {
			j++
			for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
				expected = append(expected, lines[j])
				j++
			}
		}
		got := strings.TrimRight(handle(t, cmd), "\n")
		want := strings.Join(expected, "\n")
		if got != want {
			changed = true
			if !*rewrite {
				t.Errorf("%s: %s\n--- got:\n%s\n--- want:\n%s", cmd.Pos, trimmed, got, want)
			}
		}
		// A command without output is written without a "----" block, so
		// that the next command cannot be mistaken for its output.
		out.WriteString(line + "\n")
		if got != "" {
			out.WriteString("----\n" + got + "\n")
		}
		i = j - 1
	}
	if *rewrite && changed {
		if err := os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// RunScripts runs every golden script dir/*.txt as a subtest named after
// its file, through run (typically a closure around RunScript); a dir
// without scripts fails the test.
func RunScripts(t *testing.T, dir string, run func(t *testing.T, path string)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in %s: %v", dir, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { run(t, f) })
	}
}
