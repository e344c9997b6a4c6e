package kubeletadmitdiff

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kivi-go/kivi/fidelity/podspec"
)

// Overhead is RuntimeClass kata's pod overhead.
func Overhead() Resources { return Resources{"cpu": "100m", "memory": "64Mi"} }

// workloadName is the name of spec i's Deployment.
func workloadName(i int) string { return fmt.Sprintf("w%d", i) }

// nodeDoc is the case's Node as a manifest: its labels (the kubelet's
// own labels are the reader's), taints and allocatable.
func (c *Case) nodeDoc() map[string]any {
	alloc := map[string]any{"cpu": c.Node.CPU, "memory": c.Node.Memory, storage: c.Node.Storage, "pods": fmt.Sprint(c.Node.Pods)}
	if c.Node.Dongles >= 0 {
		alloc[Dongle] = fmt.Sprint(c.Node.Dongles)
	}
	var taints []any
	for _, t := range c.Node.Taints {
		m := map[string]any{"key": t.Key, "effect": t.Effect}
		if t.Value != "" {
			m["value"] = t.Value
		}
		taints = append(taints, m)
	}
	meta := map[string]any{"name": NodeName}
	if len(c.Node.Labels) > 0 {
		meta["labels"] = c.Node.Labels
	}
	node := map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": meta, "status": map[string]any{"allocatable": alloc}}
	if len(taints) > 0 {
		node["spec"] = map[string]any{"taints": taints}
	}
	return node
}

// PodSpec is spec s as written in its Deployment's template (and read
// by the upstream side too): pinned to the node.
func (s Spec) PodSpec() map[string]any {
	spec := s.daemonSpec()
	spec["nodeName"] = NodeName
	return spec
}

// daemonSpec is spec s, not pinned.
func (s Spec) daemonSpec() map[string]any {
	containers, inits := podspec.YAML("c", s.Containers), podspec.YAML("i", s.InitContainers)
	if len(s.HostPorts) > 0 {
		var ports []any
		for _, p := range s.HostPorts {
			if s.HostNetwork {
				ports = append(ports, map[string]any{"containerPort": p})
			} else {
				ports = append(ports, map[string]any{"containerPort": 80, "hostPort": p})
			}
		}
		on := append(slices.Clone(containers), inits...)[s.PortsOn]
		on.(map[string]any)["ports"] = ports
	}
	spec := map[string]any{"containers": containers}
	if len(s.InitContainers) > 0 {
		spec["initContainers"] = inits
	}
	if s.RuntimeClass {
		spec["runtimeClassName"] = "kata"
	}
	if len(s.NodeSelector) > 0 {
		spec["nodeSelector"] = s.NodeSelector
	}
	if len(s.Required) > 0 {
		var terms []any
		for _, t := range s.Required {
			var exprs []any
			for _, e := range t {
				m := map[string]any{"key": e.Key, "operator": e.Operator}
				if len(e.Values) > 0 {
					m["values"] = e.Values
				}
				exprs = append(exprs, m)
			}
			terms = append(terms, map[string]any{"matchExpressions": exprs})
		}
		spec["affinity"] = map[string]any{"nodeAffinity": map[string]any{
			"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": terms}}}
	}
	if len(s.Tolerations) > 0 {
		var tols []any
		for _, t := range s.Tolerations {
			m := map[string]any{"operator": t.Operator}
			for k, v := range map[string]string{"key": t.Key, "value": t.Value, "effect": t.Effect} {
				if v != "" {
					m[k] = v
				}
			}
			if t.Seconds != nil {
				m["tolerationSeconds"] = *t.Seconds
			}
			tols = append(tols, m)
		}
		spec["tolerations"] = tols
	}
	if s.HostNetwork {
		spec["hostNetwork"] = true
	}
	if s.OSName != "" {
		spec["os"] = map[string]any{"name": s.OSName}
	}
	if s.Critical {
		spec["priorityClassName"] = "system-node-critical"
	}
	if s.PodRequests != nil || s.PodLimits != nil {
		res := map[string]any{}
		if s.PodRequests != nil {
			res["requests"] = s.PodRequests
		}
		if s.PodLimits != nil {
			res["limits"] = s.PodLimits
		}
		spec["resources"] = res
	}
	return spec
}

// YAML renders the case as the manifest stream the model reads: the
// Node, RuntimeClass kata, one Deployment per spec and the DaemonSet.
func (c *Case) YAML() []byte {
	docs := []any{c.nodeDoc(), map[string]any{"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass",
		"metadata": map[string]any{"name": "kata"}, "handler": "kata", "overhead": map[string]any{"podFixed": Overhead()}}}
	for i, s := range c.Specs {
		name := workloadName(i)
		labels := map[string]string{"app": name}
		podLabels := maps.Clone(labels)
		if s.OS != "" {
			podLabels["kubernetes.io/os"] = s.OS
		}
		docs = append(docs, map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": name},
			"spec": map[string]any{"replicas": 0, "selector": map[string]any{"matchLabels": labels},
				"template": map[string]any{"metadata": map[string]any{"labels": podLabels}, "spec": s.PodSpec()}}})
	}
	if c.Daemon != nil {
		labels := map[string]string{"app": "daemon"}
		docs = append(docs, map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": map[string]any{"name": "daemon"},
			"spec": map[string]any{"selector": map[string]any{"matchLabels": labels},
				"template": map[string]any{"metadata": map[string]any{"labels": labels}, "spec": c.Daemon.daemonSpec()}}})
	}
	return podspec.Stream(docs)
}
