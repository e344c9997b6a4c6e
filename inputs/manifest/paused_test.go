package manifest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestPausedDeployment: spec.paused is read (true, false or left out) and
// warned about no more; a paused Deployment starts without a ReplicaSet,
// so without pods. Whether the manifest sets the field is kept, for the
// next kubectl apply's merge.
func TestPausedDeployment(t *testing.T) {
	for _, tc := range []struct {
		field  string
		paused bool
	}{{"  paused: true\n", true}, {"  paused: false\n", false}, {"", false}} {
		r := load(t, strings.Replace(webDeployment("      containers: [{name: c}]\n"), "spec:\n", "spec:\n"+tc.field, 1))
		if w := warningText(r.Warnings); strings.Contains(w, "paused") {
			t.Errorf("%q: warned %s", tc.field, w)
		}
		d := r.Cluster.Deployments[0]
		if d.Paused != tc.paused || d.RolledOut {
			t.Errorf("%q: paused %v rolled out %v, want paused %v, not rolled out", tc.field, d.Paused, d.RolledOut, tc.paused)
		}
		if d.PausedSet != (tc.field != "") {
			t.Errorf("%q: pausedSet %v", tc.field, d.PausedSet)
		}
		u, s, err := r.Cluster.Build()
		if err != nil {
			t.Fatal(err)
		}
		if got, set := u.IsPaused(s, 0), s.Deps[0].RS[0].Template != 0; got != tc.paused || set == tc.paused {
			t.Errorf("%q: built paused %v with a ReplicaSet %v", tc.field, got, set)
		}
	}
}

// TestPausedCurrentPlacement: a running cluster's paused Deployment keeps
// the ReplicaSet and pods of the dump (rolledOut).
func TestPausedCurrentPlacement(t *testing.T) {
	web := func(name, node string) string {
		return dumpPod("shop", "web-5d4f-"+name, "ReplicaSet/web-5d4f", node, "Running", "1", "app: web", "pod-template-hash: 5d4f")
	}
	stream := strings.Replace(dumpWorkloads, "    replicas: 3\n    selector: {matchLabels: {app: web}}", "    replicas: 3\n    paused: true\n    selector: {matchLabels: {app: web}}", 1) +
		web("a", "n1") + web("b", "n2") + web("c", "n3")
	r, i := loadWebDump(t, stream)
	if d := &r.Cluster.Deployments[i]; !d.Paused || !d.RolledOut {
		t.Fatalf("web: %+v, want paused and rolled out", d)
	}
	if got := strings.Join(placement(t, r), " "); !strings.Contains(got, "web@n1 web@n2 web@n3") {
		t.Errorf("placement %s, want web's three pods where they run", got)
	}
	u, s, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	for i := range u.Deployments {
		if u.Deployments[i].Name == "web" && (!u.IsPaused(s, i) || s.Deps[i].RS[0].Replicas != 3) {
			t.Errorf("web built: paused %v, ReplicaSet %+v; want paused with its set of 3", u.IsPaused(s, i), s.Deps[i].RS[0])
		}
	}
}

// TestPausedAppliedManifest: a manifest an event applies carries its
// spec.paused, or none when it leaves the field out.
func TestPausedAppliedManifest(t *testing.T) {
	v2 := func(paused string) string {
		return strings.Replace(webDeployment("      containers: [{name: c, image: v2}]\n"), "spec:\n", "spec:\n"+paused, 1)
	}
	for _, tc := range []struct {
		field string
		want  *bool
	}{{"  paused: true\n", new(true)}, {"  paused: false\n", new(false)}, {"", nil}} {
		intents := "intents:\n- name: pod_always_schedulable\nevents:\n- {kind: applyDeployment, manifest: v2.yaml}\n"
		opts := testOptions()
		opts.ReadFile = func(string) ([]byte, error) { return []byte(v2(tc.field)), nil }
		r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + webDeployment("      containers: [{name: c}]\n"))}}, nil,
			&File{Name: "intents.yaml", Data: []byte(intents)}, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Cluster.DeploymentTemplates[0].Paused
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%q: paused %v, want %v", tc.field, got, tc.want)
		}
	}
}

// TestPausedEventOfStatefulSet: kubectl does not pause or resume a
// StatefulSet ("pausing is not supported"): an input error naming the
// intents file and the event's deployment field.
func TestPausedEventOfStatefulSet(t *testing.T) {
	db := `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c}]}
`
	for _, kind := range []string{"rolloutPause", "rolloutResume"} {
		intents := "intents:\n- name: pod_always_schedulable\nevents:\n- {kind: " + kind + ", deployment: db}\n"
		_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + db)}}, nil, &File{Name: "intents.yaml", Data: []byte(intents)}, testOptions())
		if err == nil || !strings.Contains(err.Error(), "intents.yaml: events[0].deployment: db is a StatefulSet: ") || !strings.Contains(err.Error(), "is not supported") {
			t.Errorf("%s of a StatefulSet: %v", kind, err)
		}
	}
}

