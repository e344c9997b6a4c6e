package compose

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

// What the built-in properties check, for the run header.
const (
	modelAssertionMeaning = "no kubectl create of a deployment that already exists, and no internal consistency assertion of the model fails"
	validEndStateMeaning  = "when the cluster stops moving, no event or intent monitor is still waiting for something that never came"
)

// deploymentName is deployment d's name, or its position when the
// universe has no such deployment.
func deploymentName(u *model.Universe, d int) string {
	if d >= 0 && d < len(u.Deployments) {
		return u.Deployments[d].Name
	}
	return fmt.Sprint(d + 1)
}

// workloadName is deploymentName with its kind: "deployment web",
// "statefulset db".
func workloadName(u *model.Universe, d int) string {
	if d >= 0 && d < len(u.Deployments) {
		return u.KindWord(d, false) + " " + u.Deployments[d].Name
	}
	return "deployment " + fmt.Sprint(d+1)
}

// cpuDeltas says how much more CPU a CPU change gives a pod: 1..MaxDelta
// times DeltaUnit, in millicores for a cluster read from Kubernetes
// manifests (which have no Kivi hostname alias) and in Kivi's model units
// otherwise.
func cpuDeltas(u *model.Universe, e *model.Event) string {
	step := max(e.DeltaUnit, 1)
	if e.MaxDelta <= 1 {
		if u.Options.KiviHostnameAlias {
			return fmt.Sprintf("%d more CPU (model units)", step)
		}
		return fmt.Sprintf("%dm more CPU", step)
	}
	if u.Options.KiviHostnameAlias {
		if step == 1 {
			return fmt.Sprintf("1..%d more CPU (model units)", e.MaxDelta)
		}
		return fmt.Sprintf("%d to %d more CPU (%d amounts, %d apart; model units)", step, e.MaxDelta*step, e.MaxDelta, step)
	}
	if step == 1 {
		return fmt.Sprintf("1m to %dm more CPU", e.MaxDelta)
	}
	return fmt.Sprintf("%dm to %dm more CPU (%d amounts, %dm apart)", step, e.MaxDelta*step, e.MaxDelta, step)
}

