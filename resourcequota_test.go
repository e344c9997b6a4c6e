package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestResourceQuotas: the ResourceQuota admission refuses the pods that
// would take a namespace past its quota, and the ReplicaSet gets its pods
// once the quota has room again.
//
// Deployments a and b (two replicas of 100m each) share namespace shop.
// A quota of three pods (or of 300m) leaves one of them a pod short,
// whichever is created first: replica_num_always_meet_exp (spec) fails
// for the one left short when nothing else happens. Scaling a down to one
// replica frees a pod of the quota, and the ReplicaSet the quota held
// back gets its second pod: both reach their spec. A quota of another
// namespace, or one scoped to BestEffort pods (these have requests),
// changes nothing; neither does a Terminating-scoped one (a
// Deployment's pods have no activeDeadlineSeconds).
func TestResourceQuotas(t *testing.T) {
	deployment := func(name, resources string) string {
		return `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      containers: [{name: c, resources: ` + resources + `}]
`
	}
	const requests, limits = "{requests: {cpu: 100m, memory: 64Mi}}", "{limits: {cpu: 200m, memory: 64Mi}}"
	quota := func(ns, hard, scopes string) string {
		return `---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: ` + ns + `}
spec:
  hard: {` + hard + `}
  scopes: [` + scopes + `]
`
	}
	intents := func(events string) string {
		return `intents:
- name: replica_num_always_meet_exp
  params: {deployment: a, expReplicas: spec}
- name: replica_num_always_meet_exp
  params: {deployment: b, expReplicas: spec}
` + events
	}
	const scaleDown = `events:
- kind: scaleDeployment
  deployment: a
  replicas: 1
  when: afterStable
`
	const exceeded = "is forbidden: exceeded quota: compute"
	for _, c := range []struct {
		name      string
		quota     string
		resources string // of both Deployments' container
		events    string
		want      checker.Verdict
		refusal   string // in the counterexample
	}{
		{"no quota", "", requests, "", checker.Holds, ""},
		{"three pods", quota("shop", "pods: \"3\"", ""), requests, "", checker.Violated, exceeded + ", requested: pods=1, used: pods=3, limited: pods=3"},
		{"300m", quota("shop", "requests.cpu: 300m", ""), requests, "", checker.Violated, exceeded + ", requested: requests.cpu=100m, used: requests.cpu=300m, limited: requests.cpu=300m"},
		{"400m", quota("shop", "requests.cpu: 400m, count/pods: \"4\"", ""), requests, "", checker.Holds, ""},
		{"three pods, then a scaled down", quota("shop", "pods: \"3\"", ""), requests, scaleDown, checker.Holds, ""},
		{"another namespace", quota("other", "pods: \"3\"", ""), requests, "", checker.Holds, ""},
		{"BestEffort scope", quota("shop", "pods: \"3\"", "BestEffort"), requests, "", checker.Holds, ""},
		{"NotBestEffort scope", quota("shop", "pods: \"3\"", "NotBestEffort"), requests, "", checker.Violated, exceeded},
		{"Terminating scope", quota("shop", "pods: \"3\"", "Terminating"), requests, "", checker.Holds, ""},
		{"limits.cpu without limits", quota("shop", "limits.cpu: \"4\"", ""), requests, "", checker.Violated, "is forbidden: failed quota: compute: must specify limits.cpu for: c"},
		{"limits 600m", quota("shop", "limits.cpu: 600m", ""), limits, "", checker.Violated, exceeded + ", requested: limits.cpu=200m, used: limits.cpu=600m, limited: limits.cpu=600m"},
		{"limits 800m", quota("shop", "limits.cpu: 800m, requests.memory: 256Mi", ""), limits, "", checker.Holds, ""},
		{"memory not requested", quota("shop", "memory: 1Gi", ""), "{requests: {cpu: 100m}}", "", checker.Violated, "is forbidden: failed quota: compute: must specify memory for: c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, c.quota+deployment("a", c.resources)+deployment("b", c.resources), twoNodes("4"), intents(c.events), true)
			verdict := checker.Holds
			var trace []string
			for _, r := range rep.Results {
				if r.Verdict == checker.Violated {
					verdict = r.Verdict
					trace = r.Trace.Lines()
				} else if r.Verdict != checker.Holds {
					t.Fatalf("%s: %v", r.Name, r.Verdict)
				}
			}
			if verdict != c.want {
				t.Fatalf("verdict %v, want %v", verdict, c.want)
			}
			if verdict == checker.Violated && !strings.Contains(strings.Join(trace, "\n"), c.refusal) {
				t.Errorf("the counterexample does not show the quota's refusal %q:\n%s", c.refusal, strings.Join(trace, "\n"))
			}
		})
	}
}

