package scheduler

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// genLabelKeys gives some of u's spread constraints matchLabelKeys and
// some inter-pod terms matchLabelKeys or mismatchLabelKeys, before
// Compile: pod-template-hash (the owner's revision, which makes matching
// depend on the pods' owners) and app (every template carries it; a
// mismatch key, since the terms' selectors name app), so that genCluster's
// questions cover the merged selectors and the decision memo's owner
// classes.
func genLabelKeys(t *rapid.T, u *model.Universe) {
	draw := func(label string) bool { return rapid.IntRange(0, 3).Draw(t, label) == 0 }
	term := func(k *model.PodAffinityTerm) {
		if draw("termMatchLabelKeys") {
			k.MatchLabelKeys = []string{model.PodTemplateHashKey}
		} else if draw("termMismatchLabelKeys") {
			k.MismatchLabelKeys = []string{rapid.SampledFrom([]string{model.PodTemplateHashKey, "app"}).Draw(t, "mismatchKey")}
		}
	}
	for i := range u.Templates {
		tm := &u.Templates[i]
		for j := range tm.Spread {
			if draw("spreadMatchLabelKeys") {
				tm.Spread[j].MatchLabelKeys = []string{model.PodTemplateHashKey}
			}
		}
		for j := range tm.PodAffinity {
			term(&tm.PodAffinity[j])
		}
		for j := range tm.PodAntiAffinity {
			term(&tm.PodAntiAffinity[j])
		}
		for j := range tm.PreferredPodAffinity {
			term(&tm.PreferredPodAffinity[j].Term)
		}
		for j := range tm.PreferredPodAntiAffinity {
			term(&tm.PreferredPodAntiAffinity[j].Term)
		}
	}
}

// TestInterPodPlanKinds: InterPodAffinity's per-kind tables say of every
// pair of an incoming pod and an existing pod what the terms' merged
// selectors say of the two pods (model.PodAffinityTerm.Matches), owners,
// templates and bare pods included.
func TestInterPodPlanKinds(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		u, _ := genCluster(rt)
		owned, bare, _ := newInterPodPlans(u)
		if owned == nil {
			return
		}
		T := len(u.Templates)
		var pods []model.PodState
		for o := range len(u.Deployments) + 1 {
			for tm := range T {
				pods = append(pods, model.PodState{Owner: uint8(o), Template: uint8(tm)})
			}
		}
		for _, p := range pods {
			pl := owned[p.Template]
			if p.Owner == 0 {
				pl = bare[p.Template]
			}
			ti := &u.Templates[p.Template]
			for _, q := range pods {
				e := pl.podKind(&q, p.Owner, T)
				all := len(ti.PodAffinity) > 0
				for i := range ti.PodAffinity {
					all = all && ti.PodAffinity[i].Matches(&p, &q)
				}
				if pl.matchesAll[e] != all {
					rt.Fatalf("incoming %+v existing %+v: matchesAll %v, want %v", p, q, pl.matchesAll[e], all)
				}
				for i := range ti.PodAntiAffinity {
					if got, want := pl.anti[i].matches[e], ti.PodAntiAffinity[i].Matches(&p, &q); got != want {
						rt.Fatalf("incoming %+v existing %+v: anti-affinity term %d matches %v, want %v", p, q, i, got, want)
					}
				}
				var want []model.KeyID
				for _, k := range u.Templates[q.Template].PodAntiAffinity {
					if k.Matches(&q, &p) {
						want = append(want, k.Key)
					}
				}
				if !slices.Equal(pl.existingAnti[e], want) {
					rt.Fatalf("incoming %+v existing %+v: existing anti-affinity keys %v, want %v", p, q, pl.existingAnti[e], want)
				}
			}
		}
	})
}
