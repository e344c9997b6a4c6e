package casefile

import (
	"fmt"
	"math"

	"github.com/kivi-go/kivi/model"
)

// maxObjects is the model's bound on deployments and templates,
// maxNodes on nodes and maxPods on pod slots (model.Universe.Compile).
const (
	maxObjects = model.MaxObjects
	maxNodes   = model.MaxNodes
	maxPods    = model.MaxPodSlots
)

// checkLimits rejects sizes the model cannot represent before Build
// allocates anything for them (a count of a billion nodes must be an
// error, not an out-of-memory crash).
func checkLimits(file string, c *model.Cluster) error {
	bad := func(path, format string, args ...any) error {
		return &Error{File: file, Path: path, Msg: fmt.Sprintf(format, args...)}
	}
	nodes, pods := 0, 0
	for i, g := range c.Nodes {
		if g.Count < 0 || g.Count > maxNodes {
			return bad(fmt.Sprintf("nodes[%d].count", i), "%d is out of range (accepted: 1..%d)", g.Count, maxNodes)
		}
		n := max(g.Count, 1)
		nodes += n
		for j, p := range g.Pods {
			if p.Count < 0 || p.Count > maxPods {
				return bad(fmt.Sprintf("nodes[%d].pods[%d].count", i, j), "%d is out of range (accepted: 1..%d)", p.Count, maxPods)
			}
			pods += n * max(p.Count, 1)
		}
		if nodes > maxNodes {
			return bad(fmt.Sprintf("nodes[%d]", i), "more than %d nodes in all", maxNodes)
		}
		if pods > maxPods {
			return bad(fmt.Sprintf("nodes[%d]", i), "more than %d initial pods in all", maxPods)
		}
	}
	if c.PodSlots < 0 || c.PodSlots > maxPods {
		return bad("podSlots", "%d is out of range (accepted: 0 (derived) or 1..%d)", c.PodSlots, maxPods)
	}
	if n := len(c.PodDisruptionBudgets); n > maxObjects {
		return bad("podDisruptionBudgets", "%d budgets (accepted: at most %d)", n, maxObjects)
	}
	if n := len(c.Deployments) + len(c.DeploymentTemplates); n > maxObjects {
		return bad("deployments", "%d deployments and deployment templates (accepted: at most %d)", n, maxObjects)
	}
	replicas := func(path string, n int) error {
		if n < 0 || n > math.MaxInt16 {
			return bad(path, "%d is out of range (accepted: 0..%d)", n, math.MaxInt16)
		}
		return nil
	}
	hpa := func(path string, h *model.HPADecl) error {
		if h == nil {
			return nil
		}
		if err := replicas(path+".minReplicas", h.Min); err != nil {
			return err
		}
		if err := replicas(path+".maxReplicas", h.Max); err != nil {
			return err
		}
		if h.Factor < 0 || h.Factor > 100 {
			return bad(path+".factor", "%d is out of range (accepted: 0..100)", h.Factor)
		}
		if w := h.ScaleDownStabilizationSyncs; w < 0 || w > model.MaxStabilizationSyncs {
			return bad(path+".scaleDownStabilizationSyncs", "%d is out of range (accepted: 0..%d HPA sync periods, 0 = off)", w, model.MaxStabilizationSyncs)
		}
		return nil
	}
	for i, d := range c.Deployments {
		p := fmt.Sprintf("deployments[%d]", i)
		for _, f := range []struct {
			name string
			n    int
		}{{"replicas", d.Replicas}, {"minReplicas", d.MinReplicas}, {"maxReplicas", d.MaxReplicas}, {"maxPodsPerNode", d.MaxPodsPerNode}} {
			if err := replicas(p+"."+f.name, f.n); err != nil {
				return err
			}
		}
		if err := hpa(p+".hpa", d.HPA); err != nil {
			return err
		}
		if d.HPA != nil && d.HPA.Factor*d.Replicas > math.MaxInt16 {
			return bad(p+".hpa.factor", "factor × replicas exceeds %d", math.MaxInt16)
		}
	}
	for i, d := range c.DeploymentTemplates {
		p := fmt.Sprintf("deploymentTemplates[%d]", i)
		if d.Replicas != nil {
			if err := replicas(p+".replicas", *d.Replicas); err != nil {
				return err
			}
		}
		if err := hpa(p+".hpa", d.HPA); err != nil {
			return err
		}
	}
	for i, t := range c.NodeTypes {
		if t.Min < 0 || t.Max < 0 || t.Max > maxNodes {
			return bad(fmt.Sprintf("nodeTypes[%d]", i), "min %d / max %d out of range (accepted: 0..%d)", t.Min, t.Max, maxNodes)
		}
	}
	return nil
}
