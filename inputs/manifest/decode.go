package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
	yamlv3 "go.yaml.in/yaml/v3"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Object is one decoded Kubernetes object.
type Object struct {
	File string
	// Doc is the 1-based document index in the file.
	Doc int
	// Path locates the object inside its document ("" or "items[3]").
	Path string
	Kind string
	// APIVersion as written.
	APIVersion string
	// Value is *Deployment, *HPAv2, *HPAv1, *Node, *Pod,
	// *DeschedulerPolicy, *PodDisruptionBudget, *PriorityClass, *Job,
	// *CronJob or another modelled kind's type.
	Value any
	// Name is "namespace/name" (or "name") of an object inside a List,
	// where "items[3]" alone would not tell the reader which object a
	// warning is about; "" for a document of its own.
	Name string
	// Unknown are the paths of fields the thin type does not have,
	// relative to the object; fields.go classifies them.
	Unknown []string
	// PodTemplate is a Deployment's or StatefulSet's spec.template as the
	// API server stores it (StoredPodTemplate: defaulted, quantities
	// canonical): two equal ones are one ReplicaSet (or StatefulSet
	// revision), so applying one over the other rolls nothing out,
	// whatever fields the model reads.
	PodTemplate string
}

func (o Object) at() at {
	a := at{file: o.File, doc: o.Doc}
	if o.Name != "" {
		a.object = o.Kind + " " + o.Name
	}
	return a
}

// path returns the object-relative field path in document terms.
func (o Object) path(field string) string {
	if o.Path == "" {
		return field
	}
	if field == "" {
		return o.Path
	}
	return o.Path + "." + field
}

// Decode reads every object of a YAML or JSON file (multi-document YAML,
// List kinds). Kinds that cannot affect the model are skipped, quietly or
// with a warning (kinds.go); a modelled kind with a wrong apiVersion, a
// misspelt kind and any malformed document are errors.
func Decode(file string, data []byte) ([]Object, []Warning, error) {
	return decode(file, data, objectCounts{})
}

// maxDocumentBytes bounds one YAML document, maxJSONBytes one JSON text:
// the model holds at most model.MaxObjects deployments and model.MaxNodes
// nodes, which
// even as verbose `kubectl get -o yaml` output (managedFields included)
// is a few MB. Parsing YAML takes about twenty times its size in memory,
// JSON a few times; a JSON text may be a whole `kubectl get pods -o
// json` of which only some pods are modelled.
const (
	maxDocumentBytes = 8 << 20
	maxJSONBytes     = 32 << 20
)

// objectCounts counts the objects read so far, by kind, over every file
// of one input, so that an input the model cannot hold stops being read
// at the first modelled object too many, not after minutes of parsing
// and building. The skipped harmless kinds are counted too (unbounded),
// for the input's one-line summary of them.
type objectCounts map[string]int

// add counts o and returns an error once its kind passes the model's
// bound.
func (n objectCounts) add(d *decoder, o Object) error {
	// Each kind has its own bound: deployments (and so HPAs, one per
	// deployment), nodes, pods (pod slots).
	n[o.Kind]++
	if most := maxOf(o.Kind); n[o.Kind] > most {
		return d.at.errorf(o.Path, "more than %d %s objects in the input (accepted: at most %d, the model's bound on %s); the rest of the input is not read", most, o.Kind, most, boundOf(o.Kind))
	}
	return nil
}

// maxOf is the model's bound on objects of a kind: pods are pod slots
// (model.MaxPodSlots), nodes model.MaxNodes, every other kind
// model.MaxObjects.
func maxOf(kind string) int {
	switch kind {
	case "Pod":
		return model.MaxPodSlots
	case "Node":
		return model.MaxNodes
	}
	return model.MaxObjects
}

func boundOf(kind string) string {
	switch kind {
	case "Node":
		return "nodes"
	case "Pod":
		return "pod slots"
	case "HorizontalPodAutoscaler":
		return "deployments, each with at most one HPA"
	case "PodDisruptionBudget":
		return "disruption budgets"
	case "PriorityClass":
		return "priority classes, as many as deployments"
	}
	return "deployments"
}

