package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
)

// podWord is "pod <name>" in a trace line; the name runs to the next
// space, comma, colon or closing parenthesis.
var podWord = regexp.MustCompile(`\b[Pp]od ([^ ,:;)]+)`)

// TestTracePodIncarnations runs the counterexamples of C1, C5, C7 and C8
// as `kivi verify --case cN --original` prints them and checks that the
// lines call every pod by a name of its deployment, "<deployment>-<n>",
// and that a name stands for one pod: created at most once, and never
// mentioned after the kubelet deleted it. The model reuses a deleted
// pod's storage slot for the next pod, so naming pods by slot fails this
// ("Deleted pod 1" then "Created pod 1"). It also checks that the text
// and the JSON report number the lines alike.
func TestTracePodIncarnations(t *testing.T) {
	for _, c := range []string{"c1", "c5", "c7", "c8"} {
		t.Run(c, func(t *testing.T) {
			args := []string{"verify", "--case", c, "--original", "--workers", "1"}
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), append(args, "--json"), &stdout, &stderr); code != exitViolated {
				t.Fatalf("exit %d, stderr %s", code, stderr.String())
			}
			var doc kivi.JSONReport
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			in, ok := doc.FirstViolation()
			if !ok || in.Trace == nil {
				t.Fatal("no counterexample")
			}
			deps := map[string]bool{}
			for _, d := range in.Trace.Initial.Deployments {
				deps[d.Name] = true
			}
			created, deleted := map[string]bool{}, map[string]bool{}
			for i, st := range in.Counterexample {
				if st.Step != i {
					t.Errorf("line %d has step number %d", i, st.Step)
				}
				if strings.Contains(st.Message, "pod#") || strings.Contains(st.Message, "{pod:") {
					t.Errorf("[%d] unresolved pod reference: %s", i, st.Message)
				}
				for _, m := range podWord.FindAllStringSubmatch(st.Message, -1) {
					name := m[1]
					if name == "of" || name == "violating" {
						continue
					}
					cut := strings.LastIndexByte(name, '-')
					if cut < 0 || !deps[name[:cut]] {
						t.Errorf("[%d] %q: pod %q is not <deployment>-<n>", i, st.Message, name)
						continue
					}
					if deleted[name] {
						t.Errorf("[%d] %q: pod %s was deleted before", i, st.Message, name)
					}
					switch {
					case strings.HasPrefix(st.Message, "Created pod "+name):
						if created[name] {
							t.Errorf("[%d] pod %s created twice", i, name)
						}
						created[name] = true
					case strings.HasPrefix(st.Message, "Deleted pod "+name):
						deleted[name] = true
					}
				}
			}
			if c == "c5" || c == "c8" {
				// Their loops delete a pod and create its replacement:
				// without that the test would prove nothing.
				if len(deleted) == 0 || len(created) == 0 {
					t.Errorf("no pod deleted (%d) or created (%d) in the counterexample", len(deleted), len(created))
				}
			}

			stdout.Reset()
			if code := run(context.Background(), args, &stdout, &stderr); code != exitViolated {
				t.Fatalf("exit %d, stderr %s", code, stderr.String())
			}
			want := strings.Join(in.Lines(), "\n")
			if !strings.Contains(stdout.String(), "Counterexample:\n"+want+"\n") {
				t.Errorf("text counterexample differs from the JSON one:\n%s\nwant:\n%s", stdout.String(), want)
			}
		})
	}
}
