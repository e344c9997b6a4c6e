package templatediff

import (
	"encoding/json"
	"flag"
	"fmt"
	"testing"
	_ "unsafe" // go:linkname

	"pgregory.net/rapid"

	appsv1 "k8s.io/api/apps/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"k8s.io/kubernetes/pkg/controller/history"
	_ "k8s.io/kubernetes/pkg/controller/statefulset" // newRevision

	"github.com/kivi-go/kivi/inputs/manifest"
)

var cases = flag.Int("cases", 3000, "template pairs TestStoredPodTemplate compares")

// newRevision builds a StatefulSet's ControllerRevision (the stored
// template's JSON as a patch).
//
//go:linkname newRevision k8s.io/kubernetes/pkg/controller/statefulset.newRevision
func newRevision(set *appsv1.StatefulSet, revision int64, collisionCount *int32) (*appsv1.ControllerRevision, error)

// upstreamSame says whether templates a and b (JSON) are one ReplicaSet
// of a Deployment, or one revision of a StatefulSet.
func upstreamSame(t *rapid.T, a, b []byte, statefulSet bool) bool {
	if statefulSet {
		ra, rb := revisionOf(t, a), revisionOf(t, b)
		return history.EqualRevision(ra, rb)
	}
	da, db := deploymentOf(t, a), deploymentOf(t, b)
	return deploymentutil.EqualIgnoreHash(&da.Spec.Template, &db.Spec.Template)
}

func deploymentOf(t *rapid.T, template []byte) *appsv1.Deployment {
	d := &appsv1.Deployment{}
	if err := json.Unmarshal([]byte(`{"spec":{"template":`+string(template)+`}}`), d); err != nil {
		t.Fatalf("decode: %v\n%s", err, template)
	}
	appsdefaults.SetObjectDefaults_Deployment(d)
	return d
}

func revisionOf(t *rapid.T, template []byte) *appsv1.ControllerRevision {
	s := &appsv1.StatefulSet{}
	if err := json.Unmarshal([]byte(`{"spec":{"template":`+string(template)+`}}`), s); err != nil {
		t.Fatalf("decode: %v\n%s", err, template)
	}
	appsdefaults.SetObjectDefaults_StatefulSet(s)
	var collisions int32
	r, err := newRevision(s, 1, &collisions)
	if err != nil {
		t.Fatalf("newRevision: %v", err)
	}
	return r
}

// TestStoredPodTemplate: manifest.StoredPodTemplate's keys are equal
// exactly where upstream finds the templates equal.
func TestStoredPodTemplate(t *testing.T) {
	old := flag.Lookup("rapid.checks").Value.String()
	_ = flag.Set("rapid.checks", fmt.Sprint(*cases))
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		p := genPod().Draw(rt, "pod")
		changed := rapid.IntRange(0, 3).Draw(rt, "change") == 0
		q := p
		if changed {
			q = change(rt, p)
		}
		a, b := p.render(rt, "a"), q.render(rt, "b")
		statefulSet := rapid.Bool().Draw(rt, "statefulSet")
		up := upstreamSame(rt, a, b, statefulSet)
		ours := manifest.StoredPodTemplate(a, statefulSet) == manifest.StoredPodTemplate(b, statefulSet)
		if up != ours {
			rt.Fatalf("statefulSet %v: upstream same %v, model same %v\na: %s\nb: %s\nmodel a: %s\nmodel b: %s", statefulSet, up, ours, a, b,
				manifest.StoredPodTemplate(a, statefulSet), manifest.StoredPodTemplate(b, statefulSet))
		}
		counts[fmt.Sprintf("same %v", up)]++
	})
	t.Logf("pairs the same: %d, different: %d", counts["same true"], counts["same false"])
}

// TestPlanted: the comparison fails on a model that compares templates
// as written, and on an upstream side without the defaulting.
func TestPlanted(t *testing.T) {
	asWritten := 0
	noDefaults := 0
	rapid.Check(t, func(rt *rapid.T) {
		p := genPod().Draw(rt, "pod")
		a, b := p.render(rt, "a"), p.render(rt, "b")
		var ma, mb any
		_ = json.Unmarshal(a, &ma)
		_ = json.Unmarshal(b, &mb)
		ja, _ := json.Marshal(ma)
		jb, _ := json.Marshal(mb)
		if (string(ja) == string(jb)) != upstreamSame(rt, a, b, false) {
			asWritten++
		}
		da, db := &appsv1.Deployment{}, &appsv1.Deployment{}
		_ = json.Unmarshal([]byte(`{"spec":{"template":`+string(a)+`}}`), da)
		_ = json.Unmarshal([]byte(`{"spec":{"template":`+string(b)+`}}`), db)
		if apiequality.Semantic.DeepEqual(da.Spec.Template, db.Spec.Template) != upstreamSame(rt, a, b, false) {
			noDefaults++
		}
	})
	if asWritten == 0 || noDefaults == 0 {
		t.Fatalf("planted comparisons undetected: as written %d, without defaults %d", asWritten, noDefaults)
	}
	t.Logf("disagreements: as written %d, without defaults %d", asWritten, noDefaults)
}
