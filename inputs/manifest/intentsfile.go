package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	sigsjson "sigs.k8s.io/json"

	"github.com/kivi-go/kivi/model"
)

// kiviEvent is an event or user command entry of Kivi's JSON
// (Kivi's inputs and CLI §a.7): name, para (an int or an object),
// after_stable, first.
type kiviEvent struct {
	Name        string          `json:"name"`
	Para        json.RawMessage `json:"para"`
	AfterStable bool            `json:"after_stable"`
	First       json.RawMessage `json:"first"`
	Priority    *int            `json:"priority"`
}

// The intents file (docs/inputs.md, docs/intents.schema.json) is read as
// a plain tree, not into Go structs, so that every message speaks of the
// file's own keys and paths and never of Go types:
//
//	intents:                        # or the file is just this list (Kivi)
//	  - name: pod_balance_across_node
//	    params: {deployment: web, maxSkew: 1}   # Kivi: para: {did: 1}
//	events:
//	  - kind: nodeFailure           # model.EventDecl's spelling
//	    node: node-b
//	  - name: maintenance           # Kivi's spelling
//	    para: {p: 1}
//
// Intent parameters and events name deployments, nodes and deployment
// templates by name; Kivi's 1-based positions stay accepted in Kivi's
// own spellings (did, and an integer para).

// intentsTopKeys are the keys of the object form.
var intentsTopKeys = []string{"intents", "events"}

// intentKeys are the keys of one intent: params is the case files' and
// the library's spelling (model.IntentDecl), para Kivi's.
var intentKeys = []string{"name", "params", "para"}

// eventKeys are the keys of one event in model.EventDecl's spelling, and
// kiviEventKeys in Kivi's.
var (
	eventKeys = []string{"kind", "when", "deployment", "node", "template", "manifest", "parallel", "maxDelta", "replicas", "maxDeployment",
		"nodes", "timeoutRetries", "disableEviction", "force", "uncordon", "order", "recovers", "outOfService", "drain", "selfHeal"}
	kiviEventKeys = []string{"name", "para", "after_stable", "first", "priority"}
)

// eventParams are the parameters each event kind takes (besides kind and
// when), the first of them required where the kind needs it.
var eventParams = map[string][]string{
	"eventCpuChange":         {"deployment", "maxDelta"},
	"eventMemoryChange":      {"deployment", "maxDelta"},
	"kernelPanic":            nil,
	"maintenance":            {"parallel", "order"},
	"nodeFailure":            {"node", "recovers", "outOfService"},
	"createTargetDeployment": {"deployment"},
	"applyDeployment":        {"manifest", "template", "selfHeal"},
	"createDeployment":       {"manifest", "template"},
	"scaleDeployment":        {"deployment", "replicas", "maxDelta", "maxDeployment"},
	"drain":                  {"node", "nodes", "parallel", "timeoutRetries", "disableEviction", "force", "uncordon"},
	"rolloutRestart":         {"deployment"},
	"rolloutUndo":            {"deployment"},
	"rolloutPause":           {"deployment"},
	"rolloutResume":          {"deployment"},
	"deleteNode":             {"node", "drain"},
}

// requiredParam is the parameter without which an event kind means
// nothing.
var requiredParam = map[string]string{
	"eventCpuChange": "deployment", "eventMemoryChange": "deployment", "nodeFailure": "node", "createTargetDeployment": "deployment",
	"rolloutRestart": "deployment", "rolloutUndo": "deployment", "rolloutPause": "deployment", "rolloutResume": "deployment",
	"deleteNode": "node",
}

// needsSpec are the events that need a new Deployment spec: manifest (a
// Deployment manifest file) or template (a case file's deployment
// template). Neither alone is required, so they are not in
// requiredParam.
var needsSpec = []string{"applyDeployment", "createDeployment"}

