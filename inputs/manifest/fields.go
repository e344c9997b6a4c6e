package manifest

import (
	"reflect"
	"regexp"
	"strings"
)

// Fields the thin types leave out fall in three classes: fields that can
// change scheduling or scaling (a Warning says the model ignores them),
// fields that cannot (ignored quietly) and fields Kubernetes does not
// have at all (a Warning: probably a typo). Paths are relative to the
// object with list indices written "[]"; a rule covers its path and
// everything below it.

type fieldRule struct {
	path string
	// warn is the reason the field matters; "" means quiet.
	warn string
}

const (
	noVolumes    = "volume binding and volume topology are not modelled"
	noDRA        = "dynamic resource claims are not modelled"
	noSchedGates = "scheduling gates are not modelled: pods are schedulable at once"
)

// podSpecRules apply below a pod spec.
var podSpecRules = append(basePodSpecRules, containerRules()...)

var basePodSpecRules = []fieldRule{
	{"affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[].matchFields", ""}, // read by the converter
	{"affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[].preference.matchFields", ""},
	{"schedulingGates", noSchedGates},
	{"resourceClaims", noDRA}, {"containers[].resources.claims", noDRA},
	{"resources.claims", noDRA},
	{"volumes[].persistentVolumeClaim", noVolumes}, {"volumes[].ephemeral", noVolumes},
	{"topologySpreadConstraints[].matchLabelKeys", ""}, // read and validated by the converter
	// Quiet: cannot change placement, resources or replica counts.
	{"ephemeralContainers", ""},
	{"volumes", ""}, {"dnsPolicy", ""}, {"dnsConfig", ""},
	{"terminationGracePeriodSeconds", ""},
	{"serviceAccount", ""}, {"serviceAccountName", ""}, {"automountServiceAccountToken", ""},
	{"securityContext", ""}, {"imagePullSecrets", ""}, {"hostname", ""}, {"subdomain", ""},
	{"setHostnameAsFQDN", ""}, {"hostAliases", ""}, {"enableServiceLinks", ""},
	{"shareProcessNamespace", ""}, {"hostPID", ""}, {"hostIPC", ""}, {"hostNetwork", ""},
	{"hostUsers", ""},
}

// containerFields are the container fields that cannot change placement
// or resources; they are quiet in containers and initContainers. A typo
// such as resources.request is therefore reported, not ignored.
var containerFields = []string{"image", "imagePullPolicy", "command", "args", "workingDir", "ports", "env", "envFrom",
	"volumeMounts", "volumeDevices", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle",
	"terminationMessagePath", "terminationMessagePolicy", "securityContext", "stdin", "stdinOnce", "tty",
	"resizePolicy", "restartPolicyRules"}

func containerRules() []fieldRule {
	var out []fieldRule
	for _, c := range []string{"containers[].", "initContainers[]."} {
		for _, f := range containerFields {
			out = append(out, fieldRule{c + f, ""})
		}
	}
	return out
}

var metaRules = []fieldRule{
	{"annotations", ""}, {"uid", ""}, {"resourceVersion", ""}, {"generation", ""},
	{"creationTimestamp", ""}, {"managedFields", ""}, {"generateName", ""},
	{"finalizers", ""}, {"selfLink", ""}, {"deletionGracePeriodSeconds", ""},
}

// daemonPodSpecRules apply below a DaemonSet's pod spec: its pods are
// room reserved on their nodes, host ports included (daemonset.go).
var daemonPodSpecRules = podSpecRules

// daemonSetSpecRules: how a DaemonSet rolls its pods out does not change
// the room they take once running.
var daemonSetSpecRules = []fieldRule{
	{"updateStrategy", ""}, {"minReadySeconds", ""}, {"revisionHistoryLimit", ""}, {"templateGeneration", ""},
}

var deploymentSpecRules = []fieldRule{
	{"revisionHistoryLimit", ""}, {"progressDeadlineSeconds", ""},
}

// hpaSpecRules: every HPA spec field the model does not read is a
// metric type it warns about (workloads.go), so none is listed.
var hpaSpecRules = []fieldRule{}

var nodeSpecRules = []fieldRule{
	{"podCIDR", ""}, {"podCIDRs", ""}, {"providerID", ""}, {"configSource", ""}, {"externalID", ""},
	// The node lifecycle controller stamps the NoExecute taints it adds.
	{"taints[].timeAdded", ""},
}

