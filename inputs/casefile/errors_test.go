package casefile_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/inputs/casefile"
	"github.com/kivi-go/kivi/model"
)

// base is a small valid case; the table below breaks it one way at a
// time.
const base = `name: t
nodeTypes:
- name: std
  cpu: 64
  memory: 64
nodes:
- type: std
  count: 2
templates:
- name: app
  cpu: 8
  memory: 8
deployments:
- name: web
  template: app
  replicas: 2
`

// malformed are inputs Parse must reject, each with the exact message.
// Sources: the strictness rules of sigs.k8s.io/json (unknown, duplicate
// and case-mismatched fields) and model.Cluster.Build's references.
var malformed = []struct {
	name, input, msg string
	model            bool // the error comes from model.Build
}{
	{"empty", ``, `bad.yaml: empty case file (expected a mapping with nodeTypes, nodes, templates, deployments, ...)`, false},
	{"syntax", "name: [a\n", `bad.yaml: not valid YAML: yaml: line 1: did not find expected ',' or ']'`, false},
	{"list at top", "- a\n", `bad.yaml: expected a mapping (fields: name, description, expect, nodeTypes, nodes, templates, deployments, deploymentTemplates, descheduler, events, intents, podDisruptionBudgets, namespaces, resourceQuotas, podSlots, lowestIndexTieBreak), got a list`, false},
	{"duplicate key", base + "name: u\n", `bad.yaml: not valid YAML: line 17: key "name" already set in map`, false},
	{"case mismatch", strings.Replace(base, "nodeTypes:", "NodeTypes:", 1), `bad.yaml: NodeTypes: unknown field; did you mean "nodeTypes"? (field names are case-sensitive)`, false},
	{"unknown nested field", strings.Replace(base, "  cpu: 64\n", "  cpu: 64\n  gpu: 1\n", 1), `bad.yaml: nodeTypes[0].gpu: unknown field (accepted: name, cpu, memory, reservedCpu, reservedMemory, maxPods, scalar, reservedScalar, labels, taints, reservedHostPorts, min, max)`, false},
	{"Go field name of an untagged type", strings.Replace(base, "  cpu: 64\n", "  cpu: 64\n  taints: [{Key: a, effect: NoSchedule}]\n", 1), `bad.yaml: nodeTypes[0].taints[0].Key: unknown field; did you mean "key"? (field names are case-sensitive)`, false},
	{"string for an integer", strings.Replace(base, "cpu: 64", `cpu: "64"`, 1), `bad.yaml: nodeTypes[0].cpu: expected an integer, got the string "64"`, false},
	{"fraction", strings.Replace(base, "cpu: 8", "cpu: 8.5", 1), `bad.yaml: templates[0].cpu: expected an integer, got the number 8.5`, false},
	{"YAML 1.1 boolean as a name", strings.Replace(base, "name: t", "name: no", 1), `bad.yaml: name: expected a string, got the boolean false (quote it)`, false},
	{"null in a list", strings.Replace(base, "  template: app\n", "  template: app\n  hpa: {minReplicas: 1, maxReplicas: 2, metrics: [null]}\n", 1), `bad.yaml: deployments[0].hpa.metrics[0]: null is not allowed in a list`, false},
	{"unknown balance plugin", base + "descheduler: {profiles: [{balance: [RemoveDuplicate]}]}\n", `bad.yaml: descheduler.profiles[0].balance[0]: the string "RemoveDuplicate" is not a balance plugin (accepted: RemoveDuplicates, RemovePodsViolatingTopologySpreadConstraint, LowNodeUtilization, HighNodeUtilization)`, false},
	{"threshold out of range", base + "descheduler: {profiles: [{balance: [LowNodeUtilization], lowNodeUtilization: {thresholds: {cpu: 120}, targetThresholds: {cpu: 130}}}]}\n", `bad.yaml: descheduler.profiles[0].lowNodeUtilization.thresholds.cpu: 120 is not in the range [0, 100] (accepted: a percentage 0..100): invalid model`, true},
	{"threshold above its target", base + "descheduler: {profiles: [{balance: [LowNodeUtilization], lowNodeUtilization: {thresholds: {cpu: 60.5}, targetThresholds: {cpu: 50}}}]}\n", `bad.yaml: descheduler.profiles[0].lowNodeUtilization.thresholds.cpu: 60.5 is greater than targetThresholds' 50 (accepted: at most the target, unless useDeviationThresholds): invalid model`, true},
	{"thresholds of other resources", base + "descheduler: {profiles: [{balance: [LowNodeUtilization], lowNodeUtilization: {thresholds: {cpu: 20}, targetThresholds: {pods: 50}}}]}\n", `bad.yaml: descheduler.profiles[0].lowNodeUtilization.targetThresholds: thresholds and targetThresholds configured different resources (thresholds: cpu; targetThresholds: pods; accepted: the same resources in both): invalid model`, true},
	{"node utilisation plugin without args", base + "descheduler: {profiles: [{balance: [HighNodeUtilization]}]}\n", `bad.yaml: descheduler.profiles[0].highNodeUtilization: missing; HighNodeUtilization is enabled (accepted: thresholds): invalid model`, true},
	{"threshold not a number", base + "descheduler: {profiles: [{balance: [HighNodeUtilization], highNodeUtilization: {thresholds: {memory: high}}}]}\n", `bad.yaml: descheduler.profiles[0].highNodeUtilization.thresholds.memory: expected a number, got the string "high"`, false},
	{"extended resource threshold", base + "descheduler: {profiles: [{balance: [HighNodeUtilization], highNodeUtilization: {thresholds: {gpu: 20}}}]}\n", `bad.yaml: descheduler.profiles[0].highNodeUtilization.thresholds.gpu: unknown field (accepted: cpu, memory, pods)`, false},
	{"descheduler constraints not a list", base + "descheduler: {profiles: [{constraints: DoNotSchedule}]}\n", `bad.yaml: descheduler.profiles[0].constraints: the string "DoNotSchedule" is not a constraint list (accepted: a list of DoNotSchedule and ScheduleAnyway)`, false},
	{"too many nodes", strings.Replace(base, "count: 2", "count: 1000000000", 1), `bad.yaml: nodes[0].count: 1000000000 is out of range (accepted: 1..4000)`, false},
	{"too many pod slots", base + "podSlots: 4001\n", `bad.yaml: podSlots: 4001 is out of range (accepted: 0 (derived) or 1..4000)`, false},
	{"negative stabilisation window", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, scaleDownStabilizationSyncs: -1}\n", 1), `bad.yaml: deployments[0].hpa.scaleDownStabilizationSyncs: -1 is out of range (accepted: 0..4 HPA sync periods, 0 = off)`, false},
	{"stabilisation window too long", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, scaleDownStabilizationSyncs: 20}\n", 1), `bad.yaml: deployments[0].hpa.scaleDownStabilizationSyncs: 20 is out of range (accepted: 0..4 HPA sync periods, 0 = off)`, false},
	{"stabilisation window in seconds", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, stabilizationWindowSeconds: 300}\n", 1), `bad.yaml: deployments[0].hpa.stabilizationWindowSeconds: unknown field (accepted: minReplicas, maxReplicas, metrics, factor, tolerancePercent, scaleDownStabilizationSyncs, behavior, name, sharedTarget, selectorSharedWith, selectsPodsOf)`, false},
	{"behavior policy period too long", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, behavior: {scaleDown: {policies: [{type: Pods, value: 1, periodSeconds: 1801}]}}}\n", 1), `bad.yaml: deployments[0] (web).hpa: behavior.scaleDown.policies[0].periodSeconds 1801 (accepted: 1..1800 seconds): invalid model`, true},
	{"behavior policy value 0", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, behavior: {scaleUp: {policies: [{type: Percent, value: 0, periodSeconds: 15}]}}}\n", 1), `bad.yaml: deployments[0] (web).hpa: behavior.scaleUp.policies[0].value 0 (accepted: 1..2147483647): invalid model`, true},
	{"behavior selectPolicy", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, behavior: {scaleDown: {selectPolicy: Least}}}\n", 1), `bad.yaml: deployments[0] (web).hpa: behavior.scaleDown.selectPolicy "Least" (accepted: Max, Min, Disabled): invalid model`, true},
	{"behavior window too long", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, behavior: {scaleUp: {stabilizationWindowSeconds: 3601}}}\n", 1), `bad.yaml: deployments[0] (web).hpa: behavior.scaleUp.stabilizationWindowSeconds 3601 (accepted: 0..3600 seconds): invalid model`, true},
	{"behavior empty policies", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, behavior: {scaleDown: {policies: []}}}\n", 1), `bad.yaml: deployments[0] (web).hpa: behavior.scaleDown.policies: empty (accepted: at least one policy): invalid model`, true},
	{"behavior tolerance too fine", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, behavior: {scaleDown: {tolerance: 0.0000000001}}}\n", 1), `bad.yaml: deployments[0] (web).hpa: behavior.scaleDown.tolerance 1e-10 (accepted: 0..1000000 with at most 9 decimals): invalid model`, true},
	{"behavior with the legacy window", strings.Replace(base, "  replicas: 2\n", "  replicas: 2\n  hpa: {minReplicas: 1, maxReplicas: 4, scaleDownStabilizationSyncs: 2, behavior: {}}\n", 1), `bad.yaml: deployments[0] (web).hpa: scaleDownStabilizationSyncs and behavior both given (accepted: one of them; behavior.scaleDown.stabilizationWindowSeconds is the window in seconds): invalid model`, true},
	{"replicas out of range", strings.Replace(base, "replicas: 2", "replicas: 40000", 1), `bad.yaml: deployments[0].replicas: 40000 is out of range (accepted: 0..32767)`, false},
	{"unknown node type", strings.Replace(base, "type: std", "type: gpu", 1), `bad.yaml: nodes[0].type "gpu": no such node type (accepted: std): invalid model`, true},
	{"unknown template", strings.Replace(base, "template: app", "template: db", 1), `bad.yaml: deployments[0] (web).template "db": no such template (accepted: app): invalid model`, true},
	{"bad whenUnsatisfiable", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Never}]\n", 1), `bad.yaml: templates[0] (app): topologySpreadConstraints[0].whenUnsatisfiable "Never" (accepted: DoNotSchedule, ScheduleAnyway): invalid model`, true},
	{"matchLabelKeys in the default selector", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  labels: {app: web}\n  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, matchLabelKeys: [app]}]\n", 1), `bad.yaml: pod template "app": topologySpreadConstraints[0].matchLabelKeys[0]: "app" exists in both matchLabelKeys and labelSelector (the API server rejects the pods): invalid model`, true},
	{"mismatchLabelKeys without selector", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  podAntiAffinity: {required: [{topologyKey: zone, mismatchLabelKeys: [pod-template-hash]}]}\n", 1), `bad.yaml: pod template "app": podAntiAffinity.required[0].mismatchLabelKeys: must not be specified when labelSelector is not set: invalid model`, true},
	{"bad taint effect", strings.Replace(base, "  cpu: 64\n", "  cpu: 64\n  taints: [{key: a, effect: NoRun}]\n", 1), `bad.yaml: node "1": taints[0].effect "NoRun" (accepted: NoSchedule, PreferNoSchedule, NoExecute): invalid model`, true},
	{"unknown event", base + "events: [{kind: reboot}]\n", `bad.yaml: events[0] (reboot): kind "reboot" (accepted: eventCpuChange, eventMemoryChange, kernelPanic, maintenance, nodeFailure, createTargetDeployment, applyDeployment, createDeployment, scaleDeployment, drain, rolloutRestart, rolloutUndo, rolloutPause, rolloutResume, deleteNode): invalid model`, true},
	{"drain without nodes", base + "events: [{kind: drain, uncordon: true}]\n", `bad.yaml: events[0] (drain): nodes: required (accepted: node: NAME, or nodes: [NAME, …], the nodes drained in order): invalid model`, true},
	{"drain of no such node", base + "events: [{kind: drain, nodes: [\"1\", x]}]\n", `bad.yaml: events[0] (drain): nodes[1]: node "x": no such node (accepted: a node name, 1, 2, or a 1-based position 1..2): invalid model`, true},
	{"drain node and nodes", base + "events: [{kind: drain, node: \"1\", nodes: [\"2\"]}]\n", `bad.yaml: events[0] (drain): node and nodes: give one (accepted: node: NAME, or nodes: [NAME, …]): invalid model`, true},
	{"drain parallel above its nodes", base + "events: [{kind: drain, nodes: [\"1\"], parallel: 2}]\n", `bad.yaml: events[0] (drain): parallel 2 (accepted: 1..1, the nodes drained at once): invalid model`, true},
	{"negative minReadySeconds", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  minReadySeconds: -1\n", 1), `bad.yaml: pod template "app": minReadySeconds -1 (accepted: 0 or more): invalid model`, true},
	{"drain negative timeout", base + "events: [{kind: drain, node: \"1\", timeoutRetries: -2}]\n", `bad.yaml: events[0] (drain): timeoutRetries -2 (accepted: 0, no timeout, or 1..100 retries of 5 s): invalid model`, true},
	{"drain node twice", base + "events: [{kind: drain, nodes: [\"1\", \"1\"]}]\n", `bad.yaml: events[0] (drain): node 1 is drained twice (accepted: each node once): invalid model`, true},
	{"drain option of another kind", base + "events: [{kind: maintenance, force: true}]\n", `bad.yaml: events[0] (maintenance): nodes, timeoutRetries, disableEviction, force, uncordon: only drain takes them: invalid model`, true},
	{"unknown maintenance order", base + "events: [{kind: maintenance, order: random}]\n", `bad.yaml: events[0] (maintenance): order "random" (accepted: written, the nodes in the order the cluster lists them, as Kivi; any, each next node among those not maintained yet): invalid model`, true},
	{"order of another kind", base + "events: [{kind: kernelPanic, order: any}]\n", `bad.yaml: events[0] (kernelPanic): order: only maintenance takes it: invalid model`, true},
	{"out-of-service node that recovers", base + "events: [{kind: nodeFailure, node: \"1\", outOfService: true}]\n", `bad.yaml: events[0] (nodeFailure): outOfService: true needs recovers: false (accepted: recovers: false with outOfService: true or false; the taint is for a node that never comes back): invalid model`, true},
	{"recovers of another kind", base + "events: [{kind: maintenance, recovers: false}]\n", `bad.yaml: events[0] (maintenance): recovers, outOfService: only nodeFailure takes them: invalid model`, true},
	{"recovers not a boolean", base + "events: [{kind: nodeFailure, node: \"1\", recovers: never}]\n", `bad.yaml: events[0].recovers: expected true or false, got the string "never"`, false},
	{"lost node with maintenance", base + "events: [{kind: nodeFailure, node: \"1\", recovers: false}, {kind: maintenance}]\n", `bad.yaml: events[0] (nodeFailure): node 1 never comes back (recovers: false), which events[1] (maintenance) would bring back Ready (accepted: a lost node without maintenance in the same input): invalid model`, true},
	{"lost node failed twice", base + "events: [{kind: nodeFailure, node: \"2\", recovers: false}, {kind: nodeFailure, node: \"2\"}]\n", `bad.yaml: events[0] (nodeFailure): node 2 never comes back (recovers: false), and events[1] fails it again (accepted: one nodeFailure per node lost for good): invalid model`, true},
	{"deleted node that recovers", base + "events: [{kind: deleteNode, node: \"1\"}, {kind: nodeFailure, node: \"1\"}]\n", `bad.yaml: events[0] (deleteNode): node 1 is deleted for good, which events[1] (nodeFailure) would bring back Ready (accepted: recovers: false, a node lost for good that is then deleted): invalid model`, true},
	{"deleted node with maintenance", base + "events: [{kind: deleteNode, node: \"1\"}, {kind: maintenance}]\n", `bad.yaml: events[0] (deleteNode): node 1 is deleted for good, which events[1] (maintenance) would bring back Ready (accepted: a deleted node without maintenance in the same input): invalid model`, true},
	{"deleted node deleted twice", base + "events: [{kind: deleteNode, node: \"2\"}, {kind: deleteNode, node: \"2\", drain: true}]\n", `bad.yaml: events[0] (deleteNode): node 2 is deleted, and events[1] deletes it again (accepted: one deleteNode per node): invalid model`, true},
	{"drain flag of another kind", base + "events: [{kind: nodeFailure, node: \"1\", drain: true}]\n", `bad.yaml: events[0] (nodeFailure): drain: only deleteNode takes it (accepted: the drain event for a drain alone): invalid model`, true},
	{"deleteNode without node", base + "events: [{kind: deleteNode}]\n", `bad.yaml: events[0] (deleteNode): node: required (accepted: node: NAME, the node deleted): invalid model`, true},
	{"deleted node a template pins", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  nodeName: \"1\"\n", 1) + "events: [{kind: deleteNode, node: \"1\"}]\n", `bad.yaml: events[0] (deleteNode): node 1 is deleted, and pod template "app" pins its pods to it with nodeName (accepted: a node no pod template names in nodeName): invalid model`, true},
	{"unknown event slot", base + "events: [{kind: kernelPanic, when: later}]\n", `bad.yaml: events[0] (kernelPanic): when "later" (accepted: main, first, afterStable): invalid model`, true},
	{"host port out of range", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  hostPorts: [{port: 0}]\n", 1), `bad.yaml: pod template "app": hostPorts[0].port 0 (accepted: 1..65535): invalid model`, true},
	{"host port of an unknown protocol", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  hostPorts: [{port: 80, protocol: HTTP}]\n", 1), `bad.yaml: pod template "app": hostPorts[0].protocol "HTTP" (accepted: TCP, UDP, SCTP): invalid model`, true},
	{"nodeName of no node", strings.Replace(base, "  memory: 8\n", "  memory: 8\n  nodeName: \"9\"\n", 1), `bad.yaml: templates[0] (app): nodeName "9": no such node: invalid model`, true},
	{"fewer slots than pods", strings.Replace(base, "  count: 2\n", "  count: 2\n  pods: [{deployment: web}]\n", 1) + "podSlots: 1\n", `bad.yaml: podSlots 1: fewer than the 2 initial pods: invalid model`, true},
}

// TestMalformed checks the exact message of every malformed input, and
// that it wraps ErrBadCase (and model.ErrInvalid when Build found it).
func TestMalformed(t *testing.T) {
	if _, err := casefile.Parse("base.yaml", []byte(base)); err != nil {
		t.Fatalf("base case: %v", err)
	}
	for _, tc := range malformed {
		t.Run(tc.name, func(t *testing.T) {
			_, err := casefile.Parse("bad.yaml", []byte(tc.input))
			if err == nil {
				t.Fatalf("no error, want %s", tc.msg)
			}
			if err.Error() != tc.msg {
				t.Errorf("error:\n got  %s\n want %s", err, tc.msg)
			}
			if !errors.Is(err, casefile.ErrBadCase) {
				t.Errorf("%v does not wrap ErrBadCase", err)
			}
			if errors.Is(err, model.ErrInvalid) != tc.model {
				t.Errorf("%v wraps model.ErrInvalid = %v, want %v", err, !tc.model, tc.model)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := casefile.Load("testdata/files/no-such-file.yaml")
	if err == nil || errors.Is(err, casefile.ErrBadCase) {
		t.Errorf("Load of a missing file = %v, want an I/O error that is not ErrBadCase", err)
	}
}
