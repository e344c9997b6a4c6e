package manifest

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// ResourceQuotas. The API server's ResourceQuota admission refuses a pod
// that does not specify a resource a quota limits, or whose creation
// would take its namespace past a quota's hard limits
// (model/resourcequota.go has the behaviour). The model counts pods,
// requests and limits of cpu and memory (model.QuotaResources), and the
// BestEffort, NotBestEffort, Terminating and NotTerminating scopes;
// everything else a quota may limit is warned about and not checked.

// ResourceQuota is the part of a v1 ResourceQuota the model reads.
type ResourceQuota struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		Hard          map[string]QuantityText `json:"hard"`
		Scopes        []string                `json:"scopes"`
		ScopeSelector *struct {
			MatchExpressions []struct {
				ScopeName string   `json:"scopeName"`
				Operator  string   `json:"operator"`
				Values    []string `json:"values"`
			} `json:"matchExpressions"`
		} `json:"scopeSelector"`
	} `json:"spec"`
}

// quotaScopes are the scopes the model reads.
var quotaScopes = []string{"BestEffort", "NotBestEffort", "Terminating", "NotTerminating"}

// resourceQuotaDecls reads the ResourceQuotas among objs. A quota whose
// scopes select no pod (BestEffort with NotBestEffort, Terminating with
// NotTerminating) or that the model cannot scope
// (CrossNamespacePodAffinity, VolumeAttributesClass) is left out, with a
// warning for the latter.
func resourceQuotaDecls(objs []Object, warns *[]Warning) ([]model.ResourceQuota, error) {
	var out []model.ResourceQuota
	seen := firstSeen{}
	for _, o := range objs {
		rq, ok := o.Value.(*ResourceQuota)
		if !ok {
			continue
		}
		a := o.at()
		ns := namespaceOf(rq.Metadata.Namespace)
		key := ns + "/" + rq.Metadata.Name
		if err := seen.add(o, "ResourceQuota", key, "namespace and name"); err != nil {
			return nil, err
		}
		q := model.ResourceQuota{Name: rq.Metadata.Name, Namespace: ns, Hard: map[string]int64{}}
		keep := true
		for i, scope := range rq.Spec.Scopes {
			ok, err := scopeOf(o, &q, o.path(index("spec.scopes", i)), scope, "Exists", nil, warns)
			if err != nil {
				return nil, err
			}
			keep = keep && ok
		}
		if sel := rq.Spec.ScopeSelector; sel != nil {
			for i, e := range sel.MatchExpressions {
				ok, err := scopeOf(o, &q, o.path(index("spec.scopeSelector.matchExpressions", i)), e.ScopeName, e.Operator, e.Values, warns)
				if err != nil {
					return nil, err
				}
				keep = keep && ok
			}
		}
		names := make([]string, 0, len(rq.Spec.Hard))
		for name := range rq.Spec.Hard {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			p := o.path("spec.hard." + name)
			if !slices.Contains(model.QuotaResources, name) {
				if quotaOutsideModel(name) {
					continue
				}
				*warns = append(*warns, a.warning(p, "ignored: %s is not checked (checked: %s)", name, strings.Join(model.QuotaResources, ", ")))
				continue
			}
			kind := cpuRequest
			if strings.HasSuffix(name, "memory") {
				kind = memoryRequest
			}
			v, err := quotaValue(a, p, rq.Spec.Hard[name], kind, name == "pods" || name == "count/pods")
			if err != nil {
				return nil, err
			}
			q.Hard[name] = v
		}
		if keep && len(q.Hard) > 0 {
			out = append(out, q)
		}
	}
	return out, nil
}

// quotaValue converts a hard limit to model units, rounding down (a
// sub-unit remainder can only make the quota look tighter); count limits
// must be whole numbers.
func quotaValue(a at, path string, t QuantityText, kind resourceKind, count bool) (int64, error) {
	q, err := t.Parse()
	if err != nil {
		return 0, a.errorf(path, "%s is not %s", strconv.Quote(t.Text), quantityGrammar)
	}
	if q.Sign() < 0 {
		return 0, a.errorf(path, "%s is negative (accepted: a quantity ≥ 0)", strconv.Quote(t.Text))
	}
	unit, name := mebibyte, "MiB"
	switch {
	case count:
		unit, name = big1, "pods"
	case kind.isCPU():
		unit, name = milliCore, "millicores"
	}
	v, ok := q.Scaled(unit, false)
	if !ok || v > maxModelValue {
		return 0, a.errorf(path, "%s is too large for the model (accepted: at most %d %s)", strconv.Quote(t.Text), maxModelValue, name)
	}
	return v, nil
}

