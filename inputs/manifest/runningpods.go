package manifest

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// A dump of a running cluster (`kubectl get pods -A -o yaml` next to its
// workloads and Nodes) read with Options.CurrentPlacement starts from
// where its pods run instead of from the workloads' creation: every
// Deployment and StatefulSet exists from the start, its bound pods run on
// their nodes, and the search explores what follows (the events) rather
// than every placement the scheduler could have chosen, most of a large
// cluster's states.
//
// A pod is read by its controller (ownerReferences), as the controllers
// themselves find their pods:
//   - a Deployment's (through a ReplicaSet named <deployment>-<pod-template-hash>
//     whose pods the Deployment's selector matches) and a StatefulSet's
//     (its ordinal from its name) start Running on their node, bound
//     Pending ones too (the kubelet starts them); unbound ones are left
//     out, so the controller's first sync creates them again;
//   - a DaemonSet's is left out when the DaemonSet is in the input, whose
//     spec reserves its pod on every node it runs on;
//   - a Job's runs on its node when the Job runs and still wants it,
//     bound Pending ones too; the Job starts from its status
//     (jobprogress.go);
//   - any other pod (no controller, a ReplicaSet of no Deployment, a
//     custom controller, a DaemonSet not in the input) holds its requests,
//     host ports and a pod slot of its node, as a reservation;
//   - a pod being deleted, Succeeded or Failed is left out.
//
// A placed pod uses what its workload's HPA last measured (status.currentMetrics,
// a Resource metric's averageValue, else its averageUtilization of the
// request), as the metrics server would report it to the HPA's next
// sync; without a reading it uses its requests, as a created pod does.

