package deschedulerdiff

import (
	"context"
	"fmt"

	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kivi-go/kivi/model"
)

// BudgetResult is the comparison of one snapshot's budgets: the status
// each side computes and, per pod, the Eviction API's answer.
type BudgetResult struct {
	// Detail is the first disagreement, "" when they agree.
	Detail string
	// Outcomes counts the real answers by outcome.
	Outcomes map[model.EvictionOutcome]int
}

// CompareBudgets compares model.Universe.Disruption with the disruption
// controller's status for every budget, and model.Universe.CheckEviction
// with the API server's eviction subresource for every pod, each pod
// asked alone against the synced statuses.
func CompareBudgets(ctx context.Context, d *Disruption, s *Snapshot) (*BudgetResult, error) {
	u, st, err := s.ToModel()
	if err != nil {
		return nil, err
	}
	o := s.ToAPI()
	pdbs, err := d.Statuses(ctx, o)
	if err != nil {
		return nil, err
	}
	res := &BudgetResult{Outcomes: map[model.EvictionOutcome]int{}}
	for b, pdb := range pdbs {
		m := u.Disruption(st, b)
		r := model.DisruptionStatus{CurrentHealthy: int(pdb.Status.CurrentHealthy), DesiredHealthy: int(pdb.Status.DesiredHealthy),
			ExpectedPods: int(pdb.Status.ExpectedPods), DisruptionsAllowed: int(pdb.Status.DisruptionsAllowed)}
		if m != r && res.Detail == "" {
			res.Detail = fmt.Sprintf("pdb%d: model %+v, real %+v", b, m, r)
		}
	}
	for i := range s.Pods {
		client := fake.NewClientset()
		for _, b := range pdbs {
			if err := client.Tracker().Add(b.DeepCopy()); err != nil {
				return nil, err
			}
		}
		ev, err := newEvictionAPI(o.pods, client.PolicyV1())
		if err != nil {
			return nil, err
		}
		err = ev.Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: PodName(i), Namespace: s.Deps[s.Pods[i].Dep].namespace()},
			DeleteOptions: &metav1.DeleteOptions{}})
		var real model.EvictionOutcome
		switch {
		case err == nil:
			real = model.EvictionAllowed
		case apierrors.IsTooManyRequests(err):
			real = model.EvictionBudgetExhausted
		case apierrors.IsInternalError(err) || apierrors.ReasonForError(err) == metav1.StatusReasonUnknown:
			real = model.EvictionMultipleBudgets
		default:
			return nil, fmt.Errorf("evicting %s: %w", PodName(i), err)
		}
		res.Outcomes[real]++
		if m := u.CheckEviction(st, i).Outcome; m != real && res.Detail == "" {
			res.Detail = fmt.Sprintf("evicting %s: model outcome %d, real %d (%v)", PodName(i), m, real, err)
		}
	}
	return res, nil
}