func decode(file string, data []byte, counts objectCounts) ([]Object, []Warning, error) {
	parts, err := splitStream(file, data)
	if err != nil {
		return nil, nil, err
	}
	var objs []Object
	var warns []Warning
	if w, ok := utf16Warning(file, data); ok {
		warns = append(warns, w)
	}
	doc := 0
	for _, p := range parts {
		// The YAML parser counts lines from its document's start, the
		// reader from the file's.
		part, partLine := p.data, p.line
		if limit := documentLimit(part); len(part) > limit {
			return nil, nil, &Error{File: file, Doc: doc + 1, Msg: fmt.Sprintf("this document is %.1f MB (accepted: at most %d MiB per document; the model holds at most %d deployments and %d nodes)", float64(len(part))/1e6, limit>>20, model.MaxObjects, model.MaxNodes)}
		}
		js, err := toJSON(part)
		if err != nil {
			return nil, nil, &Error{File: file, Doc: doc + 1, Msg: fileLines(err.Error(), partLine)}
		}
		if isNull(js) {
			continue
		}
		doc++
		d := decoder{at: at{file: file, doc: doc}, counts: counts}
		if err := d.object(js, ""); err != nil {
			return nil, nil, err
		}
		objs = append(objs, d.objs...)
		warns = append(warns, d.warns...)
	}
	return objs, warns, nil
}

func documentLimit(part []byte) int {
	if looksLikeJSON(part) {
		return maxJSONBytes
	}
	return maxDocumentBytes
}

func isNull(js []byte) bool {
	s := strings.TrimSpace(string(js))
	return s == "" || s == "null"
}

// toJSON converts one YAML document (or a JSON text) to JSON; duplicate
// keys are errors, as with kubectl's strict field validation.
func toJSON(part []byte) ([]byte, error) {
	if looksLikeJSON(part) {
		var v any
		err := json.Unmarshal(part, &v)
		if err == nil {
			return part, nil
		}
		// A document that starts like JSON may be YAML in flow style
		// (unquoted keys, trailing commas), as Kubernetes' documentation
		// writes many examples: kubectl's decoder falls back to YAML when
		// JSON fails.
		if len(part) > maxDocumentBytes {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
		js, yerr := yaml.YAMLToJSONStrict(part)
		if yerr != nil {
			return nil, fmt.Errorf("not valid JSON (%v) nor YAML (%s)", err, yamlMessage(yerr))
		}
		return js, nil
	}
	js, err := yamlToJSON(part)
	if err != nil {
		return nil, fmt.Errorf("not valid YAML: %s", yamlMessage(err))
	}
	return js, nil
}

// yamlToJSON converts YAML to JSON as kubectl does, except that a key
// written twice in one mapping is an error (kubectl would keep the last
// and say nothing). The strict converter also refuses a key that
// overrides one brought in by a merge key ("<<: *anchor" then "name:
// web2"), which is what merge keys are for and what kubectl reads: such
// a document is converted as kubectl converts it, once no mapping of it
// has a key written twice.
func yamlToJSON(part []byte) ([]byte, error) {
	js, err := yaml.YAMLToJSONStrict(part)
	if err == nil || !bytes.Contains(part, []byte("<<")) || !strings.Contains(err.Error(), "already set in map") {
		return js, err
	}
	if key, line := writtenTwice(part); line > 0 {
		// The strict converter's message would also list the
		// overriding keys.
		return nil, fmt.Errorf("line %d: key %q already set in map", line, key)
	}
	return yaml.YAMLToJSON(part)
}

// fileLines renumbers the "line N" of a YAML parser's message about a
// document that starts after the file's first before lines.
func fileLines(msg string, before int) string {
	if before == 0 {
		return msg
	}
	return yamlLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, err := strconv.Atoi(strings.TrimPrefix(m, "line "))
		if err != nil {
			return m
		}
		return fmt.Sprintf("line %d", n+before)
	})
}

