package cases

import "github.com/kivi-go/kivi/model"

func c3Info() Info {
	return Info{ID: "c3", KiviID: "s3", Title: "conflicting topology spread constraints with an HPA", Expect: "pod_always_schedulable",
		Scenario: []string{
			"Hard spreading by hostname and by zone, with one node more in zone 1 than in zone 2: after a",
			"CPU increase the HPA adds one pod that cannot satisfy both constraints (no feasible node).",
		},
		NoViolation: "only the hostname constraint",
		generate:    c3}
}

// c3 is Kivi's case definitions "C3 (s3)": N' = 2⌊s/2⌋+1 nodes, the first m+1 in zone 1
// (m = ⌊N'/2⌋), two pods per node but one on the middle node (2N'−1 in
// all), HPA 91 % with bounds 2N'−1..2N', one CPU increase once stable.
func c3(s int, noViolation bool) *model.Cluster {
	n := 2*(s/2) + 1
	m := n / 2
	slots := 2 * n
	d := kiviDeploymentName(n, slots)
	c := &model.Cluster{PodSlots: slots}
	zone1 := node64("zone-1", 0, s)
	zone1.Labels = map[string]string{"zone": "1"}
	zone2 := node64("zone-2", 0, s)
	zone2.Labels = map[string]string{"zone": "2"}
	// Nodes 0..m−1 and m in zone 1 (i ≤ N'/2), m+1..N'−1 in zone 2.
	addNodes(c, zone1, m, running(d, 2))
	addNodes(c, zone1, 1, running(d, 1))
	addNodes(c, zone2, n-1-m, running(d, 2))
	spread := []model.SpreadDecl{{MaxSkew: 1, TopologyKey: "hostname", WhenUnsatisfiable: "DoNotSchedule", LabelSelector: appSelector()}}
	if !noViolation {
		spread = append(spread, model.SpreadDecl{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: "DoNotSchedule", LabelSelector: appSelector()})
	}
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: 8, Memory: 8, Spread: spread}}
	dep := deployment(d, 2*n-1, s, defaultPerNode)
	// Target 91: at 100 % usage the deviation 9 equals the tolerance
	// ⌊10 % × 91⌋, so the HPA is steady until a pod's usage grows.
	dep.HPA = cpuHPA(91, 2*n-1, 2*n)
	c.Deployments = []model.DeploymentDecl{dep}
	c.Events = []model.EventDecl{{Kind: "eventCpuChange", When: "afterStable", Deployment: d, MaxDelta: 6}}
	return c
}