// intentsReader reads one intents file against the cluster assembled so
// far (its deployments, nodes and deployment templates).
type intentsReader struct {
	a           at
	c           *model.Cluster
	deployments []string
	nodes       []string
	opts        Options
	// warns collects the warnings of the manifests the events apply.
	warns *[]Warning
	// applied maps a manifest path, as written, to its deployment
	// template, so that two events applying one file share it.
	applied map[string]string
	// limits are the input's LimitRanges, which default the pods of an
	// applied Deployment too.
	limits *limitRangeTable
	// samePodTemplate maps a workload's model name and a pod template as
	// written (Object.PodTemplate), joined by a NUL, to the model template
	// already read for it: the manifests' own and every applied file's.
	samePodTemplate map[string]string
}

func newIntentsReader(file string, c *model.Cluster, opts Options, warns *[]Warning) *intentsReader {
	r := &intentsReader{a: at{file: file}, c: c, opts: opts, warns: warns, applied: map[string]string{}, samePodTemplate: map[string]string{}}
	for _, d := range c.Deployments {
		r.deployments = append(r.deployments, d.Name)
	}
	r.nodes = clusterNodeNames(c)
	return r
}

// clusterNodeNames lists the written topology's node names in order (a node
// without a name is called by its 1-based position, as model.Build
// does).
func clusterNodeNames(c *model.Cluster) []string {
	var out []string
	for _, g := range c.Nodes {
		for i := range max(g.Count, 1) {
			name := fmt.Sprint(len(out) + 1)
			if i < len(g.Names) {
				name = g.Names[i]
			}
			out = append(out, name)
		}
	}
	return out
}

// parseIntents reads an intents file: Kivi's list of intents, or an
// object {intents, events}.
func (r *intentsReader) parse(data []byte) ([]model.IntentDecl, []model.EventDecl, error) {
	if len(data) > maxDocumentBytes {
		return nil, nil, r.a.errorf("", "the file is %.1f MB (accepted: at most %d MiB)", float64(len(data))/1e6, maxDocumentBytes>>20)
	}
	js, err := toJSON(data)
	if err != nil {
		return nil, nil, &Error{File: r.a.file, Msg: err.Error()}
	}
	if isNull(js) {
		return nil, nil, nil
	}
	var tree any
	strict, err := sigsjson.UnmarshalStrict(js, &tree, sigsjson.DisallowDuplicateFields)
	if err == nil && len(strict) > 0 {
		err = strict[0]
	}
	if err != nil {
		return nil, nil, r.a.errorf("", "%s", cleanJSONError(err))
	}
	var intentList, eventList any
	intentsPath := ""
	switch t := tree.(type) {
	case []any:
		intentList = t
	case map[string]any:
		for _, k := range sortedKeys(t) {
			if !slices.Contains(intentsTopKeys, k) {
				return nil, nil, r.a.errorf(k, "unknown key (accepted: %s)%s", strings.Join(intentsTopKeys, ", "), nearKey(k, intentsTopKeys))
			}
		}
		intentList, eventList, intentsPath = t["intents"], t["events"], "intents"
	default:
		return nil, nil, r.a.errorf("", "the file is %s (accepted: a list of intents, or a mapping with the keys intents and events)", describeJSON(tree))
	}
	var decls []model.IntentDecl
	if intentList != nil {
		l, ok := intentList.([]any)
		if !ok {
			return nil, nil, r.a.errorf(intentsPath, "%s (accepted: a list of intents, each a mapping with name and params)", describeJSON(intentList))
		}
		for i, e := range l {
			d, err := r.intent(index(intentsPath, i), e)
			if err != nil {
				return nil, nil, err
			}
			decls = append(decls, d)
		}
	}
	var events []model.EventDecl
	if eventList != nil {
		l, ok := eventList.([]any)
		if !ok {
			return nil, nil, r.a.errorf("events", "%s (accepted: a list of events, each a mapping with kind and its parameters)", describeJSON(eventList))
		}
		for i, e := range l {
			ed, err := r.event(index("events", i), e)
			if err != nil {
				return nil, nil, err
			}
			events = append(events, ed)
		}
		if err := r.checkNodeDeletion(events); err != nil {
			return nil, nil, err
		}
		if err := r.checkNodeLoss(events); err != nil {
			return nil, nil, err
		}
	}
	return decls, events, nil
}