var yamlLine = regexp.MustCompile(`\bline [0-9]+`)

// yamlMessage is a YAML parser's error on one line, without the
// converter's prefixes.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
	return strings.ReplaceAll(msg, "\n  ", "; ")
}

// controlledBy reports whether an object's owner references name a
// controller of the kind.
func controlledBy(m map[string]any, kind string) bool {
	meta, _ := m["metadata"].(map[string]any)
	refs, _ := meta["ownerReferences"].([]any)
	for _, r := range refs {
		ref, _ := r.(map[string]any)
		if c, _ := ref["controller"].(bool); c && ref["kind"] == kind {
			return true
		}
	}
	return false
}

type decoder struct {
	at     at
	objs   []Object
	warns  []Warning
	counts objectCounts
}

// object decodes one object (recursing into Lists) found at path.
func (d *decoder) object(js []byte, path string) error {
	var tm TypeMeta
	var probe any
	if err := json.Unmarshal(js, &probe); err != nil {
		return d.at.errorf(path, "not valid JSON: %v", err)
	}
	m, ok := probe.(map[string]any)
	if !ok {
		return d.at.errorf(path, "a document must be a mapping with apiVersion and kind, not %s", jsonKind(probe))
	}
	if _, api := m["apiVersion"]; !api && intentsMapping(m) {
		return d.at.errorf(path, "an intents file (intents:, events:), not a Kubernetes object: pass it with --intents FILE (the manifests take apiVersion and kind)")
	}
	for _, f := range []string{"apiVersion", "kind"} {
		v, present := m[f]
		s, isStr := v.(string)
		if !present || !isStr || s == "" {
			return d.at.errorf(join(path, f), "missing or not a string (accepted kinds: %s)", modelledKindNames())
		}
	}
	tm.APIVersion, tm.Kind = m["apiVersion"].(string), m["kind"].(string)
	if tm.Kind == "List" || (strings.HasSuffix(tm.Kind, "List") && modelledKinds[strings.TrimSuffix(tm.Kind, "List")] != nil) {
		return d.list(js, path, tm)
	}
	versions, modelled := modelledKinds[tm.Kind]
	switch {
	case modelled && !slices.Contains(versions, tm.APIVersion):
		return d.at.errorf(join(path, "apiVersion"), "%q is not supported for kind %s%s (accepted: %s)", tm.APIVersion, tm.Kind, removedNote(tm.Kind, tm.APIVersion), strings.Join(versions, ", "))
	case modelled:
	case tm.Kind == "ConfigMap" && tm.APIVersion == "v1":
		policy, err := d.configMapPolicies(m, path)
		if !policy && err == nil {
			d.counts[tm.Kind]++
		}
		return err
	case tm.Kind == "ReplicaSet" && controlledBy(m, "Deployment"):
		// A Deployment's ReplicaSets (a dump of a running cluster) are
		// modelled through the Deployment; the dump's paused one reads
		// its pod template from them (runningpods.go).
		rs := &ReplicaSet{}
		if _, err := strictDecode(d.at, path, js, rs); err != nil {
			return err
		}
		d.counts[tm.Kind]++
		o := Object{File: d.at.file, Doc: d.at.doc, Path: path, Kind: tm.Kind, APIVersion: tm.APIVersion, Value: rs, PodTemplate: podTemplateJSON(js, false)}
		if path != "" {
			o.Name = objectName(js)
		}
		d.objs = append(d.objs, o)
		return nil
	case harmlessKinds[tm.Kind]:
		d.counts[tm.Kind]++
		return nil
	case unmodelledWorkloadKinds[tm.Kind] != "":
		d.warns = append(d.warns, d.at.warning(path, "kind %s %q is ignored: %s", tm.Kind, nameOf(m), unmodelledWorkloadKinds[tm.Kind]))
		return nil
	default:
		if near, ok := nearKind(tm.Kind); ok {
			return d.at.errorf(join(path, "kind"), "unknown kind %q; did you mean %s? (accepted: %s)", tm.Kind, near, modelledKindNames())
		}
		d.warns = append(d.warns, d.at.warning(path, "kind %s %q (%s) is not modelled and is ignored: %s", tm.Kind, nameOf(m), tm.APIVersion, unmodelledKindEffect(tm.APIVersion)))
		return nil
	}
	var v any
	switch {
	case tm.Kind == "Deployment":
		v = &Deployment{}
	case tm.Kind == "StatefulSet":
		v = &StatefulSet{}
	case tm.Kind == "Job":
		v = &Job{}
	case tm.Kind == "CronJob":
		v = &CronJob{}
	case tm.Kind == "HorizontalPodAutoscaler" && tm.APIVersion == "autoscaling/v2":
		v = &HPAv2{}
	case tm.Kind == "HorizontalPodAutoscaler":
		v = &HPAv1{}
	case tm.Kind == "Node":
		v = &Node{}
	case tm.Kind == "Pod":
		v = &Pod{}
	case tm.Kind == "DeschedulerPolicy":
		v = &DeschedulerPolicy{}
	case tm.Kind == "PodDisruptionBudget":
		v = &PodDisruptionBudget{}
	case tm.Kind == "PriorityClass":
		v = &PriorityClass{}
	case tm.Kind == "DaemonSet":
		v = &DaemonSet{}
	case tm.Kind == "Namespace":
		v = &Namespace{}
	case tm.Kind == "LimitRange":
		v = &LimitRange{}
	case tm.Kind == "ResourceQuota":
		v = &ResourceQuota{}
	case tm.Kind == "RuntimeClass":
		v = &RuntimeClass{}
	case tm.Kind == "KubeSchedulerConfiguration":
		v = &KubeSchedulerConfiguration{}
	case tm.Kind == "KubeletConfiguration":
		v = &KubeletConfiguration{}
	}
	unknown, err := strictDecode(d.at, path, js, v)
	if err != nil {
		return err
	}
	o := Object{File: d.at.file, Doc: d.at.doc, Path: path, Kind: tm.Kind, APIVersion: tm.APIVersion, Value: v, Unknown: unknown}
	if path != "" {
		o.Name = objectName(js)
	}
	if tm.Kind == "Deployment" || tm.Kind == "StatefulSet" {
		o.PodTemplate = podTemplateJSON(js, tm.Kind == "StatefulSet")
	}
	if err := d.counts.add(d, o); err != nil {
		return err
	}
	d.objs = append(d.objs, o)
	return nil
}