// scopeOf adds one scope of quota q (a spec.scopes entry, operator
// Exists, or a scopeSelector expression, at path) to q, as the API
// server validates it; keep is false when the quota can count no pod
// (BestEffort with NotBestEffort, Terminating with NotTerminating) or is
// not modelled (warned).
func scopeOf(o Object, q *model.ResourceQuota, path, scope, operator string, values []string, warns *[]Warning) (keep bool, err error) {
	a := o.at()
	if scope != "PriorityClass" && operator != "Exists" {
		if !slices.Contains(append(slices.Clone(quotaScopes), "CrossNamespacePodAffinity", "VolumeAttributesClass"), scope) {
			return false, a.errorf(path, "%s is not a quota scope (accepted: %s, PriorityClass, CrossNamespacePodAffinity, VolumeAttributesClass)", strconv.Quote(scope), strings.Join(quotaScopes, ", "))
		}
		return false, a.errorf(path+".operator", "%q for scope %s (accepted: Exists; only PriorityClass takes In, NotIn or DoesNotExist)", operator, scope)
	}
	switch scope {
	case "BestEffort", "NotBestEffort":
		return setPairedScope(&q.BestEffort, scope == "BestEffort"), nil
	case "Terminating", "NotTerminating":
		return setPairedScope(&q.Terminating, scope == "Terminating"), nil
	case "PriorityClass":
		switch operator {
		case "In", "NotIn":
			if len(values) == 0 {
				return false, a.errorf(path+".values", "empty for %s (accepted: the PriorityClass names the operator compares with)", operator)
			}
		case "Exists", "DoesNotExist":
			if len(values) > 0 {
				return false, a.errorf(path+".values", "%v for %s (accepted: none)", values, operator)
			}
		default:
			return false, a.errorf(path+".operator", "%q (accepted: In, NotIn, Exists, DoesNotExist)", operator)
		}
		q.PriorityClasses = append(q.PriorityClasses, model.PriorityClassScope{Operator: operator, Values: values})
		return true, nil
	case "CrossNamespacePodAffinity", "VolumeAttributesClass":
		*warns = append(*warns, a.warning(path, "ignored: the quota is not applied (scope %s is not modelled; modelled: %s, PriorityClass)", scope, strings.Join(quotaScopes, ", ")))
		return false, nil
	}
	return false, a.errorf(path, "%s is not a quota scope (accepted: %s, PriorityClass, CrossNamespacePodAffinity, VolumeAttributesClass)", strconv.Quote(scope), strings.Join(quotaScopes, ", "))
}

// setPairedScope sets a quota's side of a scope and its negation (1 the
// scope, -1 its Not scope) and reports false when the quota already had
// the other side: with both, no pod is in its scope.
func setPairedScope(side *int8, positive bool) bool {
	v := int8(-1)
	if positive {
		v = 1
	}
	keep := *side != -v
	*side = v
	return keep
}

// quotaQuietCounts are the object counts a quota may limit that can
// change no verdict: the model creates none of these objects, and the
// objects of these kinds in the manifests are skipped anyway.
var quotaQuietCounts = []string{"configmaps", "secrets", "services", "services.loadbalancers",
	"services.nodeports", "resourcequotas", "replicationcontrollers"}

// quotaCreatedCounts are the count/ resources of objects the manifests or
// the model's controllers create (pods, ReplicaSets of a rollout, Jobs of
// a CronJob, a StatefulSet's claims, the workloads themselves): a quota
// on them could refuse one, so it is warned about.
var quotaCreatedCounts = []string{"pods", "replicasets.apps", "jobs.batch", "persistentvolumeclaims",
	"deployments.apps", "statefulsets.apps", "daemonsets.apps", "cronjobs.batch",
	"horizontalpodautoscalers.autoscaling", "poddisruptionbudgets.policy", "priorityclasses.scheduling.k8s.io"}

// quotaOutsideModel says whether a quota's hard limit on name is about
// objects the model neither creates nor reads, so that ignoring it is
// exact and needs no warning.
func quotaOutsideModel(name string) bool {
	if slices.Contains(quotaQuietCounts, name) {
		return true
	}
	res, ok := strings.CutPrefix(name, "count/")
	return ok && !slices.Contains(quotaCreatedCounts, res)
}