// intent reads one intent.
func (r *intentsReader) intent(path string, v any) (model.IntentDecl, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return model.IntentDecl{}, r.a.errorf(path, "%s (accepted: a mapping with name and params)", describeJSON(v))
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(intentKeys, k) {
			return model.IntentDecl{}, r.a.errorf(join(path, k), "unknown key of an intent (accepted: %s)%s", strings.Join(intentKeys, ", "), nearKey(k, intentKeys))
		}
	}
	names := r.opts.IntentNames
	name, ok := m["name"].(string)
	if !ok || name == "" {
		return model.IntentDecl{}, r.a.errorf(join(path, "name"), "missing or not a string (accepted: %s)", strings.Join(names, ", "))
	}
	if r.opts.KnownIntent != nil && !r.opts.KnownIntent(name) {
		return model.IntentDecl{}, r.a.errorf(join(path, "name"), "unknown intent %q (accepted: %s)", name, strings.Join(names, ", "))
	}
	key := "params"
	p, hasParams := m["params"]
	if q, hasPara := m["para"]; hasPara {
		if hasParams {
			return model.IntentDecl{}, r.a.errorf(path, "both params and para (accepted: one of them; para is Kivi's spelling)")
		}
		key, p = "para", q
	}
	d := model.IntentDecl{Name: name}
	if p == nil {
		return d, r.checkIntent(path, key, d)
	}
	pm, ok := p.(map[string]any)
	if !ok {
		return d, r.a.errorf(join(path, key), "%s (accepted: a mapping of parameters, e.g. {deployment: web})", describeJSON(p))
	}
	d.Params = plainNumbers(pm)
	return d, r.checkIntent(path, key, d)
}

// checkIntent checks an intent's parameters with the caller's catalogue
// (Options.CheckIntent), placing a bad parameter at its path.
func (r *intentsReader) checkIntent(path, key string, d model.IntentDecl) error {
	if r.opts.CheckIntent == nil {
		return nil
	}
	kinds := make([]string, len(r.c.Deployments))
	for i := range r.c.Deployments {
		kinds[i] = r.c.Deployments[i].Kind
		if cj := r.c.Deployments[i].CronJob; cj != nil {
			kinds[i] = "CronJob/" + cj.Name
		}
	}
	param, msg := r.opts.CheckIntent(d, r.deployments, kinds)
	if msg == "" {
		return nil
	}
	if param != "" {
		path = join(join(path, key), param)
	}
	return r.a.errorf(path, "%s", msg)
}

