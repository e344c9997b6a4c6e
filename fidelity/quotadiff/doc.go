// Package quotadiff is a differential test of Kivi's ResourceQuota
// admission (model/resourcequota.go, with the manifest reader's quotas
// and pod templates, inputs/manifest) against the API server of
// k8s.io/kubernetes v1.36, run in process.
//
// A case is one namespace: 1–3 pod specs (containers, init containers
// and sidecars with or without cpu and memory requests and limits, a
// priorityClassName, an activeDeadlineSeconds), 1–3 ResourceQuotas
// (pods, count/pods and the requests and limits of cpu and memory;
// spec.scopes and scopeSelector expressions of BestEffort,
// NotBestEffort, Terminating, NotTerminating and PriorityClass with
// In, NotIn, Exists and DoesNotExist), existing pods in every phase,
// some deleted (within their grace period or past it), and the spec of
// a new pod.
//
// The model's answer (model.go) is model.Universe.QuotaRefusal for the
// new pod's template, after manifest.LoadStream read the case's YAML;
// upstream's (upstream.go) is the ResourceQuota admission plugin's
// evaluator (NewQuotaEvaluator, whose CheckRequest applies the
// constraints and compares each matching quota's new usage with its
// hard limits) with kube-apiserver's pod evaluator
// (pkg/quota/v1/evaluator/core), over the statuses the quota
// controller's usage calculation gives the quotas. Upstream lists the
// quotas from an informer cache, in no defined order, so it runs every
// order: the model's refusal must be one of upstream's (and the
// admission, admitted, the same for all).
//
// Every disagreement must belong to a known Class (classify.go), written
// up in docs/divergences.md ("ResourceQuota admission against the API
// server v1.36"); a disagreement no class explains fails the test.
package quotadiff