// memoryDeltas lists an eventMemoryChange's amounts.
func memoryDeltas(e *model.Event) string {
	step := max(e.DeltaUnit, 1)
	if e.MaxDelta > model.MemoryChangeSteps {
		return fmt.Sprintf("%dMi to %dMi (%d amounts, %dMi apart)", step, e.MaxDelta*step, e.MaxDelta, step)
	}
	var xs []string
	for k := 1; k <= e.MaxDelta; k++ {
		xs = append(xs, strconv.Itoa(k*step)+"Mi")
	}
	switch len(xs) {
	case 0:
		return "no"
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// describeEvent says in one line what an active event does.
func describeEvent(u *model.Universe, e *model.Event) string {
	var what string
	switch e.Kind {
	case model.CPUChange:
		what = "whenever the cluster is quiet, one pod of " + workloadName(u, e.Deployment) + " uses " + cpuDeltas(u, e)
		if !u.ReadsCPUUsage {
			what += "; nothing in this cluster reads CPU usage (no HorizontalPodAutoscaler has a CPU metric, no kernelPanic event), so the rise changes nothing the controllers or the intents see"
		}
	case model.MemoryChange:
		what = "whenever the cluster is quiet, one pod of " + workloadName(u, e.Deployment) + " uses " + memoryDeltas(e) +
			" more memory; " + memoryPressureWhen(u) + " and its kubelet evicts pods"
	case model.KernelPanic:
		what = "a node whose free CPU falls to 2% or less crashes and recovers once its load is gone"
	case model.Maintenance:
		what = fmt.Sprintf("rolling maintenance: every node in turn is drained and brought back, %d at a time", e.Parallel)
		if e.Order == model.AnyOrder {
			what += ", the nodes in any order"
		}
	case model.NodeFailure:
		name := fmt.Sprint(e.Node + 1)
		if e.Node < len(u.Nodes) {
			name = u.Nodes[e.Node].Name
		}
		what = fmt.Sprintf("node %s goes down, is reported NotReady and comes back", name)
		switch {
		case e.OutOfService:
			what = fmt.Sprintf("node %s goes down for good and is reported NotReady; the operator then taints it %s:NoExecute", name, model.TaintNodeOutOfService)
		case e.Permanent:
			what = fmt.Sprintf("node %s goes down for good and is reported NotReady; it never comes back", name)
		}
	case model.CreateTargetDeployment:
		what = fmt.Sprintf("kubectl create of %s", workloadName(u, e.Deployment))
	case model.RolloutUndo:
		what = fmt.Sprintf("kubectl rollout undo of %s: a rolling update back to its previous revision", workloadName(u, e.Deployment))
	case model.RolloutRestart:
		what = fmt.Sprintf("kubectl rollout restart of %s: a rolling update to new pods of the same template", workloadName(u, e.Deployment))
	case model.RolloutPause:
		what = fmt.Sprintf("kubectl rollout pause of %s: its controller stops rolling it out and only scales the ReplicaSets it has", workloadName(u, e.Deployment))
	case model.RolloutResume:
		what = fmt.Sprintf("kubectl rollout resume of %s: its controller rolls its current pod template out", workloadName(u, e.Deployment))
	case model.ApplyDeployment, model.CreateDeployment:
		name := fmt.Sprint(e.Template)
		if e.Template < len(u.DeploymentTemplates) {
			name = u.DeploymentTemplates[e.Template].Name
		}
		verb := "apply"
		if e.Kind == model.CreateDeployment {
			verb = "create"
		}
		what = fmt.Sprintf("kubectl %s of the manifest %s", verb, name)
		if e.SelfHeal {
			what = fmt.Sprintf("a GitOps sync of the manifest %s with self-heal: applied once, then again whenever the live Deployment drifts from it", name)
		}
	case model.ScaleDeployment:
		var names []string
		for d := e.Deployment; d < e.MaxDeployment && d < len(u.Deployments); d++ {
			names = append(names, u.Deployments[d].Name)
		}
		target := "one of the deployments " + strings.Join(names, ", ")
		if len(names) == 1 {
			target = workloadName(u, e.Deployment)
		}
		what = fmt.Sprintf("kubectl scale of %s by -%d..+%d replicas", target, e.MaxDelta, e.MaxDelta)
		if e.Targeted {
			what = fmt.Sprintf("kubectl scale of %s to %d replicas", target, e.Target)
		}
	case model.Drain:
		what = describeDrain(u, e)
	case model.DeleteNode:
		name := fmt.Sprint(e.Node + 1)
		if e.Node < len(u.Nodes) {
			name = u.Nodes[e.Node].Name
		}
		what = fmt.Sprintf("kubectl delete node %s: the Node object goes for good and the pod garbage collector deletes its pods", name)
		if e.DrainFirst {
			what = fmt.Sprintf("kubectl drain %s, then kubectl delete node %s: the Node object goes for good", name, name)
		}
	default:
		what = e.Kind.String()
	}
	switch e.Slot {
	case model.First:
		what += " (before any controller starts)"
	case model.AfterStable:
		what += " (starts once the cluster is first quiet)"
	}
	return what
}

// IntentNames lists the intents a problem checks, in order, for the
// "Working on the intents:" line.
func (p *Problem) IntentNames() []string {
	var names []string
	for _, in := range p.Intents {
		names = append(names, in.Name)
	}
	return names
}

// Header describes the problem's intents, built-in properties and events.
func (p *Problem) Header() report.Header {
	var h report.Header
	for _, in := range p.Intents {
		h.Intents = append(h.Intents, report.HeaderItem{Name: in.Name, Meaning: in.Explain})
	}
	h.BuiltIns = []report.HeaderItem{
		{Name: ModelAssertion, Meaning: modelAssertionMeaning},
		{Name: ValidEndState, Meaning: validEndStateMeaning},
	}
	for i := range p.System.U.Events {
		e := &p.System.U.Events[i]
		h.Events = append(h.Events, report.HeaderItem{Name: e.Kind.String(), Meaning: describeEvent(p.System.U, e)})
	}
	return h
}