// runningPods sorts a dump's pods out: placed on as.nodeIns (which the
// caller groups again), reserved there, or left out, with one warning
// per kind of leaving out. objs are the input's other objects, names
// the workloads' model names by namespace/name.
func (as *assembly) runningPods(pods, objs []Object, names map[string]string) error {
	if len(as.nodeIns) == 0 {
		at := at{file: "the input"}
		if len(pods) > 0 {
			at = pods[0].at()
		}
		return at.errorf("", "the current placement needs the cluster's Node objects (accepted: `kubectl get nodes -o yaml`; node types of Kivi's cluster_configs.json have no names to place pods on)")
	}
	nodeIdx := map[string]int{}
	for i, n := range as.nodeIns {
		nodeIdx[n.name] = i
	}
	var deployments []Object
	kinds := map[string]bool{} // "Kind namespace/name" of the input's StatefulSets, Jobs and DaemonSets
	decls := map[string]int{}  // a Job's model name → its position in as.c.Deployments
	for i, d := range as.c.Deployments {
		if _, dup := decls[d.Name]; !dup && d.Kind == "Job" && d.CronJob == nil {
			decls[d.Name] = i
		}
	}
	jobs := map[string]*jobProgress{} // by namespace/name
	var jobOrder []*jobProgress
	for _, o := range objs {
		switch v := o.Value.(type) {
		case *Deployment:
			deployments = append(deployments, o)
		case *StatefulSet:
			kinds["StatefulSet "+deploymentKey(v.Metadata.Namespace, v.Metadata.Name)] = true
		case *Job:
			key := deploymentKey(v.Metadata.Namespace, v.Metadata.Name)
			i, ok := decls[names[key]]
			if !ok {
				continue
			}
			kinds["Job "+key] = true
			jp, err := as.readJobProgress(o, &as.c.Deployments[i])
			if err != nil {
				return err
			}
			jobs[key] = jp
			jobOrder = append(jobOrder, jp)
		case *DaemonSet:
			kinds["DaemonSet "+deploymentKey(v.Metadata.Namespace, v.Metadata.Name)] = true
		}
	}
	var unbound, starting, finishedJobPods, suspendedJobPods, surplusJobPods, gone []string
	dumped := map[string]int{} // a Deployment's (model name) bound and unbound pods
	var reserved []string
	hashes := map[string][]string{} // a Deployment's pods' pod-template-hash values
	for _, o := range pods {
		p := o.Value.(*Pod)
		a := o.at()
		key := deploymentKey(p.Metadata.Namespace, p.Metadata.Name)
		if p.DeletionTimestamp() || p.Status.Phase == "Succeeded" || p.Status.Phase == "Failed" {
			gone = append(gone, key)
			continue
		}
		ip, owner, err := as.runningPodOwner(o, deployments, kinds, names)
		if err != nil {
			return err
		}
		if owner == "DaemonSet" {
			continue
		}
		if ip != nil {
			dumped[ip.Deployment]++
		}
		jp := jobs[jobOwner(p)]
		if owner == "Job" && jp == nil {
			// Not the controller runningPodOwner found: a reservation.
			owner = ""
		}
		if owner == "Job" {
			jp.found++
			switch {
			case jp.finished:
				finishedJobPods = append(finishedJobPods, key)
				continue
			case jp.decl.Job.Suspend:
				suspendedJobPods = append(suspendedJobPods, key)
				continue
			}
		}
		if p.Spec.NodeName == "" {
			if ip != nil || owner == "Job" {
				unbound = append(unbound, key)
			}
			continue
		}
		ni, ok := nodeIdx[p.Spec.NodeName]
		if !ok {
			return a.errorf(o.path("spec.nodeName"), "%q is not one of the input's Nodes (accepted: %s)", p.Spec.NodeName, nodeNames(as.nodeIns))
		}
		if owner == "Job" {
			index := -1
			if jp.decl.Job.CompletionMode == "Indexed" {
				index = jobPodIndex(p, jp.o.Value.(*Job).Metadata.Name)
			}
			jp.pods = append(jp.pods, jobPod{o: o, node: ni, index: index, running: p.Status.Phase == "Running"})
			continue
		}
		n := &as.nodeIns[ni]
		if ip != nil {
			h := p.Metadata.Labels[podTemplateHashLabel]
			known, rollingOut := as.oldHashes[ip.Deployment]
			ip.OldReplicaSet = rollingOut && h == known[1]
			if h != "" && !slices.Contains(known[:], h) && !slices.Contains(hashes[ip.Deployment], h) {
				hashes[ip.Deployment] = append(hashes[ip.Deployment], h)
			}
			if p.Status.Phase != "Running" {
				starting = append(starting, key)
			}
			if ip.Restarts, ip.InitRestarts, err = podRestarts(o, p); err != nil {
				return err
			}
			n.pods = append(n.pods, *ip)
			continue
		}
		if err := as.reservePod(n, o); err != nil {
			return err
		}
		if n.maxPods == 0 {
			n.maxPods = model.DefaultMaxPods
		}
		n.maxPods = max(n.maxPods-1, 1)
		reserved = append(reserved, key)
	}
	for _, jp := range jobOrder {
		left, started := as.placeJobPods(jp)
		surplusJobPods = append(surplusJobPods, left...)
		starting = append(starting, started...)
		if !jp.finished && jp.active > jp.found {
			as.warns = append(as.warns, jp.o.at().warning(jp.o.path("status.active"), "Job %s: %d active pods, of which the dump has %d: its controller creates the missing ones", jp.key, jp.active, jp.found))
		}
	}
	as.pausedWithoutReplicaSet(deployments, names, dumped)
	if err := as.measuredUsage(objs, names); err != nil {
		return err
	}
	for _, n := range as.nodeIns {
		if n.reservedCPU > n.cpu || n.reservedMem > n.memory {
			as.warns = append(as.warns, Warning{Msg: fmt.Sprintf("node %s: the pods of no modelled workload request more cpu or memory than it has", n.name)})
		}
	}
	for _, d := range as.c.Deployments {
		h := hashes[d.Name]
		switch known, rollingOut := as.oldHashes[d.Name]; {
		case rollingOut && len(h) > 0:
			as.warns = append(as.warns, Warning{Msg: fmt.Sprintf("Deployment %s is in the middle of a rollout from ReplicaSet %s-%s to %s-%s, and some of its pods are of other ReplicaSets (pod-template-hash %s): they are taken as pods of its current template", d.Name, d.Name, known[1], d.Name, known[0], strings.Join(h, ", "))})
		case len(h) > 1:
			as.warns = append(as.warns, Warning{Msg: fmt.Sprintf("Deployment %s is in the middle of a rollout (pods of %d ReplicaSets: pod-template-hash %s): all its running pods are taken as pods of its current template (give the dump its ReplicaSets, kubectl get replicasets -o yaml, for the model to follow the rollout)", d.Name, len(h), strings.Join(h, ", "))})
		}
	}
	for _, left := range []struct {
		which     []string
		one, many string
	}{
		{reserved, "belongs to no workload of the input (no controller, a custom controller, a ReplicaSet of no Deployment): it holds its requests on its node",
			"belong to no workload of the input (no controller, a custom controller, a ReplicaSet of no Deployment): they hold their requests on their nodes"},
		{unbound, "is not bound to a node: left out, so that its controller creates it again",
			"are not bound to a node: left out, so that their controllers create them again"},
		{starting, "is bound to its node but not Running yet: the model starts it there",
			"are bound to their nodes but not Running yet: the model starts them there"},
		{finishedJobPods, "belongs to a finished Job (Complete or Failed): left out, as its controller deletes a finished Job's active pods",
			"belong to finished Jobs (Complete or Failed): left out, as their controller deletes a finished Job's active pods"},
		{suspendedJobPods, "belongs to a suspended Job: left out, as its controller deletes a suspended Job's active pods",
			"belong to suspended Jobs: left out, as their controller deletes a suspended Job's active pods"},
		{surplusJobPods, "is more than its Job still wants (min(parallelism, completions − succeeded); an Indexed Job's: one pod per pending index): left out, as its controller deletes it",
			"are more than their Jobs still want (min(parallelism, completions − succeeded); an Indexed Job's: one pod per pending index): left out, as their controller deletes them"},
		{gone, "is being deleted or has finished: left out", "are being deleted or have finished: left out"},
	} {
		as.podsLeftOut(pods, left.which, left.one, left.many)
	}
	return nil
}