// event reads one event in either spelling.
func (r *intentsReader) event(path string, v any) (model.EventDecl, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return model.EventDecl{}, r.a.errorf(path, "%s (accepted: a mapping with kind and its parameters, e.g. {kind: nodeFailure, node: node-a})", describeJSON(v))
	}
	_, hasKind := m["kind"]
	_, hasName := m["name"]
	switch {
	case hasKind && hasName:
		return model.EventDecl{}, r.a.errorf(path, "both kind and name (accepted: kind with its parameters, or Kivi's name with para)")
	case hasName:
		return r.kiviEvent(path, m)
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(eventKeys, k) {
			hint := nearKey(k, eventKeys)
			if slices.Contains(kiviEventKeys, k) {
				hint = fmt.Sprintf("; %s is Kivi's spelling, which goes with name instead of kind", k)
			}
			return model.EventDecl{}, r.a.errorf(join(path, k), "unknown key of an event (accepted: %s)%s", strings.Join(eventKeys, ", "), hint)
		}
	}
	kinds := slices.Sorted(maps.Keys(eventParams))
	kind, ok := m["kind"].(string)
	if !ok || kind == "" {
		return model.EventDecl{}, r.a.errorf(join(path, "kind"), "missing or not a string (accepted: %s)", strings.Join(kinds, ", "))
	}
	params, known := eventParams[kind]
	if !known {
		return model.EventDecl{}, r.a.errorf(join(path, "kind"), "unknown event %q (accepted: %s)%s", kind, strings.Join(kinds, ", "), nearKey(kind, kinds))
	}
	ed := model.EventDecl{Kind: kind}
	for _, k := range sortedKeys(m) {
		if k == "kind" {
			continue
		}
		kp := join(path, k)
		val := m[k]
		if k != "when" && !slices.Contains(params, k) {
			accepted := append([]string{"when"}, params...)
			return ed, r.a.errorf(kp, "%s takes no %s (accepted: %s)", kind, k, strings.Join(accepted, ", "))
		}
		var err error
		switch k {
		case "when":
			w, ok := val.(string)
			if !ok || !slices.Contains([]string{"main", "first", "afterStable"}, w) {
				return ed, r.a.errorf(kp, "%s (accepted: main, first, afterStable)", describeValue(val))
			}
			ed.When = w
		case "deployment":
			ed.Deployment, err = r.name(kp, val, "deployment", r.deployments)
		case "node":
			ed.Node, err = r.name(kp, val, "node", r.nodes)
		case "template":
			if _, both := m["manifest"]; both {
				return ed, r.a.errorf(kp, "%s takes manifest (a Deployment manifest file) or template (a case file's deployment template), not both", kind)
			}
			ed.Template, err = r.name(kp, val, "deployment template", r.templateNames())
		case "manifest":
			ed.Template, err = r.applyManifest(kp, val, kind)
		case "parallel":
			what := "nodes maintained at once"
			if kind == "drain" {
				what = "nodes drained at once"
			}
			ed.Parallel, err = r.count(kp, val, 1, max(len(r.nodes), 1), what)
		case "nodes":
			ed.Nodes, err = r.nodeList(kp, val)
		case "order":
			ed.Order, err = r.maintenanceOrder(kp, val)
		case "timeoutRetries":
			ed.TimeoutRetries, err = r.count(kp, val, 0, model.MaxDrainRetries, "retries of a refused eviction before the drain gives up, 0 for none (kubectl's default: no timeout)")
		case "disableEviction":
			ed.DisableEviction, err = r.flag(kp, val)
		case "force":
			ed.Force, err = r.flag(kp, val)
		case "uncordon":
			ed.Uncordon, err = r.flag(kp, val)
		case "selfHeal":
			ed.SelfHeal, err = r.flag(kp, val)
		case "recovers":
			var b bool
			b, err = r.flag(kp, val)
			ed.Recovers = &b
		case "outOfService":
			ed.OutOfService, err = r.flag(kp, val)
		case "drain":
			ed.Drain, err = r.flag(kp, val)
		case "maxDelta":
			if kind == "eventMemoryChange" {
				ed.MaxDelta, err = r.memoryDelta(kp, val)
				break
			}
			ed.MaxDelta, err = r.count(kp, val, 1, 1000, "the largest change")
		case "replicas":
			var n int
			n, err = r.count(kp, val, 0, math.MaxInt16, "the replicas kubectl scale sets")
			ed.Replicas = &n
		case "maxDeployment":
			ed.MaxDeployment, err = r.count(kp, val, 1, max(len(r.deployments), 1), "scale one of the first N deployments")
		}
		if err != nil {
			return ed, err
		}
	}
	if req := requiredParam[kind]; req != "" {
		if _, ok := m[req]; !ok {
			return ed, r.a.errorf(path, "%s needs %s (accepted: %s)", kind, req, r.acceptedFor(req))
		}
	}
	if slices.Contains(needsSpec, kind) && ed.Template == "" {
		return ed, r.a.errorf(path, "%s needs the new Deployment (accepted: %s)", kind, r.acceptedFor("manifest"))
	}
	if kind == "drain" {
		if err := r.checkDrain(path, ed); err != nil {
			return ed, err
		}
	}
	if kind == "rolloutPause" || kind == "rolloutResume" {
		if err := r.checkPausable(join(path, "deployment"), kind, ed.Deployment); err != nil {
			return ed, err
		}
	}
	if ed.OutOfService && (ed.Recovers == nil || *ed.Recovers) {
		return ed, r.a.errorf(join(path, "outOfService"), "nodeFailure's outOfService: true needs recovers: false (accepted: outOfService: true with recovers: false, a node lost for good that the operator taints node.kubernetes.io/out-of-service; or outOfService: false)")
	}
	if kind == "scaleDeployment" {
		if ed.Replicas != nil && ed.MaxDelta != 0 {
			return ed, r.a.errorf(join(path, "maxDelta"), "scaleDeployment takes replicas (a target) or maxDelta (every change up to it), not both")
		}
		if ed.Deployment != "" && ed.MaxDeployment != 0 {
			return ed, r.a.errorf(join(path, "maxDeployment"), "scaleDeployment takes deployment (one) or maxDeployment (the first N), not both")
		}
	}
	return ed, nil
}

