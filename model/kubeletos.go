package model

// OSLabel is the well-known label of a Node's (and a pod's) operating
// system.
const OSLabel = "kubernetes.io/os"

// PodOSSelectorReason is the kubelet's admission reason for a pod whose
// kubernetes.io/os label names another OS than the node's.
const PodOSSelectorReason = "PodOSSelectorNodeLabelDoesNotMatch"

// osLabelMismatch is the kubelet's rejectPodAdmissionBasedOnOSSelector
// (pkg/kubelet/lifecycle/predicate.go, v1.36) for a pod of template t on
// node n: a pod labelled kubernetes.io/os is rejected when the label is
// not the node's OS. The kubelet resets its Node's label to the OS it
// runs on; the model takes that OS from the Node's label, Linux without
// one (the manifest reader labels Nodes as the kubelet does). Steps read
// it as NodeFit.OSLabelMismatch, computed at compile, where the symmetry
// reduction's node classes see it too.
func osLabelMismatch(u *Universe, t *PodTemplate, n int) bool {
	want, ok := t.Labels[OSLabel]
	return ok && want != u.nodeOS(n)
}

// PodOSNotSupportedReason is the kubelet's admission reason for a pod
// whose spec.os.name is not the OS the kubelet runs on.
const PodOSNotSupportedReason = "PodOSNotSupported"

// osFieldMismatch is the kubelet's rejectPodAdmissionBasedOnOSField
// (pkg/kubelet/lifecycle/predicate.go, v1.36), checked after
// osLabelMismatch: a pod whose spec.os.name (PodTemplate.OS) is set and
// is not node n's OS is rejected. Read as NodeFit.OSFieldMismatch.
func osFieldMismatch(u *Universe, t *PodTemplate, n int) bool {
	return t.OS != "" && t.OS != u.nodeOS(n)
}

// nodeOS is the OS node n's kubelet runs on: its Node's label, Linux
// without one.
func (u *Universe) nodeOS(n int) string {
	if os, ok := u.Nodes[n].Labels[OSLabel]; ok {
		return os
	}
	return "linux"
}
