package manifest

import (
	"errors"
	"sort"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Options tune the loaders.
type Options struct {
	// KnownIntent says whether an intent name is accepted (nil: every
	// name); IntentNames lists the accepted names for the error message.
	// The intents package is not importable from here, so the caller
	// passes its catalogue.
	KnownIntent func(name string) bool
	IntentNames []string
	// CheckIntent checks a known intent's parameters against the
	// workloads' names (in order, for Kivi's 1-based did) and kinds
	// (model.DeploymentDecl.Kind, or "CronJob/NAME" for a run of CronJob
	// NAME) and returns
	// the bad parameter ("" for the intent as a whole) and a message
	// with the accepted values, or "" when they are right (nil: no
	// check here; the verification checks them later, without the
	// file's name).
	CheckIntent func(d model.IntentDecl, deployments, kinds []string) (param, msg string)
	// ReadFile reads a manifest an intents file's event names
	// (applyDeployment/createDeployment with manifest: FILE); name is
	// the path as written, joined to the intents file's directory. nil:
	// the operating system's files.
	ReadFile func(name string) ([]byte, error)
	// CurrentPlacement reads the Pods of a manifest stream as a dump of a
	// running cluster: the workloads exist from the start and their pods
	// run where the dump has them (runningpods.go). Without it the
	// workloads are created by the first command and their pods placed
	// by the model, and the stream's Pods are left out.
	CurrentPlacement bool
}

// Result is a loaded cluster with the warnings found on the way.
type Result struct {
	Cluster  *model.Cluster
	Warnings []Warning
}

// assembly collects a Cluster from nodes and workload objects.
type assembly struct {
	opts  Options
	c     *model.Cluster
	warns []Warning
	// limits are the input's LimitRanges (limitRanges).
	limits *limitRangeTable
	// nodeIns are the input's Nodes as read (with the DaemonSets'
	// reservations), kept for a running cluster's pods (runningpods.go).
	nodeIns []nodeIn
	// podTemplates maps a Deployment's or StatefulSet's model name to its
	// template as written (Object.PodTemplate), for the applied files
	// that leave it unchanged.
	podTemplates map[string]string
	// oldHashes are the pod-template-hash values of the current and the
	// older ReplicaSet of a dump's Deployment in the middle of a rollout,
	// by model name (replicasets.go).
	oldHashes map[string][2]string
}

// deploymentKey is namespace/name.
func deploymentKey(ns, name string) string {
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + name
}

// workloads adds the Deployments, HPAs and the descheduler policy among
// objs to the cluster, whose node types must be set. created says
// whether the deployments exist at the start (a running cluster) or are
// created by the first command (a configuration being applied).
func (as *assembly) workloads(objs []Object, created bool) (map[string]string, error) {
	nodes := labelsOf(as.c.NodeTypes, as.c.KiviHostnameAlias)
	pcs, err := priorityClassDecls(objs)
	if err != nil {
		return nil, err
	}
	as.c.PriorityClasses = pcs
	classes := newPriorityClassTable(pcs)
	limits, err := as.limitRanges(objs)
	if err != nil {
		return nil, err
	}
	// Model names: the Deployment's name, or namespace/name when two
	// namespaces use the same name.
	count := map[string]int{}
	for _, o := range objs {
		if meta, ok := workloadMeta(o); ok {
			count[meta.Name]++
		}
	}
	names := map[string]string{} // namespace/name → model name
	// index finds a deployment by model name without a scan per HPA
	// (quadratic on large inputs).
	index := map[string]int{}
	// specs are the workloads' pod specs, for their HPAs' ContainerResource
	// metrics.
	specs := map[string]PodSpec{}
	for _, o := range objs {
		if o.Kind == "Pod" {
			continue
		}
		as.warns = append(as.warns, classify(o)...)
		meta, ok := workloadMeta(o)
		if !ok {
			continue
		}
		key := deploymentKey(meta.Namespace, meta.Name)
		if _, dup := names[key]; dup {
			return nil, o.at().errorf(o.path("metadata.name"), "a second workload %s (accepted: one Deployment, StatefulSet, Job or CronJob per namespace and name: the model names workloads by name)", key)
		}
		name := meta.Name
		if count[name] > 1 {
			name = key
		}
		names[key] = name
		if spec, ok := podSpecOf(o); ok {
			specs[key] = spec
		}
		if o.Kind == "CronJob" {
			runs, td, err := cronJobDecls(o, name, nodes, classes, limits, &as.warns)
			if err != nil {
				return nil, err
			}
			as.c.Templates = append(as.c.Templates, td)
			for _, dd := range runs {
				index[dd.Name] = len(as.c.Deployments)
				as.c.Deployments = append(as.c.Deployments, dd)
			}
			continue
		}
		decl := deploymentDecl
		switch o.Kind {
		case "StatefulSet":
			decl = statefulSetDecl
		case "Job":
			decl = jobDecl
		}
		dd, td, err := decl(o, name, nodes, classes, limits, &as.warns)
		if err != nil {
			return nil, err
		}
		if !created {
			f := false
			dd.Created = &f
		}
		// A running cluster's paused Deployment has the ReplicaSet it
		// was rolled out with (its pods are the dump's).
		dd.RolledOut = created && dd.Paused
		as.c.Templates = append(as.c.Templates, td)
		if created && o.Kind == "Deployment" && (!dd.Paused || dd.RolledOut) {
			var ignored []Warning // the Deployment's own template was warned about
			as.replicaSetsOf(&dd, o, objs, func(ro Object) (model.TemplateDecl, error) {
				_, td, err := decl(ro, name, nodes, classes, limits, &ignored)
				return td, err
			})
		}
		index[dd.Name] = len(as.c.Deployments)
		as.c.Deployments = append(as.c.Deployments, dd)
		if o.PodTemplate != "" {
			if as.podTemplates == nil {
				as.podTemplates = map[string]string{}
			}
			as.podTemplates[dd.Name] = o.PodTemplate
		}
	}
	hpaOf := map[string]Object{}
	// firstHPAs are the first HPA of each target, in the manifests' order.
	type firstHPA struct {
		o          Object
		kind, name string
		dep        int
	}
	var firstHPAs []firstHPA
	var policy *Object
	for _, o := range objs {
		switch o.Value.(type) {
		case *HPAv2, *HPAv1:
			target, h, err := hpaDecl(o, &as.warns)
			if err != nil {
				return nil, err
			}
			if h == nil {
				continue
			}
			ns := ""
			switch v := o.Value.(type) {
			case *HPAv2:
				ns, h.Name = v.Metadata.Namespace, v.Metadata.Name
			case *HPAv1:
				ns, h.Name = v.Metadata.Namespace, v.Metadata.Name
			}
			key := deploymentKey(ns, target.Name)
			name, ok := names[key]
			if !ok || as.c.Deployments[index[name]].Kind != kindDecl(target.Kind) {
				// The API server takes an HPA whose target does not exist;
				// the HPA controller then scales nothing (FailedGetScale)
				// until one is created, which the model never does.
				as.warns = append(as.warns, o.at().warning(o.path("spec.scaleTargetRef.name"), "ignored: no %s %s in the input (workloads: %s), so the HPA controller scales nothing (FailedGetScale); give the %s's manifest too for the HPA to act", target.Kind, key, keysOf(names), target.Kind))
				continue
			}
			dd := &as.c.Deployments[index[name]]
			if prev, dup := hpaOf[key]; dup {
				as.warns = append(as.warns, sharedTargetWarning(o, prev, dd.HPA, h, target.Kind, key))
				dd.HPA.SharedTarget = append(dd.HPA.SharedTarget, model.HPABoundsDecl{Name: h.Name, Min: h.Min, Max: h.Max})
				continue
			}
			hpaOf[key] = o
			firstHPAs = append(firstHPAs, firstHPA{o, target.Kind, target.Name, index[name]})
			resolveContainerMetrics(h, specs[key], limits != nil && len(limits.byNamespace) > 0)
			dd.HPA = h
		case *DeschedulerPolicy:
			if policy != nil {
				return nil, o.at().errorf(o.path(""), "a second DeschedulerPolicy (the first is in %s document %d; accepted: one)", policy.File, policy.Doc)
			}
			oc := o
			policy = &oc
			ds, err := deschedulerDecl(o, classes, &as.warns)
			if err != nil {
				return nil, err
			}
			as.c.Descheduler = ds
		}
	}
	as.selectorOverlap(objs, hpaOf, names, index)
	for _, f := range firstHPAs {
		// The HPAs of a workload that several scale compute no metric.
		if dd := as.c.Deployments[f.dep]; len(dd.HPA.SharedTarget) == 0 {
			as.warnMissingMetricRequest(f.o, dd.HPA, f.kind, f.name, dd)
		}
	}
	nss, err := namespaceDecls(objs)
	if err != nil {
		return nil, err
	}
	as.c.Namespaces = nss
	if as.c.ResourceQuotas, err = resourceQuotaDecls(objs, &as.warns); err != nil {
		return nil, err
	}
	pdbs, err := pdbDecls(objs, &as.warns)
	if err != nil {
		return nil, err
	}
	as.c.PodDisruptionBudgets = pdbs
	if err := schedulerDecl(objs, as.c, nodes, &as.warns); err != nil {
		return nil, err
	}
	if err := kubeletDecl(objs, as.c, &as.warns); err != nil {
		return nil, err
	}
	return names, nil
}

func keysOf(m map[string]string) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// noIntent is the message of an intents file that names no intent.
const noIntent = "no intent: the file declares none (accepted: intents: [{name: NAME, params: {...}}], with at least one intent such as pod_always_schedulable; see docs/inputs.md)"

// needDeployment fails when the workloads left no Deployment to verify:
// every intent is about Deployments and their pods, so a verdict on an
// input without one would be empty. where names the input.
func (as *assembly) needDeployment(where string) error {
	if len(as.c.Deployments) > 0 {
		return nil
	}
	return &Error{File: where, Msg: "no Deployment, StatefulSet, Job or CronJob to verify (accepted: apps/v1 Deployments and StatefulSets, with their HorizontalPodAutoscalers, and batch/v1 Jobs and CronJobs; other workload kinds such as ReplicaSet and ReplicationController, and bare Pods, are not modelled, DaemonSets only reserve room on their nodes, and system namespaces are left out)"}
}

// finish adds the default intent and checks that the cluster builds; a
// model error becomes an input error naming the origin.
func (as *assembly) finish(origin string) (*Result, error) {
	if len(as.c.Nodes) == 0 {
		return nil, &Error{File: origin, Msg: "no node in the input (accepted: Node manifests, a NodeList, or Kivi's cluster_configs.json node types)"}
	}
	as.assumeEphemeralStorage()
	if _, _, err := as.c.Build(); err != nil {
		return nil, &Error{File: origin, Msg: "the cluster does not build: " + err.Error(), Err: err}
	}
	as.warnUnlistedScalar()
	return &Result{Cluster: as.c, Warnings: as.warns}, nil
}

// IsInput reports whether err is a bad-input error of this package.
func IsInput(err error) bool { return errors.Is(err, ErrInput) }
