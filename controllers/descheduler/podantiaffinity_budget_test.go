package descheduler

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestAntiAffinityPicksUnderABudget: web and api pods (tier a) share node
// a with a terminating web pod their hostname terms conflict with, so
// both are evicted whatever the order, but their budget lets one
// disruption through: upstream evicts the one its listing order puts
// first and the Eviction API refuses the other. Both outcomes are
// branches.
func TestAntiAffinityPicksUnderABudget(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node())
	tmpl := func(name string) int {
		return b.AddTemplate(build.Template(name).Requests(4, 4).Label("app", name).Label("tier", "a").PodAntiAffinity(model.HostnameKey, "tier", "a"))
	}
	web := b.AddDeployment("web", tmpl("web"), 2)
	api := b.AddDeployment("api", tmpl("api"), 1)
	b.RunPod(web, 0).RunPod(web, 0).RunPod(api, 0)
	b.U.PDBs = append(b.U.PDBs, model.PodDisruptionBudget{Name: "tier-a", Selector: &model.Selector{MatchLabels: map[string]string{"tier": "a"}},
		MinAvailable: &model.IntOrPercent{Value: 1}})
	b.U.Descheduler = policy(antiProfile(false))
	u, s := b.MustBuild()
	s.Pods[0].WasRunning, s.Pods[0].Phase = true, model.Terminating
	s.DeschedulerPending = true
	outcomes := map[string]bool{}
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	for {
		next := s.Clone()
		newCycle(u, next, tx, nil).runDeschedule()
		outcomes[fmt.Sprint(evictedBy(s, next))] = true
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	if len(outcomes) != 2 || !outcomes["[2]"] || !outcomes["[3]"] {
		t.Errorf("outcomes %v, want [2] and [3]", outcomes)
	}
}