// pausedWithoutReplicaSet takes a dump's paused Deployment with no pod
// in the dump and none in its status (status.replicas, the pods of all
// its ReplicaSets) as one created paused and never resumed: it has no
// ReplicaSet (not RolledOut), since the paused sync of one that had a set
// would have scaled it to spec.replicas. dumped counts the dump's pods of
// each Deployment by model name.
func (as *assembly) pausedWithoutReplicaSet(deployments []Object, names map[string]string, dumped map[string]int) {
	for _, o := range deployments {
		d := o.Value.(*Deployment)
		name, ok := names[deploymentKey(d.Metadata.Namespace, d.Metadata.Name)]
		if !ok || dumped[name] > 0 || d.Status.Replicas > 0 {
			continue
		}
		for i := range as.c.Deployments {
			if dd := &as.c.Deployments[i]; dd.Name == name && dd.Paused && dd.Replicas > 0 {
				dd.RolledOut = false
			}
		}
	}
}

// podsLeftOut is one warning for a set of pods (names, up to three):
// one and many say what becomes of one pod and of several.
func (as *assembly) podsLeftOut(pods []Object, which []string, one, many string) {
	switch len(which) {
	case 0:
		return
	case 1:
		as.warns = append(as.warns, Warning{File: pods[0].File, Msg: fmt.Sprintf("1 pod (%s) %s", which[0], one)})
		return
	}
	names := which
	if len(names) > 3 {
		names = append(names[:3:3], fmt.Sprintf("… (%d in all)", len(which)))
	}
	as.warns = append(as.warns, Warning{File: pods[0].File, Msg: fmt.Sprintf("%d pods (%s) %s", len(which), strings.Join(names, ", "), many)})
}

// runningPodOwner finds a pod's controller: the pod of a modelled
// Deployment or StatefulSet (ip), or owner "DaemonSet" or "Job" for a
// pod of a DaemonSet or Job of the input, or neither (a reservation).
func (as *assembly) runningPodOwner(o Object, deployments []Object, kinds map[string]bool, names map[string]string) (ip *model.InitialPod, owner string, err error) {
	p := o.Value.(*Pod)
	if dep, ok := ownerDeployment(p, deployments); ok {
		if name, ok := names[dep]; ok {
			return &model.InitialPod{Deployment: name, Name: p.Metadata.Name}, "", nil
		}
		return nil, "", nil
	}
	r := controllerRef(p)
	if r == nil {
		return nil, "", nil
	}
	key := deploymentKey(p.Metadata.Namespace, r.Name)
	if !kinds[r.Kind+" "+key] {
		return nil, "", nil
	}
	switch r.Kind {
	case "DaemonSet", "Job":
		return nil, r.Kind, nil
	case "StatefulSet":
		name, ok := names[key]
		if !ok {
			return nil, "", nil
		}
		ord, err := strconv.Atoi(strings.TrimPrefix(p.Metadata.Name, r.Name+"-"))
		if !strings.HasPrefix(p.Metadata.Name, r.Name+"-") || err != nil || ord < 0 {
			return nil, "", o.at().errorf(o.path("metadata.name"), "%q is not a pod name of StatefulSet %s (accepted: %s-<ordinal>)", p.Metadata.Name, r.Name, r.Name)
		}
		return &model.InitialPod{Deployment: name, Ordinal: &ord}, "", nil
	}
	return nil, "", nil
}

