package manifest

// The kubelet labels its own Node with the OS and architecture of its
// binary, and sets them again at every status update
// (updateDefaultLabels, pkg/kubelet/kubelet_node_status.go): no Node of a
// cluster is without them, and charts select on them (nodeSelector
// kubernetes.io/os: linux). A Node written by hand usually leaves them
// out; it gets those of a linux/amd64 kubelet, as kubernetes.io/hostname
// is implied from the name.
var kubeletLabels = [...]struct{ key, value string }{
	{"kubernetes.io/os", "linux"},
	{"kubernetes.io/arch", "amd64"},
	{"beta.kubernetes.io/os", "linux"},
	{"beta.kubernetes.io/arch", "amd64"},
}

// addKubeletLabels gives labels the kubelet's OS and architecture labels
// it does not set.
func addKubeletLabels(labels map[string]string) {
	for _, l := range kubeletLabels {
		if _, ok := labels[l.key]; !ok {
			labels[l.key] = l.value
		}
	}
}