// checkPausable refuses kubectl rollout pause or resume (kind) of a
// workload that is no Deployment: kubectl answers "pausing is not
// supported" ("resuming …") for a StatefulSet or a Job.
func (r *intentsReader) checkPausable(path, kind, name string) error {
	for _, d := range r.c.Deployments {
		if d.Name != name || d.Kind == "" || d.Kind == "Deployment" {
			continue
		}
		verb := "pausing"
		if kind == "rolloutResume" {
			verb = "resuming"
		}
		return r.a.errorf(path, "%s is a %s: %s is not supported, as kubectl says (accepted: a Deployment)", name, d.Kind, verb)
	}
	return nil
}

// kiviEvent reads an event in Kivi's spelling {name, para, after_stable,
// first}.
func (r *intentsReader) kiviEvent(path string, m map[string]any) (model.EventDecl, error) {
	for _, k := range sortedKeys(m) {
		if !slices.Contains(kiviEventKeys, k) {
			hint := nearKey(k, kiviEventKeys)
			if slices.Contains(eventKeys, k) {
				hint = fmt.Sprintf("; %s goes with kind instead of Kivi's name", k)
			}
			return model.EventDecl{}, r.a.errorf(join(path, k), "unknown key of a Kivi event (accepted: %s)%s", strings.Join(kiviEventKeys, ", "), hint)
		}
	}
	var e kiviEvent
	kinds := slices.Sorted(maps.Keys(eventParams))
	name, ok := m["name"].(string)
	if !ok {
		return model.EventDecl{}, r.a.errorf(join(path, "name"), "%s (accepted: %s)", describeValue(m["name"]), strings.Join(kinds, ", "))
	}
	e.Name = name
	for _, k := range []string{"after_stable"} {
		if v, ok := m[k]; ok {
			b, isBool := v.(bool)
			if !isBool {
				return model.EventDecl{}, r.a.errorf(join(path, k), "%s (accepted: true, false)", describeValue(v))
			}
			e.AfterStable = b
		}
	}
	if v, ok := m["first"]; ok && v != nil && v != false {
		e.First = json.RawMessage("true")
	}
	if v, ok := m["para"]; ok {
		raw, _ := json.Marshal(v)
		e.Para = raw
	}
	return r.kivi(path, e)
}

// kivi converts an event in Kivi's spelling and checks its names.
func (r *intentsReader) kivi(path string, e kiviEvent) (model.EventDecl, error) {
	ed, err := eventDecl(r.a, path, e, r.deployments)
	if err != nil {
		return ed, err
	}
	if ed.Kind == "nodeFailure" && ed.Node != "" {
		// Kivi's integer para is a 1-based position; a name must exist.
		if _, err := r.name(join(path, "para"), ed.Node, "node", r.nodes); err != nil {
			if n, convErr := strconv.Atoi(ed.Node); convErr != nil || n < 1 || n > len(r.nodes) {
				return ed, r.a.errorf(join(path, "para"), "%s: no such node (accepted: a node name, %s, or a 1-based position 1..%d)", ed.Node, shortList(r.nodes), len(r.nodes))
			}
		}
	}
	return ed, nil
}

func (r *intentsReader) templateNames() []string {
	var out []string
	for _, t := range r.c.DeploymentTemplates {
		out = append(out, t.Name)
	}
	return out
}

