package casefile_test

import (
	"path/filepath"
	"testing"

	"github.com/kivi-go/kivi/inputs/casefile"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// TestScript runs testdata/parse.txt: `parse <file>` loads
// testdata/files/<file> and prints the error, or the file as Marshal
// writes it back followed by model.Describe of its original topology.
func TestScript(t *testing.T) {
	modeltest.RunScript(t, "testdata/parse.txt", func(t *testing.T, cmd modeltest.Command) string {
		if cmd.Name != "parse" || len(cmd.Args) != 1 {
			t.Fatalf("%s: usage: parse <file>", cmd.Pos)
		}
		c, err := casefile.Load(filepath.Join("testdata/files", cmd.Args[0]))
		if err != nil {
			return "error: " + err.Error()
		}
		out, err := casefile.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		u, s, err := c.Build()
		if err != nil {
			t.Fatal(err)
		}
		return string(out) + "---\n" + model.Describe(u, s)
	})
}
