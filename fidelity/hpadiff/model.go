package hpadiff

import (
	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/model"
)

// Answer is one side's outcome: Replicas, or Valid false when the
// calculation reports an error (upstream) or an invalid proposal (model).
type Answer struct {
	Replicas int
	Valid    bool
}

// modelPods groups the case's pods as upstream's groupPods does:
// terminating pods are dropped, Pending and not-ready pods are unready,
// ready pods without a sample are missing.
func modelPods(c *Case) hpa.Pods {
	var p hpa.Pods
	for _, pod := range c.Pods {
		t := modelTemplate(pod)
		request := t.MetricRequest(model.CPU)
		s := hpa.Sample{Usage: pod.Usage, Request: request}
		switch pod.Kind {
		case Ready:
			p.Ready = append(p.Ready, s)
		case Pending, NotReady:
			p.Unready = append(p.Unready, hpa.Sample{Request: request})
		case NoSample:
			p.Missing = append(p.Missing, hpa.Sample{Request: request})
		}
	}
	return p
}

// modelTemplate is the pod's template as the manifest reader makes it:
// the scheduler's request (the container, at least the init container,
// plus the overhead) and the part of it no running container requests.
func modelTemplate(p Pod) model.PodTemplate {
	cpu := max(p.Request, p.Init) + p.Overhead
	return model.PodTemplate{Name: "web", CPU: cpu, ReservedOnly: [2]int64{model.CPU: cpu - p.Request}}
}

// ModelCalc is the model's replica calculator on the case's pods, grouped
// as upstream groups them.
func ModelCalc(c *Case) Answer {
	p := hpa.UtilizationReplicas(c.Current, int64(c.TargetPercent), hpa.Symmetric(c.TolerancePercent), modelPods(c))
	return Answer{Replicas: p.Replicas, Valid: p.Valid}
}

// ToModel is the case as a model universe and state: one deployment with
// an HPA, one pod template per pod (carrying its request), the pods in
// the model's phases (ready, not-ready and sample-less pods are all
// Running, the not-ready ones with model.PodNotReady: the model has no
// missing samples), and the stabilisation memory.
func ToModel(c *Case) (*model.Universe, *model.State) {
	u := &model.Universe{
		HPAs: []model.HPA{{Min: c.Min, Max: c.Max, TolerancePercent: c.TolerancePercent,
			ScaleDownStabilizationSyncs: c.WindowSyncs,
			Metrics:                     []model.Metric{{Resource: model.CPU, Target: model.Utilization, Value: int64(c.TargetPercent)}}}},
		Deployments: []model.Deployment{{Name: "web", Namespace: "default"}},
	}
	s := &model.State{Deps: []model.DeploymentState{{Active: true, Replicas: int16(c.Current), HPA: 1, HPASeen: c.Seen}}}
	for i, p := range c.Pods {
		u.Templates = append(u.Templates, modelTemplate(p))
		phase := model.Running
		switch p.Kind {
		case Pending:
			phase = model.Pending
		case Terminating:
			phase = model.Terminating
		}
		// A terminating pod of the case had been Running (and Ready unless
		// it is not-ready), as upstream's pod still says.
		ps := model.PodState{Phase: phase, Owner: 1, Template: uint8(i), Node: 1, CPU: int32(p.Usage), WasRunning: p.Kind == Terminating}
		if p.Kind == NotReady {
			ps.Readiness = model.PodNotReady
		}
		s.Pods = append(s.Pods, ps)
	}
	if c.WindowSyncs > 0 {
		for _, r := range c.Recs {
			if r.Age <= c.WindowSyncs {
				w := &s.Deps[0].HPAWindow[r.Age]
				*w = max(*w, int16(min(r.Replicas, c.Max)))
			}
		}
	}
	return u, s
}

// ModelEval is the model's evaluation of the case (the HPA's reconcile:
// the first sync seeds the window with the current count, then Recommend).
// Without a recommendation the count stays.
func ModelEval(c *Case) int {
	u, s := ToModel(c)
	ds := &s.Deps[0]
	spec := &u.HPAs[0]
	var win []int16
	if spec.ScaleDownStabilizationSyncs > 0 {
		win = ds.HPAWindow[:spec.ScaleDownStabilizationSyncs+1]
		if !ds.HPASeen {
			hpa.Record(win, c.Current, spec.Max)
		}
	}
	r := hpa.Recommend(u, s, 0, spec, c.Current, win)
	if !r.OK {
		return c.Current
	}
	return r.Desired
}