var policyRules = []fieldRule{
	{"nodeSelector", "the descheduler's nodeSelector is not modelled: every node is considered"},
	{"metricsCollector", "metrics-based descheduling is not modelled"},
	{"metricsProviders", "metrics-based descheduling is not modelled"},
	{"prometheus", "metrics-based descheduling is not modelled"},
	{"evictionFailureEventNotification", ""}, {"gracePeriodSeconds", ""},
}

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// classify returns the warnings for the unknown fields of an object.
func classify(o Object) []Warning {
	var out []Warning
	for _, u := range o.Unknown {
		norm := indexRE.ReplaceAllString(u, "[]")
		known, warn := classifyPath(o.Kind, norm)
		switch {
		case !known:
			out = append(out, o.at().warning(o.path(u), "unknown field: %s %s has no such field; it is ignored (a typo?)", o.APIVersion, o.Kind))
		case warn != "":
			out = append(out, o.at().warning(o.path(u), "ignored: %s", warn))
		}
	}
	return out
}

// classifyPath says whether the field is a Kubernetes field, and why it
// matters when it does.
func classifyPath(kind, p string) (known bool, warn string) {
	type scope struct {
		prefix string
		rules  []fieldRule
	}
	var scopes []scope
	switch kind {
	case "Deployment":
		scopes = []scope{{"metadata.", metaRules}, {"spec.template.metadata.", metaRules},
			{"spec.template.spec.", podSpecRules}, {"spec.", deploymentSpecRules}}
	case "StatefulSet":
		scopes = []scope{{"metadata.", metaRules}, {"spec.template.metadata.", metaRules},
			{"spec.template.spec.", podSpecRules}, {"spec.", statefulSetSpecRules}}
	case "Job":
		scopes = []scope{{"metadata.", metaRules}, {"spec.template.metadata.", metaRules},
			{"spec.template.spec.", podSpecRules}, {"spec.", jobSpecRules}}
	case "CronJob":
		scopes = []scope{{"metadata.", metaRules}, {"spec.jobTemplate.metadata.", metaRules},
			{"spec.jobTemplate.spec.template.metadata.", metaRules}, {"spec.jobTemplate.spec.template.spec.", podSpecRules},
			{"spec.jobTemplate.spec.", jobSpecRules}, {"spec.", cronJobSpecRules}}
	case "HorizontalPodAutoscaler":
		scopes = []scope{{"metadata.", metaRules}, {"spec.", hpaSpecRules}}
	case "Node":
		scopes = []scope{{"metadata.", metaRules}, {"spec.", nodeSpecRules}}
	case "Pod":
		return true, "" // pods are read for placement and owners only
	case "DeschedulerPolicy":
		scopes = []scope{{"", policyRules}}
	case "LimitRange":
		scopes = []scope{{"metadata.", metaRules}}
	case "Namespace":
		scopes = []scope{{"metadata.", metaRules}, {"spec.", []fieldRule{{"finalizers", ""}}}}
	case "DaemonSet":
		scopes = []scope{{"metadata.", metaRules}, {"spec.template.metadata.", metaRules},
			{"spec.template.spec.", daemonPodSpecRules}, {"spec.", daemonSetSpecRules}}
	case "PodDisruptionBudget", "PriorityClass", "ResourceQuota", "RuntimeClass":
		scopes = []scope{{"metadata.", metaRules}}
	case "KubeSchedulerConfiguration":
		scopes = []scope{{"", schedulerConfigRules}}
	case "KubeletConfiguration":
		scopes = []scope{{"", kubeletConfigRules}}
	}
	if strings.HasPrefix(p, "status.") || p == "status" || p == "metadata" {
		return true, ""
	}
	for _, s := range scopes {
		rest, ok := strings.CutPrefix(p, s.prefix)
		if !ok {
			continue
		}
		for _, r := range s.rules {
			if rest == r.path || strings.HasPrefix(rest, r.path+".") || strings.HasPrefix(rest, r.path+"[]") {
				return true, r.warn
			}
		}
		return false, ""
	}
	return false, ""
}

// collectFieldNames maps the lower-cased name of every known field to
// its spelling.
func collectFieldNames() map[string]string {
	out := map[string]string{}
	var walk func(t reflect.Type, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, seen map[reflect.Type]bool) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				out[strings.ToLower(name)] = name
			}
			walk(f.Type, seen)
		}
	}
	seen := map[reflect.Type]bool{}
	for _, v := range []any{Deployment{}, HPAv2{}, HPAv1{}, Node{}, Pod{}, DeschedulerPolicy{}, DefaultEvictorArgs{}, TopologySpreadArgs{}, PodDisruptionBudget{}, PriorityClass{}} {
		walk(reflect.TypeOf(v), seen)
	}
	for _, rules := range [][]fieldRule{podSpecRules, metaRules, deploymentSpecRules, hpaSpecRules, nodeSpecRules, policyRules} {
		for _, r := range rules {
			segs := strings.Split(strings.ReplaceAll(r.path, "[]", ""), ".")
			last := segs[len(segs)-1]
			out[strings.ToLower(last)] = last
		}
	}
	return out
}
