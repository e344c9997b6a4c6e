package deschedulerdiff

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// StatusesOf is Statuses for objects other tests build: the budgets with the status the disruption controller
// writes for these pods, ReplicaSets and Deployments.
func (d *Disruption) StatusesOf(ctx context.Context, pods []*v1.Pod, pdbs []*policyv1.PodDisruptionBudget,
	replicaSets []*appsv1.ReplicaSet, deployments []*appsv1.Deployment) ([]*policyv1.PodDisruptionBudget, error) {
	return d.Statuses(ctx, &objects{pods: pods, pdbs: pdbs, replicaSets: replicaSets, deployments: deployments})
}