func (r *intentsReader) acceptedFor(param string) string {
	switch param {
	case "deployment":
		return "a deployment name: " + shortList(r.deployments)
	case "node":
		return "a node name: " + shortList(r.nodes)
	case "template":
		if t := r.templateNames(); len(t) > 0 {
			return "a deployment template name: " + shortList(t)
		}
		return "a deployment template name; this input has none"
	case "manifest":
		return "manifest: a file holding one Deployment, relative to the intents file, e.g. manifest: web-v2.yaml" + r.templateHint()
	}
	return param
}

// name checks a name against the accepted ones.
func (r *intentsReader) name(path string, v any, what string, accepted []string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", r.a.errorf(path, "%s (accepted: a %s name: %s)", describeValue(v), what, shortList(accepted))
	}
	if !slices.Contains(accepted, s) {
		if len(accepted) == 0 {
			return "", r.a.errorf(path, "no %s %q: the input has no %s", what, s, what)
		}
		return "", r.a.errorf(path, "no %s %q (accepted: %s)%s", what, s, shortList(accepted), nearKey(s, accepted))
	}
	return s, nil
}

// count reads an integer in lo..hi.
func (r *intentsReader) count(path string, v any, lo, hi int, what string) (int, error) {
	n, ok := v.(int64) // sigs.k8s.io/json decodes integers as int64
	if !ok || n < int64(lo) || n > int64(hi) {
		return 0, r.a.errorf(path, "%s (accepted: an integer %d..%d, %s)", describeValue(v), lo, hi, what)
	}
	return int(n), nil
}

// shortList joins names, the first ten of a long list.
func shortList(names []string) string {
	if len(names) > 10 {
		return strings.Join(names[:10], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
	}
	return strings.Join(names, ", ")
}

// nearKey suggests the accepted word closest to a misspelt one.
func nearKey(got string, accepted []string) string {
	// Only a unique closest word is a suggestion: node-d is as close to
	// node-a as to node-b.
	best, bestD, ties := "", 3, 0
	for _, a := range accepted {
		d := editDistance(strings.ToLower(got), strings.ToLower(a))
		switch {
		case d < bestD:
			best, bestD, ties = a, d, 1
		case d == bestD:
			ties++
		}
	}
	if best == "" || ties > 1 || best == got {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", best)
}

// describeJSON names a value's JSON shape in the user's terms.
func describeJSON(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return jsonKind(v)
}

// describeValue shows a scalar as written, or a value's shape.
func describeValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "missing"
	}
	return describeJSON(v)
}

// cleanJSONError drops the Go vocabulary of a JSON decoding error.
func cleanJSONError(err error) string {
	msg := err.Error()
	if m := duplicateRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("the key %q appears twice", m[1])
	}
	return "not valid JSON: " + strings.TrimPrefix(msg, "json: ")
}

// plainNumbers turns integral JSON numbers into int, the type intent
// parameters are read as.
func plainNumbers(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	out := map[string]any{}
	for k, v := range m {
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<31 {
			v = int(f)
		}
		if n, ok := v.(int64); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
			v = int(n)
		}
		out[k] = v
	}
	return out
}

var eventKinds = []string{"eventCpuChange", "kernelPanic", "maintenance", "nodeFailure", "createTargetDeployment",
	"applyDeployment", "createDeployment", "scaleDeployment", "drain", "rolloutRestart", "rolloutUndo", "deleteNode"}

