package script

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
//
// Arguments are key=value pairs, bare flags, and, for a few commands,
// positional operands (a process or file name).
type Command struct {
	Pos  string // file:line
	Name string
	Args []string
}

// Parse splits a command line into its name and arguments.
func Parse(line string) Command {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return Command{}
	}
	return Command{Name: fields[0], Args: fields[1:]}
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

// Has reports whether the bare flag name is among the arguments.
func (c Command) Has(name string) bool {
	for _, a := range c.Args {
		if a == name {
			return true
		}
	}
	return false
}

// Operands returns the positional arguments: those without "=".
func (c Command) Operands() []string {
	var out []string
	for _, a := range c.Args {
		if !strings.Contains(a, "=") {
			out = append(out, a)
		}
	}
	return out
}

func (c Command) String() string { return strings.Join(append([]string{c.Name}, c.Args...), " ") }

// RunFile runs the script at path in a new Env (options as for NewEnv,
// the script's directory as its directory): every command's output must
// equal the expected one, or replaces it with -rewrite.
func RunFile(t *testing.T, path string, opts ...Option) {
	t.Helper()
	env := NewEnv(filepath.Dir(path), opts...)
	runScript(t, path, func(t *testing.T, c Command) string {
		t.Helper()
		out, err := env.Exec(c)
		if err != nil {
			t.Fatalf("%s: %s: %v", c.Pos, c.Name, err)
		}
		return out
	})
}

// runScript runs every command of the script at path through handle and
// compares its output with the expected one (or rewrites it with
// -rewrite).
func runScript(t *testing.T, path string, handle func(t *testing.T, c Command) string) {
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
		cmd := Parse(trimmed)
		cmd.Pos = fmt.Sprintf("%s:%d", filepath.Base(path), i+1)
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

// Run runs every script dir/*.txt (RunFile) as a subtest named after its
// file; a dir without scripts fails the test.
func Run(t *testing.T, dir string, opts ...Option) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in %s: %v", dir, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { RunFile(t, f, opts...) })
	}
}
