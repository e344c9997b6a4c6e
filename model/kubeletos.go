package model

// OSLabel is the well-known label of a Node's (and a pod's) operating
// system.
const OSLabel = "kubernetes.io/os"

// PodOSSelectorReason is the kubelet's admission reason for a pod whose
// kubernetes.io/os label names another OS than the node's.
const PodOSSelectorReason = "PodOSSelectorNodeLabelDoesNotMatch"

// OSLabelMismatch is the kubelet's rejectPodAdmissionBasedOnOSSelector
// (pkg/kubelet/lifecycle/predicate.go, v1.36) for a pod of template t on
// node n: a pod labelled kubernetes.io/os is rejected when the label is
// not the node's OS. The kubelet resets its Node's label to the OS it
// runs on; the model takes that OS from the Node's label, Linux without
// one (the manifest reader labels Nodes as the kubelet does).
func OSLabelMismatch(u *Universe, t *PodTemplate, n int) bool {
	want, ok := t.Labels[OSLabel]
	if !ok {
		return false
	}
	nodeOS, ok := u.Nodes[n].Labels[OSLabel]
	if !ok {
		nodeOS = "linux"
	}
	return want != nodeOS
}