// eventDecl converts one Kivi event entry. deployments are the model's
// deployment names in order (para integers are 1-based positions, names
// are Kivi's deployment names).
func eventDecl(a at, path string, e kiviEvent, deployments []string) (model.EventDecl, error) {
	ed := model.EventDecl{Kind: e.Name}
	known := false
	for _, k := range eventKinds {
		known = known || k == e.Name
	}
	if !known {
		return ed, a.errorf(path+".name", "unknown event %q (accepted: %s)%s", e.Name, strings.Join(eventKinds, ", "), nearKey(e.Name, eventKinds))
	}
	switch {
	case len(e.First) > 0 && string(e.First) != "null":
		ed.When = "first"
	case e.AfterStable:
		ed.When = "afterStable"
	}
	deployment := func(p string, v any) (string, error) {
		switch x := v.(type) {
		case string:
			for _, d := range deployments {
				if d == x {
					return d, nil
				}
			}
			return "", a.errorf(p, "no deployment %q (deployments: %s)", x, strings.Join(deployments, ", "))
		case float64:
			if x >= 1 && int(x) <= len(deployments) && x == math.Trunc(x) {
				return deployments[int(x)-1], nil
			}
			return "", a.errorf(p, "%v (accepted: a deployment name or its 1-based position 1..%d)", x, len(deployments))
		}
		return "", a.errorf(p, "accepted: a deployment name or its 1-based position")
	}
	if len(e.Para) == 0 || string(e.Para) == "null" {
		if e.Name == "eventCpuChange" || e.Name == "createTargetDeployment" {
			return ed, a.errorf(path+".para", "%s needs its deployment (accepted: {targetDeployment: NAME}, or the deployment's 1-based position 1..%d)", e.Name, len(deployments))
		}
		return ed, nil
	}
	var para any
	if err := json.Unmarshal(e.Para, &para); err != nil {
		return ed, a.errorf(path+".para", "not valid JSON")
	}
	intArg := func(p string, v any, what string) (int, error) {
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || f < 0 || f > 1000 {
			return 0, a.errorf(p, "%v (accepted: %s)", v, what)
		}
		return int(f), nil
	}
	var err error
	switch p := para.(type) {
	case float64:
		switch e.Name {
		case "eventCpuChange", "createTargetDeployment":
			ed.Deployment, err = deployment(path+".para", p)
		case "maintenance":
			ed.Parallel, err = intArg(path+".para", p, "the number of nodes maintained at once")
		case "nodeFailure":
			if p != math.Trunc(p) || p < 1 {
				return ed, a.errorf(path+".para", "%v (accepted: a node's 1-based position, or {node: NAME})", p)
			}
			ed.Node = fmt.Sprint(int(p))
		default:
			return ed, a.errorf(path+".para", "%s takes no integer (accepted: %s)", e.Name, kiviParams[e.Name])
		}
	case map[string]any:
		for _, k := range sortedKeys(p) {
			v := p[k]
			kp := path + ".para." + k
			switch {
			case k == "targetDeployment":
				ed.Deployment, err = deployment(kp, v)
			case k == "p" && e.Name == "maintenance":
				ed.Parallel, err = intArg(kp, v, "the number of nodes maintained at once")
			case k == "maxDelta" && (e.Name == "eventCpuChange" || e.Name == "scaleDeployment"):
				ed.MaxDelta, err = intArg(kp, v, "the largest change, ≥ 1, in model units (millicores for CPU)")
			case k == "node" && (e.Name == "nodeFailure" || e.Name == "drain" || e.Name == "deleteNode"):
				s, ok := v.(string)
				if !ok {
					return ed, a.errorf(kp, "%s (accepted: a node name)", describeValue(v))
				}
				ed.Node = s
			case k == "drain" && e.Name == "deleteNode":
				b, ok := v.(bool)
				if !ok {
					return ed, a.errorf(kp, "%s (accepted: true, kubectl drain the node first, or false)", describeValue(v))
				}
				ed.Drain = b
			case k == "nodes" && e.Name == "drain":
				list, ok := v.([]any)
				if !ok || len(list) == 0 {
					return ed, a.errorf(kp, "%s (accepted: a list of node names)", describeValue(v))
				}
				for j, x := range list {
					name, ok := x.(string)
					if !ok {
						return ed, a.errorf(fmt.Sprintf("%s[%d]", kp, j), "%s (accepted: a node name)", describeValue(x))
					}
					ed.Nodes = append(ed.Nodes, name)
				}
			case k == "template" && (e.Name == "applyDeployment" || e.Name == "createDeployment"):
				s, ok := v.(string)
				if !ok {
					return ed, a.errorf(kp, "%s (accepted: a deployment template name)", describeValue(v))
				}
				ed.Template = s
			default:
				return ed, a.errorf(kp, "unknown parameter of %s (accepted: %s)", e.Name, kiviParams[e.Name])
			}
			if err != nil {
				return ed, err
			}
		}
	default:
		return ed, a.errorf(path+".para", "%s (accepted: %s)", describeValue(para), kiviParams[e.Name])
	}
	return ed, err
}