func (d *decoder) list(js []byte, path string, tm TypeMeta) error {
	if tm.Kind == "List" && tm.APIVersion != "v1" {
		return d.at.errorf(join(path, "apiVersion"), "%q is not supported for kind List (accepted: v1)", tm.APIVersion)
	}
	if tm.Kind != "List" {
		versions := modelledKinds[strings.TrimSuffix(tm.Kind, "List")]
		if !slices.Contains(versions, tm.APIVersion) {
			return d.at.errorf(join(path, "apiVersion"), "%q is not supported for kind %s (accepted: %s)", tm.APIVersion, tm.Kind, strings.Join(versions, ", "))
		}
	}
	var l struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(js, &l); err != nil {
		return d.at.errorf(join(path, "items"), "must be a list of objects")
	}
	for i, item := range l.Items {
		ip := index(join(path, "items"), i)
		// Items of a typed list may leave out apiVersion and kind.
		if tm.Kind != "List" {
			var m map[string]any
			if json.Unmarshal(item, &m) == nil && m != nil {
				if _, ok := m["kind"]; !ok {
					m["kind"] = strings.TrimSuffix(tm.Kind, "List")
				}
				if _, ok := m["apiVersion"]; !ok {
					m["apiVersion"] = tm.APIVersion
				}
				item, _ = json.Marshal(m)
			}
		}
		if err := d.object(item, ip); err != nil {
			return err
		}
	}
	return nil
}