// measuredUsage sets the placed pods' cpu and memory usage from their
// workload's HPA status (objs' HPAs; names maps namespace/name to model
// names).
func (as *assembly) measuredUsage(objs []Object, names map[string]string) error {
	for _, o := range objs {
		var ref CrossVersionObjectReference
		var ns string
		// readings: a resource's averageValue or averageUtilization, and
		// the path of the reading.
		type reading struct {
			res   string
			value *QuantityText
			util  *int32
			path  string
		}
		var readings []reading
		switch v := o.Value.(type) {
		case *HPAv2:
			ref, ns = v.Spec.ScaleTargetRef, v.Metadata.Namespace
			for i, m := range v.Status.CurrentMetrics {
				if m.Type != "Resource" || m.Resource == nil {
					continue
				}
				c := m.Resource.Current
				readings = append(readings, reading{m.Resource.Name, c.AverageValue, c.AverageUtilization, index("status.currentMetrics", i) + ".resource.current"})
			}
		case *HPAv1:
			ref, ns = v.Spec.ScaleTargetRef, v.Metadata.Namespace
			if u := v.Status.CurrentCPUUtilizationPercentage; u != nil {
				readings = append(readings, reading{res: "cpu", util: u, path: "status.currentCPUUtilizationPercentage"})
			}
		default:
			continue
		}
		name, ok := names[deploymentKey(ns, ref.Name)]
		if !ok || len(readings) == 0 {
			continue
		}
		td := as.templateOf(name)
		if td == nil {
			continue
		}
		a := o.at()
		for _, r := range readings {
			kind, request := cpuRequest, td.CPU-td.ReservedOnly[model.CPU]
			switch r.res {
			case "cpu":
			case "memory":
				kind, request = memoryRequest, td.Memory-td.ReservedOnly[model.Memory]
			default:
				continue
			}
			var usage int64
			switch {
			case r.value != nil:
				v, err := parseResource(a, o.path(r.path+".averageValue"), *r.value, kind)
				if err != nil {
					return err
				}
				usage = v
			case r.util != nil:
				if *r.util < 0 {
					return a.errorf(o.path(r.path), "%d (accepted: a percentage ≥ 0)", *r.util)
				}
				usage = (request*int64(*r.util) + 50) / 100
				if usage > maxModelValue {
					return a.errorf(o.path(r.path+".averageUtilization"), "%d (accepted: a percentage of the request of at most %d in all)", *r.util, maxModelValue)
				}
			default:
				continue
			}
			for i := range as.nodeIns {
				for j := range as.nodeIns[i].pods {
					if p := &as.nodeIns[i].pods[j]; p.Deployment == name {
						u := usage
						if r.res == "cpu" {
							p.CPU = &u
						} else {
							p.Memory = &u
						}
					}
				}
			}
		}
	}
	return nil
}

// templateOf is the pod template of workload name.
func (as *assembly) templateOf(name string) *model.TemplateDecl {
	for _, d := range as.c.Deployments {
		if d.Name != name {
			continue
		}
		for i := range as.c.Templates {
			if as.c.Templates[i].Name == d.Template {
				return &as.c.Templates[i]
			}
		}
	}
	return nil
}

// podRestarts sums a dumped pod's containers' and init containers'
// restartCount (status.containerStatuses, status.initContainerStatuses):
// what RemovePodsHavingTooManyRestarts reads.
func podRestarts(o Object, p *Pod) (containers, init int, err error) {
	sum := func(field string, statuses []ContainerStatus) (int, error) {
		n := int64(0)
		for i, cs := range statuses {
			if cs.RestartCount < 0 || cs.RestartCount > math.MaxInt32 {
				return 0, o.at().errorf(o.path(index("status."+field, i)+".restartCount"), "%d (accepted: 0 to %d)", cs.RestartCount, int64(math.MaxInt32))
			}
			n = min(n+cs.RestartCount, math.MaxInt32)
		}
		return int(n), nil
	}
	if containers, err = sum("containerStatuses", p.Status.ContainerStatuses); err != nil {
		return 0, 0, err
	}
	init, err = sum("initContainerStatuses", p.Status.InitContainerStatuses)
	return containers, init, err
}
