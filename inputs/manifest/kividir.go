package manifest

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// LoadKiviDir reads Kivi's configuration directory (Kivi's inputs and CLI
// §b) under root in fsys:
//
//	yaml/        Deployment, HorizontalPodAutoscaler, DeschedulerPolicy
//	             (and optionally Node) manifests: *.yaml, *.yml, *.json,
//	             read in name order
//	user_input/  a file whose name contains "cluster_configs" (node types
//	             with counts and scaling bounds, dTypes, events_assumption)
//	             and one whose name contains "intent" (the intents)
//
// As in Kivi the deployments start not created and a command creates
// each of them (here one first-slot createTargetDeployment per
// deployment); the events come from events_assumption; the default
// intent is added by the caller (package compose always checks
// pod_always_schedulable).
func LoadKiviDir(fsys fs.FS, root string, opts Options) (*Result, error) {
	// Kivi's configuration directories are written for Kivi: its
	// `hostname` alias exists there.
	as := &assembly{opts: opts, c: &model.Cluster{Name: path.Base(root), KiviHostnameAlias: true}}
	yamlDir := path.Join(root, "yaml")
	files, err := readDir(fsys, yamlDir, func(n string) bool {
		return strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".json")
	})
	if err != nil {
		return nil, &Error{File: yamlDir, Msg: "cannot read the manifests directory (accepted: DIR/yaml/ with *.yaml files): " + err.Error()}
	}
	if len(files) == 0 {
		return nil, &Error{File: yamlDir, Msg: "no manifest (accepted: *.yaml, *.yml or *.json files)"}
	}
	var objs []Object
	counts := objectCounts{}
	for _, f := range files {
		o, w, err := decode(f.name, f.data, counts)
		if err != nil {
			return nil, err
		}
		objs = append(objs, o...)
		as.warns = append(as.warns, w...)
	}
	uiDir := path.Join(root, "user_input")
	inputs, err := readDir(fsys, uiDir, func(string) bool { return true })
	if err != nil {
		return nil, &Error{File: uiDir, Msg: "cannot read the user input directory (accepted: DIR/user_input/ with cluster_configs.json and intents.json): " + err.Error()}
	}
	cfgFile, err := pick(uiDir, inputs, "cluster_configs")
	if err != nil {
		return nil, err
	}
	intentFile, err := pick(uiDir, inputs, "intent")
	if err != nil {
		return nil, err
	}
	var cc *kiviClusterConfig
	if cfgFile != nil {
		if cc, err = parseKiviClusterConfig(cfgFile.name, cfgFile.data); err != nil {
			return nil, err
		}
	}
	if err := admitRuntimeClasses(objs); err != nil {
		return nil, err
	}
	if err := as.nodes(objs, cc, cfgFile); err != nil {
		return nil, err
	}
	if _, err := as.workloads(objs, false); err != nil {
		return nil, err
	}
	as.warnDaemonSetSelectors(objs)
	if err := as.needDeployment(yamlDir); err != nil {
		return nil, err
	}
	if cc != nil {
		if err := applyDTypes(cfgFile.name, cc, as.c); err != nil {
			return nil, err
		}
	}
	for _, d := range as.c.Deployments {
		if d.CronJob != nil {
			continue // a CronJob's run is created by its schedule
		}
		as.c.Events = append(as.c.Events, model.EventDecl{Kind: "createTargetDeployment", When: "first", Deployment: d.Name})
	}
	if cc != nil {
		if err := as.addEvents(cfgFile.name, "events_assumption", cc.EventsAssumption); err != nil {
			return nil, err
		}
	}
	if intentFile != nil {
		if err := as.intents(intentFile); err != nil {
			return nil, err
		}
	}
	return as.finish(root)
}

// nodes sets the topology from Kivi's node types or from Node objects
// (one or the other).
func (as *assembly) nodes(objs []Object, cc *kiviClusterConfig, cfg *file) error {
	var nodes []nodeIn
	var first *Object
	for _, o := range objs {
		if o.Kind != "Node" {
			continue
		}
		if first == nil {
			oc := o
			first = &oc
		}
		n, err := nodeFromObject(o)
		if err != nil {
			return err
		}
		for _, prev := range nodes {
			if prev.name == n.name {
				return o.at().errorf(o.path("metadata.name"), "a second Node %q (accepted: unique node names)", n.name)
			}
		}
		nodes = append(nodes, n)
	}
	if cc != nil && len(cc.NodesTypes) > 0 {
		if first != nil {
			return first.at().errorf(first.path(""), "Node objects and %s node types both describe the nodes (accepted: one of them)", cfg.name)
		}
		if err := applyNodeTypes(cfg.name, cc, as.c); err != nil {
			return err
		}
		return as.reserveDaemonPodsOnTypes(objs, as.c.NodeTypes, as.c.KiviHostnameAlias)
	}
	if err := as.reserveDaemonPods(objs, nodes, as.c.KiviHostnameAlias); err != nil {
		return err
	}
	as.nodeIns = keepMemoryCapacity(objs, nodes)
	as.c.NodeTypes, as.c.Nodes = groupNodes(as.nodeIns)
	return nil
}

func (as *assembly) intents(f *file) error {
	r := newIntentsReader(f.name, as.c, as.opts, &as.warns)
	r.limits = as.limits
	for name, js := range as.podTemplates {
		r.samePodTemplate[name+"\x00"+js] = name
	}
	decls, events, err := r.parse(f.data)
	if err != nil {
		return err
	}
	if len(decls) == 0 {
		return &Error{File: f.name, Msg: noIntent}
	}
	as.c.Intents = append(as.c.Intents, decls...)
	for i, ed := range events {
		as.warnIdleCPUChange(at{file: f.name}, index("events", i), ed)
		as.c.Events = append(as.c.Events, as.cpuDefault(ed))
	}
	return nil
}

// warnIdleCPUChange warns about a CPU change of a Deployment that has no
// replica (an HPA does not scale a target from 0 either): the event
// waits for one of its pods to start, and unless a command scales the
// Deployment a run ends with the event still waiting, which
// valid_end_state reports.
func (as *assembly) warnIdleCPUChange(a at, path string, ed model.EventDecl) {
	if ed.Kind != "eventCpuChange" {
		return
	}
	for _, d := range as.c.Deployments {
		if d.Name == ed.Deployment && d.Replicas == 0 {
			as.warns = append(as.warns, a.warning(path, "eventCpuChange of deployment %s, which has 0 replicas (an HPA does not scale a Deployment from 0): the event waits for one of its pods to start, and a run in which none does ends with valid_end_state violated", d.Name))
		}
	}
}

// file is one input file's name (for messages) and content.
type file struct {
	name string
	data []byte
}

// readDir reads the regular files of dir accepted by keep, in name order.
func readDir(fsys fs.FS, dir string, keep func(string) bool) ([]file, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []file
	for _, e := range entries {
		if e.IsDir() || !keep(e.Name()) || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		out = append(out, file{name: p, data: data})
	}
	return out, nil
}

// pick returns the one file whose name contains key (nil if none).
func pick(dir string, files []file, key string) (*file, error) {
	var found *file
	for i := range files {
		if strings.Contains(path.Base(files[i].name), key) {
			if found != nil {
				return nil, &Error{File: dir, Msg: "two files match \"" + key + "\": " + path.Base(found.name) + " and " + path.Base(files[i].name) + " (accepted: one)"}
			}
			found = &files[i]
		}
	}
	return found, nil
}