// podTemplateJSON returns a workload's spec.template (the object js) as
// the API server stores it (StoredPodTemplate), "" without one.
func podTemplateJSON(js []byte, statefulSet bool) string {
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber() // a quantity written as a bare number keeps its digits
	var m map[string]any
	if d.Decode(&m) != nil {
		return ""
	}
	spec, _ := m["spec"].(map[string]any)
	t, ok := spec["template"]
	if !ok {
		return ""
	}
	tjs, err := json.Marshal(t)
	if err != nil {
		return ""
	}
	return StoredPodTemplate(tjs, statefulSet)
}

func nameOf(m map[string]any) string {
	if md, ok := m["metadata"].(map[string]any); ok {
		if n, ok := md["name"].(string); ok {
			return n
		}
	}
	return ""
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	case nil:
		return "null"
	case bool:
		return "a boolean"
	}
	return "a number"
}

var (
	unknownFieldRE = regexp.MustCompile(`^unknown field "(.*)"$`)
	duplicateRE    = regexp.MustCompile(`^duplicate field "(.*)"$`)
	typeErrRE      = regexp.MustCompile(`cannot unmarshal (\w+)(?: (\S+))? into Go (?:struct field|value) (\S*) of type (\S+)`)
)

// strictDecode decodes js into v case-sensitively and returns the unknown
// field paths; duplicates and type mismatches are errors.
func strictDecode(a at, path string, js []byte, v any) ([]string, error) {
	strict, err := sigsjson.UnmarshalStrict(js, v, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		return nil, typeError(a, path, err, js)
	}
	var unknown []string
	for _, e := range strict {
		msg := e.Error()
		if m := duplicateRE.FindStringSubmatch(msg); m != nil {
			return nil, a.errorf(prefixPath(path, m[1]), "duplicate field")
		}
		if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
			unknown = append(unknown, m[1])
			continue
		}
		return nil, a.errorf(path, "%s", msg)
	}
	if err := checkCase(a, path, unknown); err != nil {
		return nil, err
	}
	return unknown, nil
}

func prefixPath(prefix, p string) string {
	if prefix == "" {
		return p
	}
	if p == "" {
		return prefix
	}
	return prefix + "." + p
}

// typeError rewrites encoding/json's type error into path: got X, want Y;
// js is the object decoded, for the value of a quoted number.
func typeError(a at, path string, err error, js []byte) error {
	m := typeErrRE.FindStringSubmatch(err.Error())
	if m == nil {
		return a.errorf(path, "%v", err)
	}
	field := strings.TrimPrefix(m[3], ".")
	// encoding/json names the field TypeName.json.path; keep the path.
	if first, rest, ok := strings.Cut(field, "."); ok && first != "" && first[0] >= 'A' && first[0] <= 'Z' {
		field = rest
	}
	got := m[1]
	if m[2] != "" {
		got += " " + m[2]
	}
	want := describeGoType(m[4])
	if got == "string" && strings.HasPrefix(want, "an integer") {
		if q, ok := quotedNumber(js, field); ok {
			// A Helm template's `replicas: "{{ .Values.replicas }}"`.
			return a.errorf(prefixPath(path, field), "got the string %s, want %s: the API server refuses a number in quotes (accepted: %s, without quotes)", strconv.Quote(q), want, q)
		}
	}
	if want == "a string" && (m[1] == "number" || m[1] == "bool") {
		if at, v, ok := unquotedScalar(js, field); ok {
			// nodeSelector {gpu: true}, labels {version: 1.10}: YAML
			// reads them as a boolean and a number.
			return a.errorf(prefixPath(path, at), "got %s %s, want a string: YAML reads an unquoted true, false, yes, no or number as a boolean or a number (accepted: a string: write the value in quotes)", m[1], v)
		}
	}
	return a.errorf(prefixPath(path, field), "got %s, want %s", got, want)
}

