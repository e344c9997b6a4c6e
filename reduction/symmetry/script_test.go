package symmetry_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
	"github.com/kivi-go/kivi/reduction/symmetry"
)

// TestScripts runs testdata/*.txt: build a small cluster, print the
// classes, permute nodes and print the canonical state.
//
//	nodes count=N [zone=Z] [cpu=C]   add identical nodes
//	template cpu=C                   the pod template of deployment "web"
//	run node=N [cpu=C]               a Running pod of "web" on node N (0-based)
//	build                            compile; prints the classes
//	down node=N                      node N NotReady, queued for the node controller
//	permute perm=a,b,...             move node i to perm[i]; prints the state
//	canonical                        prints the canonical state
func TestScripts(t *testing.T) {
	var (
		b    *modeltest.Builder
		u    *model.Universe
		s    *model.State
		c    *symmetry.Canonicalizer
		tmpl int
		dep  = -1
	)
	atoi := func(c modeltest.Command, key, def string) int {
		v, err := strconv.Atoi(c.Arg(key, def))
		if err != nil {
			t.Fatalf("%s: %s: %v", c.Pos, key, err)
		}
		return v
	}
	handle := func(t *testing.T, cmd modeltest.Command) string {
		switch cmd.Name {
		case "reset":
			b, u, s, c, dep = modeltest.New(), nil, nil, nil, -1
		case "nodes":
			nb := modeltest.Node().CPU(int64(atoi(cmd, "cpu", "64")))
			if z := cmd.Arg("zone", ""); z != "" {
				nb.Zone(z)
			}
			b.AddNodes(atoi(cmd, "count", "1"), nb)
		case "template":
			tmpl = b.AddTemplate(modeltest.Template("app").Requests(int64(atoi(cmd, "cpu", "8")), 8).Label("name", "app"))
			dep = b.AddDeployment("web", tmpl, 0)
		case "run":
			if cpu := cmd.Arg("cpu", ""); cpu != "" {
				b.RunPodCPU(dep, atoi(cmd, "node", "0"), int64(atoi(cmd, "cpu", "0")))
			} else {
				b.RunPod(dep, atoi(cmd, "node", "0"))
			}
		case "build":
			b.Slots = 6
			u, s = b.MustBuild()
			c = symmetry.New(u, compose.SymmetryFacts(u))
			return fmt.Sprintf("classes %v", c.Analysis().Classes)
		case "down":
			n := atoi(cmd, "node", "0")
			s.Nodes[n].Status = model.NotReady
			s.Enqueue(model.NodeControllerQueue, n)
		case "permute":
			var perm []int
			for _, f := range strings.Split(cmd.Arg("perm", ""), ",") {
				v, _ := strconv.Atoi(f)
				perm = append(perm, v)
			}
			s = symmetry.Permute(u, s, perm)
			return model.Describe(u, s)
		case "canonical":
			return model.Describe(u, c.Canonical(s))
		default:
			t.Fatalf("%s: unknown command %s", cmd.Pos, cmd.Name)
		}
		return ""
	}
	b = modeltest.New()
	modeltest.RunScript(t, "testdata/canonical.txt", handle)
}