// kiviParams describes the para each event takes in Kivi's spelling.
var kiviParams = map[string]string{
	"eventCpuChange":         "{targetDeployment: NAME, maxDelta: N}, or the deployment's 1-based position",
	"kernelPanic":            "no para",
	"maintenance":            "{p: N}, or N: the nodes maintained at once",
	"nodeFailure":            "{node: NAME}, or the node's 1-based position",
	"createTargetDeployment": "{targetDeployment: NAME}, or the deployment's 1-based position",
	"applyDeployment":        "{template: NAME}",
	"createDeployment":       "{template: NAME}",
	"scaleDeployment":        "{maxDelta: N}",
	"drain":                  "{node: NAME}, or {nodes: [NAME, …]}",
	"rolloutRestart":         "{deployment: NAME}",
	"rolloutUndo":            "{deployment: NAME}",
	"deleteNode":             "{node: NAME, drain: true|false}",
}

// cpuChangeSteps is how many different amounts a CPU change explores.
const cpuChangeSteps = 6

// cpuSteps spreads CPU changes of up to largest millicores over at most
// cpuChangeSteps evenly spaced amounts: (steps, unit) with steps·unit ≤
// largest, the amounts being unit, 2·unit, … steps·unit, the top one as
// close to largest as such a spacing allows. Kivi's cases change CPU by
// 1..6 of 8 units; a change per millicore would explore hundreds of
// successors that no controller tells apart.
func cpuSteps(largest int) (steps, unit int) {
	largest = max(largest, 1)
	if largest <= cpuChangeSteps {
		return largest, 1
	}
	// Either the unit rounded down (all six steps) or rounded up (fewer
	// steps): whichever reaches further, six steps on a tie.
	down := largest / cpuChangeSteps
	up := (largest + cpuChangeSteps - 1) / cpuChangeSteps
	if (largest/up)*up > cpuChangeSteps*down {
		return largest / up, up
	}
	return cpuChangeSteps, down
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// defaultCPUDelta is the default largest CPU increase of eventCpuChange:
// ¾ of the target's CPU request, Kivi's ratio (Δ ≤ 6 on requests of 8),
// in millicores; at least 1. The request is its running containers', which
// the pods use and the HPA divides by (model.PodTemplate.MetricRequest).
func defaultCPUDelta(c *model.Cluster, deployment string) int {
	for _, d := range c.Deployments {
		if d.Name != deployment {
			continue
		}
		for _, t := range c.Templates {
			if t.Name == d.Template {
				return int(max(((t.CPU-t.ReservedOnly[model.CPU])*6+7)/8, 1))
			}
		}
	}
	return 1
}

// addEvents converts event entries and applies the CPU delta default.
func (as *assembly) addEvents(file, field string, events []kiviEvent) error {
	var names []string
	for _, d := range as.c.Deployments {
		names = append(names, d.Name)
	}
	for i, e := range events {
		ed, err := eventDecl(at{file: file}, index(field, i), e, names)
		if err != nil {
			return err
		}
		as.warnIdleCPUChange(at{file: file}, index(field, i), ed)
		as.c.Events = append(as.c.Events, as.cpuDefault(ed))
	}
	return nil
}

// cpuDefault applies eventCpuChange's default largest change and spreads
// it over at most cpuChangeSteps amounts.
func (as *assembly) cpuDefault(ed model.EventDecl) model.EventDecl {
	if ed.Kind == "eventCpuChange" {
		largest := ed.MaxDelta
		if largest == 0 {
			largest = defaultCPUDelta(as.c, ed.Deployment)
		}
		ed.MaxDelta, ed.DeltaUnit = cpuSteps(largest)
	}
	return ed
}