// unquotedScalar finds the boolean or number at the dotted field path of
// the JSON object js, or in the mapping there (labels, a nodeSelector),
// with its path and JSON text; a path through a list is not followed.
func unquotedScalar(js []byte, field string) (at, text string, ok bool) {
	var v any
	if json.Unmarshal(js, &v) != nil {
		return "", "", false
	}
	for _, seg := range strings.Split(field, ".") {
		m, isMap := v.(map[string]any)
		if !isMap {
			return "", "", false
		}
		v = m[seg]
	}
	scalar := func(x any) (string, bool) {
		switch x.(type) {
		case bool, float64:
			b, _ := json.Marshal(x)
			return string(b), true
		}
		return "", false
	}
	if t, ok := scalar(v); ok {
		return field, t, true
	}
	if m, isMap := v.(map[string]any); isMap {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if t, ok := scalar(m[k]); ok {
				return field + "." + k, t, true
			}
		}
	}
	return "", "", false
}

// quotedNumber returns the string at the dotted field path of the JSON
// object js when it holds a number ("3"); a path through a list, which
// encoding/json's message does not index, is not followed.
func quotedNumber(js []byte, field string) (string, bool) {
	var v any
	if json.Unmarshal(js, &v) != nil {
		return "", false
	}
	for _, seg := range strings.Split(field, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		v = m[seg]
	}
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	if _, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err != nil {
		return "", false
	}
	return strings.TrimSpace(s), true
}

func describeGoType(t string) string {
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer" + map[bool]string{true: " ≥ 0", false: ""}[strings.HasPrefix(t, "uint")]
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean (true or false)"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	}
	return "an object"
}

// knownFieldNames are every field name of the thin types and of the
// classification tables, for the case-sensitivity check.
var knownFieldNames = collectFieldNames()

// checkCase turns an unknown field that differs from a known one only by
// case into an error: the API server is case-sensitive, and "Replicas" read
// as unknown and ignored would verify the wrong configuration.
func checkCase(a at, path string, unknown []string) error {
	for _, u := range unknown {
		last := u
		if i := strings.LastIndexByte(u, '.'); i >= 0 {
			last = u[i+1:]
		}
		if want, ok := knownFieldNames[strings.ToLower(last)]; ok && want != last {
			return a.errorf(prefixPath(path, u), "unknown field %s (field names are case-sensitive; did you mean %s?)", strconv.Quote(last), strconv.Quote(want))
		}
	}
	return nil
}

// firstSeen holds the first object of each name of one kind.
type firstSeen map[string]Object

// add records o under key; a second object of that key is an input error
// naming the first ("accepted: one per scope").
func (f firstSeen) add(o Object, kind, key, scope string) error {
	if prev, dup := f[key]; dup {
		return o.at().errorf(o.path("metadata.name"), "a second %s %s (the first is in %s document %d; accepted: one per %s)", kind, key, prev.File, prev.Doc, scope)
	}
	f[key] = o
	return nil
}

// objectName is the "namespace/name" of an object's JSON, "" when it has
// none.
func objectName(js []byte) string {
	var m struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if json.Unmarshal(js, &m) != nil || m.Metadata.Name == "" {
		return ""
	}
	if m.Metadata.Namespace != "" {
		return m.Metadata.Namespace + "/" + m.Metadata.Name
	}
	return m.Metadata.Name
}

// writtenTwice returns the first key a YAML document writes twice in one
// mapping and its second line, not counting merge keys ("<<") and the
// keys they bring in; line 0 when there is none or the document does not
// parse.
func writtenTwice(part []byte) (key string, line int) {
	var root yamlv3.Node
	if yamlv3.Unmarshal(part, &root) != nil {
		return "", 0
	}
	return duplicateKey(&root)
}

func duplicateKey(n *yamlv3.Node) (string, int) {
	if n.Kind == yamlv3.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yamlv3.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			if seen[k.Value] {
				return k.Value, k.Line
			}
			seen[k.Value] = true
		}
	}
	for _, c := range n.Content {
		if key, line := duplicateKey(c); line > 0 {
			return key, line
		}
	}
	return "", 0
}
