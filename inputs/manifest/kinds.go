package manifest

import (
	"sort"
	"strings"
)

// modelledKinds are the kinds read into the model, with the apiVersions
// accepted for each.
var modelledKinds = map[string][]string{
	"Deployment":              {"apps/v1"},
	"StatefulSet":             {"apps/v1"},
	"Job":                     {"batch/v1"},
	"CronJob":                 {"batch/v1"},
	"HorizontalPodAutoscaler": {"autoscaling/v2", "autoscaling/v1"},
	"Node":                    {"v1"},
	"Pod":                     {"v1"},
	"DeschedulerPolicy":       {"descheduler/v1alpha2"},
	"PodDisruptionBudget":     {"policy/v1"},
	"PriorityClass":           {"scheduling.k8s.io/v1"},
	// DaemonSets are read as node reservations (daemonset.go).
	"DaemonSet": {"apps/v1"},
	// Namespaces: their labels, for namespaceSelector (namespace.go).
	"Namespace": {"v1"},
	// LimitRanges: their containers' defaults and bounds (limitrange.go).
	"LimitRange": {"v1"},
	// ResourceQuotas: pods and requests per namespace (resourcequota.go).
	"ResourceQuota": {"v1"},
	// RuntimeClasses: their admission of pods (runtimeclass.go).
	"RuntimeClass": {"node.k8s.io/v1"},
	// kube-scheduler's configuration: how many nodes it scores
	// (schedulerconfig.go).
	"KubeSchedulerConfiguration": {"kubescheduler.config.k8s.io/v1"},
	// The kubelets' configuration: memory eviction thresholds and
	// maxPods (kubeletconfig.go).
	"KubeletConfiguration": {"kubelet.config.k8s.io/v1beta1"},
}

// removedVersions are the apiVersions of modelled kinds Kubernetes has
// stopped serving, with the release that removed them (Kubernetes'
// deprecated API migration guide): manifests written for older clusters
// still use them, and the API server refuses them.
var removedVersions = map[string]string{
	"Deployment extensions/v1beta1": "v1.16", "Deployment apps/v1beta1": "v1.16", "Deployment apps/v1beta2": "v1.16",
	"DaemonSet extensions/v1beta1": "v1.16", "DaemonSet apps/v1beta2": "v1.16",
	"StatefulSet apps/v1beta1": "v1.16", "StatefulSet apps/v1beta2": "v1.16",
	"PriorityClass scheduling.k8s.io/v1beta1": "v1.22", "PriorityClass scheduling.k8s.io/v1alpha1": "v1.22",
	"CronJob batch/v1beta1": "v1.25", "PodDisruptionBudget policy/v1beta1": "v1.25",
	"HorizontalPodAutoscaler autoscaling/v2beta1": "v1.25", "HorizontalPodAutoscaler autoscaling/v2beta2": "v1.26",
	"RuntimeClass node.k8s.io/v1beta1": "v1.25",
}

// removedNote says when Kubernetes stopped serving a kind's apiVersion,
// "" for a version it never served.
func removedNote(kind, apiVersion string) string {
	if v, ok := removedVersions[kind+" "+apiVersion]; ok {
		return ": Kubernetes stopped serving it in " + v
	}
	return ""
}

// unmodelledWorkloadKinds change where pods run, how many there are or
// whether they may be evicted; a stream containing them is verified
// without them, with a warning.
var unmodelledWorkloadKinds = map[string]string{
	"ReplicaSet":            "a ReplicaSet no Deployment owns is not modelled (a Deployment's ReplicaSets are, through the Deployment)",
	"ReplicationController": "its pods are not modelled",
	"PersistentVolumeClaim": "volume topology is not modelled",
	"PersistentVolume":      "volume topology is not modelled",
	"VerticalPodAutoscaler": "vertical autoscaling is not modelled",
	"ScaledObject":          "KEDA autoscaling is not modelled",
}

// nodeProvisioningGroups are the API groups of node autoscalers and
// machine managers (Karpenter, Cluster API): their objects add and remove
// nodes, not pods.
var nodeProvisioningGroups = map[string]bool{
	"karpenter.sh": true, "karpenter.k8s.aws": true, "karpenter.azure.com": true,
	"cluster.x-k8s.io": true, "infrastructure.cluster.x-k8s.io": true,
}

// unmodelledKindEffect is what the model leaves out with an object of a
// kind it does not know.
func unmodelledKindEffect(apiVersion string) string {
	group, _, _ := strings.Cut(apiVersion, "/")
	if nodeProvisioningGroups[group] {
		return "the nodes its controller may add or remove are not modelled: the cluster keeps the nodes given"
	}
	return "pods its controller may create are not counted"
}

// harmlessKinds cannot change scheduling or scaling; they are skipped
// quietly (Helm output is full of them).
var harmlessKinds = map[string]bool{
	"Service": true, "ConfigMap": true, "Secret": true, "ServiceAccount": true,
	"Role": true, "RoleBinding": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"Ingress": true, "IngressClass": true, "NetworkPolicy": true, "Endpoints": true, "EndpointSlice": true,
	"CustomResourceDefinition": true, "StorageClass": true, "Event": true, "APIService": true,
	"MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true,
	"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true,
	"Certificate": true, "Issuer": true, "ClusterIssuer": true,
	"ServiceMonitor": true, "PodMonitor": true, "PrometheusRule": true,
	"Gateway": true, "GatewayClass": true, "HTTPRoute": true, "GRPCRoute": true,
	// What `kubectl get` of a whole cluster also lists: the API server's
	// and the controllers' own records, storage drivers' node records,
	// API priority and fairness, certificates, Dynamic Resource
	// Allocation's classes (a pod's claims are warned about on the pod).
	"Lease": true, "ControllerRevision": true, "PodTemplate": true, "ComponentStatus": true,
	"FlowSchema": true, "PriorityLevelConfiguration": true, "CertificateSigningRequest": true,
	"ClusterTrustBundle": true, "CSINode": true, "CSIDriver": true, "CSIStorageCapacity": true,
	"VolumeAttachment": true, "VolumeAttributesClass": true, "ServiceCIDR": true, "IPAddress": true,
	"DeviceClass": true, "ResourceSlice": true,
}

func modelledKindNames() string {
	var out []string
	for k := range modelledKinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ") + " (and their Lists)"
}

// nearKind returns the modelled kind a misspelt kind probably means.
func nearKind(kind string) (string, bool) {
	best, bestD := "", 3
	for k := range modelledKinds {
		for _, cand := range []string{k, k + "List"} {
			d := editDistance(strings.ToLower(kind), strings.ToLower(cand))
			if d < bestD || (d == bestD && cand < best) {
				best, bestD = cand, d
			}
		}
	}
	return best, bestD <= 2
}

// editDistance is the Levenshtein distance (inputs are short kind names;
// longer ones are cut, which only makes the distance larger).
func editDistance(a, b string) int {
	if len(a) > 64 {
		a = a[:64]
	}
	if len(b) > 64 {
		b = b[:64]
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
