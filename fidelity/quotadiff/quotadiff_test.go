package quotadiff

import (
	"flag"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
	"pgregory.net/rapid"
)

var (
	cases = flag.Int("cases", 3000, "random cases TestResourceQuotaAdmission compares (rapid checks)")
	seed  = flag.Uint64("seed", 1, "rapid's seed (0: a random one; -rapid.seed overrides it)")
)

// same compares the model with upstream on a case; an error of either
// fails the test.
func same(t interface{ Fatalf(string, ...any) }) func(*Case) bool { return sameThrough(t, Pipeline{}) }

// sameThrough compares the model with pipeline p.
func sameThrough(t interface{ Fatalf(string, ...any) }, p Pipeline) func(*Case) bool {
	return func(c *Case) bool {
		m, err := ModelRefusal(c)
		if err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
		u, err := p.RealRefusals(c)
		if err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
		return Same(m, u)
	}
}

// outcome names the kind of an admission answer.
func outcome(msg string) string {
	switch {
	case msg == "":
		return "admitted"
	case len(msg) > 12 && msg[:12] == "failed quota":
		return "must specify"
	}
	return "exceeded quota"
}

// direction says how a disagreement shows: a pod one side admits and
// the other refuses, or another refusal.
func direction(m string, u Upstream) string {
	switch {
	case m == "" && !u.Admits():
		return "model admits, upstream refuses"
	case m != "" && u.Admits():
		return "model refuses, upstream admits"
	}
	return "both refuse, another message"
}

// TestResourceQuotaAdmission compares the model's ResourceQuota
// admission with the API server's on -cases random cases: the model's
// refusal (or admission) is one upstream gives for some order of the
// quotas, or a known class explains the difference. The counts per
// outcome and class are logged (go test -v).
func TestResourceQuotaAdmission(t *testing.T) {
	classify.Checks(t, *cases, *seed)
	var counts classify.Counter
	rapid.Check(t, func(rt *rapid.T) {
		c := GenCase(rt)
		u, err := RealRefusals(c)
		if err != nil {
			rt.Fatalf("%v\n%s", err, c)
		}
		counts.Add("upstream: " + outcome(u.Refusals[0]))
		if len(u.Refusals) > 1 {
			counts.Add("upstream's refusal depends on the quotas' order")
		}
		if len(u.Invalid) > 0 {
			counts.Add("a quota the API server refuses")
		}
		sm := same(rt)
		if sm(c) {
			counts.Add("agree")
			return
		}
		class := classify.Classify(Classes, c, sm)
		if class == "" {
			m, _ := ModelRefusal(c)
			rt.Fatalf("unexplained disagreement\n%smodel:    %q\nupstream: %q (invalid quotas %q)", c, m, u.Refusals, u.Invalid)
		}
		m, _ := ModelRefusal(c)
		counts.Add("class: " + class)
		counts.Add("class: " + class + ": " + direction(m, u))
	})
	counts.Log(t)
}

// TestKnownClasses pins a minimal example of every class.
func TestKnownClasses(t *testing.T) {
	one := []Container{{Requests: Resources{"cpu": "100m", "memory": "64Mi"}}}
	pods := func(n string) []Quota { return []Quota{{Name: "q", Hard: Resources{"pods": n}}} }
	for _, tc := range []struct {
		name string
		c    Case
	}{
		// A deleted pod 20 s into its 30 s grace period takes the last
		// of two pods.
		{"terminating pod within its grace period", Case{Specs: []Spec{{Containers: one}}, Quotas: pods("2"),
			Pods: []Pod{{Phase: Running}, {Phase: Running, Deleted: true, WithinGrace: true}}}},
		// A Succeeded pod's object takes the only count/pods.
		{"Succeeded pod object gone", Case{Specs: []Spec{{Containers: one}},
			Quotas: []Quota{{Name: "q", Hard: Resources{"count/pods": "1"}}}, Pods: []Pod{{Phase: Succeeded}}}},
		// 100M is 95.37Mi, which the model reads as 96Mi: both refuse a
		// second such pod, upstream with "used: requests.memory=100M",
		// the model with 96Mi.
		{"sub-unit quantity", Case{Specs: []Spec{{Containers: []Container{{Requests: Resources{"cpu": "100m", "memory": "100M"}}}}},
			Quotas: []Quota{{Name: "q", Hard: Resources{"requests.memory": "128Mi"}}}, Pods: []Pod{{Phase: Running}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sm := same(t)
			if sm(&tc.c) {
				t.Fatal("the model and upstream agree")
			}
			if got := classify.Classify(Classes, &tc.c, sm); got != tc.name {
				t.Fatalf("class %q, want %q", got, tc.name)
			}
		})
	}
}

// TestPlantedPipelines shows that the comparison has teeth: wrong
// pipelines put in upstream's place produce unexplained disagreements
// on some of the first cases (fixed seeds).
func TestPlantedPipelines(t *testing.T) {
	n := min(*cases, 500)
	for name, p := range map[string]Pipeline{
		"no SetDefaults_Pod":             {NoPodDefaults: true},
		"no status.used":                 {NoUsage: true},
		"no globalDefault PriorityClass": {NoDefaultClass: true},
	} {
		t.Run(name, func(t *testing.T) {
			found := 0
			var first *Case
			for i := range n {
				c := rapid.Custom(GenCase).Example(i)
				sm := sameThrough(t, p)
				if !sm(c) && classify.Classify(Classes, c, sm) == "" {
					if first == nil {
						first = c
					}
					found++
				}
			}
			if found == 0 {
				t.Fatalf("the planted pipeline was never caught in %d cases", n)
			}
			t.Logf("caught on %d of %d cases, e.g.\n%s", found, n, first)
		})
	}
}