// TestResourceQuotaStatefulSet: a quota of three pods, one of them web's, stops an OrderedReady
// StatefulSet of three at db-2 (the API server's refusal names the pod);
// deleting the Deployment's pod frees the quota (the scale-down of web
// to 0), and the StatefulSet controller creates db-2.
func TestResourceQuotaStatefulSet(t *testing.T) {
	const manifests = `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: data}
spec:
  hard: {pods: "3"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: data}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`
	intents := func(events string) string {
		return `intents:
- name: replica_num_always_meet_exp
  params: {deployment: db, expReplicas: spec}
` + events
	}
	const scaleDown = `events:
- kind: scaleDeployment
  deployment: web
  replicas: 0
  when: afterStable
`
	for _, c := range []struct {
		name   string
		events string
		want   checker.Verdict
	}{
		{"quota full", "", checker.Violated},
		{"web scaled to 0", scaleDown, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, manifests, twoNodes("4"), intents(c.events), true)
			r := rep.Result("replica_num_always_meet_exp")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp: %+v, want %v", r, c.want)
			}
			for _, x := range rep.Results {
				if x.Verdict != checker.Holds && x.Name != "replica_num_always_meet_exp" {
					t.Errorf("%s: %v", x.Name, x.Verdict)
				}
			}
			if c.want == checker.Violated && !strings.Contains(strings.Join(r.Trace.Lines(), "\n"), `create Pod db-2 in StatefulSet db failed error: pods "db-2" is forbidden: exceeded quota: compute`) {
				t.Errorf("the counterexample does not show the refusal of db-2:\n%s", strings.Join(r.Trace.Lines(), "\n"))
			}
		})
	}
}

// TestResourceQuotaPriorityClassScope: a quota of one pod whose
// scopeSelector selects pods by priorityClassName (In, NotIn, Exists,
// DoesNotExist, as the pod evaluator matches them: DoesNotExist selects
// the pods that name no class) holds back the second replica of a
// Deployment it selects only.
func TestResourceQuotaPriorityClassScope(t *testing.T) {
	const classes = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch}
value: 1000
---
`
	quota := func(expr string) string {
		return `apiVersion: v1
kind: ResourceQuota
metadata: {name: batch-pods, namespace: default}
spec:
  hard: {pods: "1"}
  scopeSelector:
    matchExpressions: [` + expr + `]
---
`
	}
	deployment := func(class string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
` + class + `      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`
	}
	const batch = "      priorityClassName: batch\n"
	const intents = "intents: [{name: replica_num_always_meet_exp, params: {deployment: web, expReplicas: spec}}]\n"
	for _, c := range []struct {
		name, expr, class string
		want              checker.Verdict
	}{
		{"In, selected", "{scopeName: PriorityClass, operator: In, values: [batch]}", batch, checker.Violated},
		{"In, not selected", "{scopeName: PriorityClass, operator: In, values: [batch]}", "", checker.Holds},
		{"NotIn, selected", "{scopeName: PriorityClass, operator: NotIn, values: [batch]}", "", checker.Violated},
		{"NotIn, not selected", "{scopeName: PriorityClass, operator: NotIn, values: [batch]}", batch, checker.Holds},
		{"Exists", "{scopeName: PriorityClass, operator: Exists}", batch, checker.Violated},
		{"Exists, no class", "{scopeName: PriorityClass, operator: Exists}", "", checker.Holds},
		{"DoesNotExist, no class", "{scopeName: PriorityClass, operator: DoesNotExist}", "", checker.Violated},
		{"DoesNotExist, a class", "{scopeName: PriorityClass, operator: DoesNotExist}", batch, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, classes+quota(c.expr)+deployment(c.class), twoNodes("4"), intents, true)
			r := rep.Result("replica_num_always_meet_exp")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp %+v, want %v", r, c.want)
			}
		})
	}
}
