package manifest

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// File is one input: a name for messages ("-" or "<stdin>" for standard
// input) and its content.
type File struct {
	Name string
	Data []byte
}

// LoadStream reads a configuration about to be applied, e.g. `helm
// template … | kivi verify -f - --nodes nodes.yaml --intents
// intents.yaml`:
//
//   - manifests: Deployments, HPAs, a DeschedulerPolicy (and possibly
//     Nodes), any number of files or documents;
//   - nodes (optional when the manifests hold Nodes): Node/NodeList
//     manifests, or Kivi's cluster_configs.json (node types with counts,
//     dTypes, events_assumption);
//   - intents (optional): Kivi's intents list, or {intents, events}.
//
// As with Kivi's configuration directory, the deployments start not
// created and one first-slot createTargetDeployment per deployment
// creates them; with opts.CurrentPlacement the manifests are a running
// cluster's, whose workloads exist and whose pods run where its Pods say
// (runningpods.go).
func LoadStream(manifests []File, nodes, intents *File, opts Options) (*Result, error) {
	as := &assembly{opts: opts, c: &model.Cluster{Name: "stream"}}
	if len(manifests) > 0 {
		as.c.Name = manifests[0].Name
	}
	var objs []Object
	var names []string
	counts := objectCounts{}
	for _, f := range manifests {
		if isBlank(f.Data) {
			return nil, &Error{File: f.Name, Msg: "no Kubernetes object: the file is empty or holds only comments (accepted: Deployment, HorizontalPodAutoscaler, Node and DeschedulerPolicy manifests)"}
		}
		o, w, err := decode(f.Name, f.Data, counts)
		if err != nil {
			return nil, err
		}
		names = append(names, f.Name)
		objs = append(objs, o...)
		as.warns = append(as.warns, w...)
	}
	var cc *kiviClusterConfig
	var cfg *file
	if nodes != nil {
		if isBlank(nodes.Data) {
			return nil, &Error{File: nodes.Name, Msg: "no node: the file is empty or holds only comments (accepted: Node manifests, a NodeList, or Kivi's cluster_configs.json)"}
		}
		if isKiviClusterConfig(nodes.Data) {
			var err error
			if cc, err = parseKiviClusterConfig(nodes.Name, nodes.Data); err != nil {
				return nil, err
			}
			cfg = &file{name: nodes.Name, data: nodes.Data}
		} else {
			o, w, err := decode(nodes.Name, nodes.Data, counts)
			if err != nil {
				return nil, err
			}
			for _, x := range o {
				if x.Kind != "Node" {
					return nil, x.at().errorf(x.path("kind"), "%s in the nodes file (accepted: Node, NodeList, or Kivi's cluster_configs.json)", x.Kind)
				}
			}
			objs = append(objs, o...)
			as.warns = append(as.warns, w...)
		}
	}
	if w, ok := counts.skippedWarning(opts.CurrentPlacement); ok {
		as.warns = append(as.warns, w)
	}
	var pods []Object
	if opts.CurrentPlacement {
		objs, pods = splitPods(objs)
	} else {
		objs = as.dropBarePods(objs)
	}
	// Pods are admitted before anything reads their templates (the
	// DaemonSets' reservations come with the nodes).
	if err := admitRuntimeClasses(objs); err != nil {
		return nil, err
	}
	if err := as.nodes(objs, cc, cfg); err != nil {
		return nil, err
	}
	workloads, err := as.workloads(objs, opts.CurrentPlacement)
	if err != nil {
		return nil, err
	}
	as.warnDaemonSetSelectors(objs)
	if err := as.needDeployment(strings.Join(names, ", ")); err != nil {
		return nil, err
	}
	if opts.CurrentPlacement {
		// Node types (Kivi's cluster_configs.json) leave as.nodeIns
		// empty: runningPods refuses them.
		if err := as.runningPods(pods, objs, workloads); err != nil {
			return nil, err
		}
		as.c.NodeTypes, as.c.Nodes = groupNodes(as.nodeIns)
	}
	if cc != nil {
		if err := applyDTypes(cfg.name, cc, as.c); err != nil {
			return nil, err
		}
	}
	for _, d := range as.c.Deployments {
		if d.CronJob != nil || opts.CurrentPlacement {
			continue // a CronJob's run is created by its schedule; a running cluster's workloads exist
		}
		as.c.Events = append(as.c.Events, model.EventDecl{Kind: "createTargetDeployment", When: "first", Deployment: d.Name})
	}
	if cc != nil {
		if err := as.addEvents(cfg.name, "events_assumption", cc.EventsAssumption); err != nil {
			return nil, err
		}
	}
	if intents != nil {
		if err := as.intents(&file{name: intents.Name, data: intents.Data}); err != nil {
			return nil, err
		}
	}
	return as.finish(as.c.Name)
}

// IsKiviClusterConfig tells Kivi's cluster_configs.json (an object with
// nodesTypes) from Node manifests.
func IsKiviClusterConfig(data []byte) bool { return isKiviClusterConfig(data) }

// EventManifests returns the manifest files the events of an intents
// file apply (their `manifest` fields, as written: relative to the
// intents file), for callers given a directory that holds them next to
// the manifests. An intents file that does not parse has none; its
// reading reports the error.
func EventManifests(data []byte) []string {
	js, err := toJSON(firstDocument(data))
	if err != nil {
		return nil
	}
	var probe struct {
		Events []map[string]any `json:"events"`
	}
	if json.Unmarshal(js, &probe) != nil {
		return nil
	}
	var out []string
	for _, e := range probe.Events {
		if m, ok := e["manifest"].(string); ok && m != "" {
			out = append(out, m)
		}
	}
	return out
}

// IsIntentsFile tells an intents file (a mapping with intents or events
// and no kind, or a list of intents) from manifests, for callers given
// files of both sorts.
func IsIntentsFile(data []byte) bool {
	js, err := toJSON(firstDocument(data))
	if err != nil {
		return false
	}
	var probe any
	if json.Unmarshal(js, &probe) != nil {
		return false
	}
	switch t := probe.(type) {
	case []any:
		return true
	case map[string]any:
		return intentsMapping(t)
	}
	return false
}

// intentsMapping tells a document that is an intents file's mapping
// (intents or events, and no kind) from a manifest.
func intentsMapping(m map[string]any) bool {
	_, kind := m["kind"]
	_, in := m["intents"]
	_, ev := m["events"]
	return !kind && (in || ev)
}

// firstDocument is the first YAML document of data (all of a JSON text).
func firstDocument(data []byte) []byte {
	if isJSONText(data) {
		return data
	}
	docs, bad := splitDocuments(data)
	if bad > 0 || len(docs) == 0 {
		return data
	}
	for _, d := range docs {
		if !isBlank(d) {
			return d
		}
	}
	return docs[0]
}

// isKiviClusterConfig tells Kivi's cluster_configs (an object with
// nodesTypes) from Node manifests.
func isKiviClusterConfig(data []byte) bool {
	js, err := toJSON(data)
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(js), []byte("{")) {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(js, &probe) != nil {
		return false
	}
	_, ok := probe["nodesTypes"]
	return ok
}
