package scaling

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// Build materialises one setup as Kivi's generate_case_json does
// and compiles it with model.Cluster.BuildSetup:
//
//   - the setup starts from an empty cluster: every deployment begins not
//     created and a first-slot createTargetDeployment command (run before
//     any controller) creates it, after the cluster's own events;
//   - an HPA with a Factor gets min = replicas, max = min(Factor ×
//     replicas, MaxPodsPerNode × nodes) — the cap is Kivi's and is applied
//     here because model's Factor rule does not know the setup's size.
//
// The cluster is not modified.
func Build(c *model.Cluster, s Setup) (*model.Universe, *model.State, error) {
	sc, err := SetupCluster(c, s)
	if err != nil {
		return nil, nil, err
	}
	return sc.BuildSetup(s.Nodes, s.Replicas)
}

// SetupCluster returns the copy of c that Build compiles for setup s (for
// callers that want to print or reuse it). Slices that change are copied;
// the rest is shared with c.
func SetupCluster(c *model.Cluster, s Setup) (*model.Cluster, error) {
	if len(s.Nodes) != len(c.NodeTypes) || len(s.Replicas) != len(c.Deployments) {
		return nil, fmt.Errorf("setup %s: %d node counts for %d node types, %d replica counts for %d deployments: %w",
			s, len(s.Nodes), len(c.NodeTypes), len(s.Replicas), len(c.Deployments), model.ErrInvalid)
	}
	out := *c
	out.Deployments = append([]model.DeploymentDecl(nil), c.Deployments...)
	out.Events = append([]model.EventDecl(nil), c.Events...)
	nodes := s.TotalNodes()
	for i := range out.Deployments {
		d := &out.Deployments[i]
		notCreated := false
		d.Created = &notCreated
		d.Replicas = s.Replicas[i]
		if h := d.HPA; h != nil && h.Factor > 0 {
			per := maxPodsPerNode(*d)
			k := s.Replicas[i]
			if h.Factor*k > per*nodes {
				capped := *h
				capped.Factor = 0
				capped.Min, capped.Max = k, per*nodes
				d.HPA = &capped
			}
		}
		if !hasFirstCreate(c.Events, d.Name) {
			out.Events = append(out.Events, model.EventDecl{Kind: "createTargetDeployment", When: "first", Deployment: d.Name})
		}
	}
	return &out, nil
}

func hasFirstCreate(events []model.EventDecl, deployment string) bool {
	for _, e := range events {
		if e.Kind == "createTargetDeployment" && e.When == "first" && e.Deployment == deployment {
			return true
		}
	}
	return false
}