// TestPausedCurrentPlacementNeverRolledOut: a dump's paused Deployment
// with no pod, in the dump or in its status, was created paused and never
// resumed: it has no ReplicaSet (upstream's paused sync would have scaled
// an existing one to spec.replicas).
func TestPausedCurrentPlacementNeverRolledOut(t *testing.T) {
	for _, tc := range []struct {
		name, status string
		rolledOut    bool
	}{
		{"no pods", "  status: {}\n", false},
		{"pods in its status only (unbound ones left out)", "  status: {replicas: 3}\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream := strings.Replace(dumpWorkloads, "    replicas: 3\n    selector: {matchLabels: {app: web}}", "    replicas: 3\n    paused: true\n    selector: {matchLabels: {app: web}}", 1)
			stream = strings.Replace(stream, "  status: {replicas: 3, availableReplicas: 3}\n", tc.status, 1)
			r, err := LoadStream([]File{{Name: "dump.yaml", Data: []byte(stream)}}, &File{Name: "nodes.yaml", Data: []byte(dumpNodes)}, nil, Options{CurrentPlacement: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range r.Cluster.Deployments {
				if d.Name == "web" && (!d.Paused || d.RolledOut != tc.rolledOut) {
					t.Errorf("web: paused %v rolled out %v, want paused, rolled out %v", d.Paused, d.RolledOut, tc.rolledOut)
				}
			}
			if _, _, err := r.Cluster.Build(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPausedTemplateChangedWhilePaused: a dump's paused Deployment whose
// pods are those of a ReplicaSet of another template (its template
// changed while it was paused) starts with that set and its template
// (rolledOutTemplate), so that the resume rolls the new one out; a
// ReplicaSet of its own template, or none in the dump, leaves its pods
// its current template's (warned when the dump has no ReplicaSet).
func TestPausedTemplateChangedWhilePaused(t *testing.T) {
	web := func(name, node string) string {
		return dumpPod("shop", "web-5d4f-"+name, "ReplicaSet/web-5d4f", node, "Running", "500m", "app: web", "pod-template-hash: 5d4f")
	}
	paused := strings.Replace(dumpWorkloads, "    replicas: 3\n    selector: {matchLabels: {app: web}}", "    replicas: 3\n    paused: true\n    selector: {matchLabels: {app: web}}", 1)
	pods := web("a", "n1") + web("b", "n2") + web("c", "n3")
	for _, tc := range []struct {
		name      string
		sets      string
		rolledOut string // the rolledOutTemplate wanted
		warning   string
	}{
		{"older template", shopReplicaSet("5d4f", "500m", 3), "replicaset:shop/web-5d4f", ""},
		{"older template, an empty set of the one before", shopReplicaSet("5d4f", "500m", 3) + shopReplicaSet("77aa", "250m", 0), "replicaset:shop/web-5d4f", ""},
		{"its own template (quantities written otherwise)", shopReplicaSet("5d4f", "1000m", 3), "", ""},
		{"no ReplicaSet in the dump", "", "", "is paused and the input has none of its ReplicaSets"},
		{"two older sets with replicas", shopReplicaSet("5d4f", "500m", 2) + shopReplicaSet("77aa", "250m", 1), "", "has 2 ReplicaSets of older templates with replicas"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, i := loadWebDump(t, paused+tc.sets+pods)
			if d := &r.Cluster.Deployments[i]; !d.RolledOut || d.RolledOutTemplate != tc.rolledOut {
				t.Fatalf("web: %+v, want rolled out with rolledOutTemplate %q", d, tc.rolledOut)
			}
			if w := warningText(r.Warnings); (tc.warning == "") == strings.Contains(w, "ReplicaSets") || !strings.Contains(w, tc.warning) {
				t.Errorf("warnings %s, want %q", w, tc.warning)
			}
			u, s, err := r.Cluster.Build()
			if err != nil {
				t.Fatal(err)
			}
			dep := slices.IndexFunc(u.Deployments, func(d model.Deployment) bool { return d.Name == "web" })
			want := 1000
			if tc.rolledOut != "" {
				want = 500
			}
			cur := u.Configs[s.Deps[dep].Config].PodTemplate
			for _, p := range s.Pods {
				if int(p.Owner) != dep+1 {
					continue
				}
				if got := u.Templates[p.Template].CPU; got != int64(want) || (tc.rolledOut != "") == (int(p.Template) == cur) {
					t.Errorf("web's pod: template %d (cpu %d), the Deployment's %d; want cpu %d", p.Template, got, cur, want)
				}
			}
			if rs := s.Deps[dep].RS[0]; int(rs.Template) != int(s.Pods[0].Template)+1 && tc.rolledOut != "" || rs.Replicas != 3 {
				t.Errorf("web's ReplicaSet %+v", rs)
			}
		})
	}
}

// TestMidRolloutDump: a dump's Deployment in the middle of a rollout (the
// ReplicaSet of its template and an older one with replicas, each with
// its pods; 2 + 2 of 3 replicas, surging) starts with both sets at their
// spec.replicas and each pod in
// its own set and template; without the ReplicaSets its pods are all
// taken as the current template's, with a warning saying how to give
// them.
func TestMidRolloutDump(t *testing.T) {
	pod := func(hash, name, node, cpu string) string {
		return dumpPod("shop", "web-"+hash+"-"+name, "ReplicaSet/web-"+hash, node, "Running", cpu, "app: web", "pod-template-hash: "+hash)
	}
	pods := pod("77aa", "a", "n1", "1") + pod("77aa", "b", "n2", "1") + pod("5d4f", "c", "n3", "500m") + pod("5d4f", "d", "n1", "500m")
	for _, tc := range []struct {
		name    string
		sets    string
		old     bool
		warning string
	}{
		{"with its ReplicaSets", shopReplicaSet("77aa", "1", 2) + shopReplicaSet("5d4f", "500m", 2), true, ""},
		{"without them", "", false, "is in the middle of a rollout (pods of 2 ReplicaSets"},
		{"no set of its template yet", shopReplicaSet("5d4f", "500m", 2), false, "has no ReplicaSet of its template yet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, i := loadWebDump(t, dumpWorkloads+tc.sets+pods)
			w := warningText(r.Warnings)
			if tc.warning == "" && strings.Contains(w, "rollout") || !strings.Contains(w, tc.warning) || strings.Contains(w, "skipped") {
				t.Errorf("warnings %s, want %q (and the ReplicaSets read, not skipped)", w, tc.warning)
			}
			d := r.Cluster.Deployments[i]
			if got := d.OldReplicaSet != nil; got != tc.old {
				t.Fatalf("web: oldReplicaSet %+v, want one: %v", d.OldReplicaSet, tc.old)
			}
			u, s, err := r.Cluster.Build()
			if err != nil {
				t.Fatal(err)
			}
			ds := s.Deps[i]
			cur := u.Configs[ds.Config].PodTemplate
			want := [2]model.ReplicaSetState{{Template: uint8(cur + 1), Replicas: 3}}
			if tc.old {
				want = [2]model.ReplicaSetState{{Template: uint8(cur + 1), Replicas: 2}, {Template: ds.RS[1].Template, Replicas: 2}}
				if old := int(ds.RS[1].Template) - 1; old == cur || u.Templates[old].CPU != 500 {
					t.Errorf("older set's template %d (cpu %d), want 500m, not the current %d", old, u.Templates[old].CPU, cur)
				}
			}
			if ds.RS != want {
				t.Errorf("ReplicaSets %+v, want %+v", ds.RS, want)
			}
			// Mid-rollout (or with more pods than replicas), the
			// Deployment controller has work to do from the start.
			if !slices.Contains(s.Queues[model.DeploymentQueue], uint16(i)) {
				t.Errorf("web not queued for its controller")
			}
			var got []string
			for _, p := range s.Pods {
				if int(p.Owner) == i+1 {
					got = append(got, fmt.Sprintf("rs%d/cpu%d", p.RS, u.Templates[p.Template].CPU))
				}
			}
			slices.Sort(got)
			wantPods := "rs0/cpu1000 rs0/cpu1000 rs0/cpu1000 rs0/cpu1000"
			if tc.old {
				wantPods = "rs0/cpu1000 rs0/cpu1000 rs1/cpu500 rs1/cpu500"
			}
			if strings.Join(got, " ") != wantPods {
				t.Errorf("web's pods %v, want %s", got, wantPods)
			}
		})
	}
}

// shopReplicaSet is web's ReplicaSet web-<hash> in namespace shop, of a
// pod template asking cpu, at replicas.
func shopReplicaSet(hash, cpu string, replicas int) string {
	return fmt.Sprintf(`- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-%s
    namespace: shop
    labels: {app: web, pod-template-hash: %s}
    ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, controller: true}]
  spec:
    replicas: %d
    selector: {matchLabels: {app: web, pod-template-hash: %s}}
    template:
      metadata: {labels: {app: web, pod-template-hash: %s}}
      spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "%s", memory: 1Gi}}}]}
`, hash, hash, replicas, hash, hash, cpu)
}

// loadWebDump reads stream as a running cluster's dump on dumpNodes and
// returns what it read and the position of its Deployment web.
func loadWebDump(t *testing.T, stream string) (*Result, int) {
	t.Helper()
	r, err := LoadStream([]File{{Name: "dump.yaml", Data: []byte(stream)}}, &File{Name: "nodes.yaml", Data: []byte(dumpNodes)}, nil, Options{CurrentPlacement: true})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(r.Cluster.Deployments, func(d model.DeploymentDecl) bool { return d.Name == "web" })
	if i < 0 {
		t.Fatalf("no Deployment web in %+v", r.Cluster.Deployments)
	}
	return r, i
}
