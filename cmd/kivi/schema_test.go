package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/report"
)

// schemaPath is the JSON Schema every document of --json, --shard and
// merge must satisfy (docs/json.md describes it).
const schemaPath = "../../docs/report.schema.json"

// validate checks v (a decoded JSON value) against schema s, within the
// subset of JSON Schema docs/report.schema.json uses: type, enum,
// properties, required, additionalProperties (false or a schema), items
// and $ref into $defs. A keyword outside the subset is an error, so that
// the schema cannot quietly say more than this test checks. It returns
// every mismatch, each with its JSON path.
func validate(root, s map[string]any, v any, path string) []string {
	for k := range s {
		switch k {
		case "type", "enum", "properties", "required", "additionalProperties", "items", "$ref",
			"description", "title", "$schema", "$id", "$defs":
		default:
			return []string{fmt.Sprintf("%s: schema keyword %q is outside the subset this test checks", path, k)}
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		def, found := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok || !found {
			return []string{fmt.Sprintf("%s: unresolvable $ref %q", path, ref)}
		}
		return validate(root, def, v, path)
	}
	var errs []string
	if t, ok := s["type"].(string); ok && !hasType(v, t) {
		return []string{fmt.Sprintf("%s: %s, want %s", path, jsonType(v), t)}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", path, v, enum))
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		required, _ := s["required"].([]any)
		for _, r := range required {
			if _, ok := x[r.(string)]; !ok {
				errs = append(errs, fmt.Sprintf("%s: required field %q is missing", path, r))
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, validate(root, ps, x[k], path+"."+k)...)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					errs = append(errs, fmt.Sprintf("%s: field %q is not in the schema", path, k))
				}
			case map[string]any:
				errs = append(errs, validate(root, ap, x[k], path+"."+k)...)
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				errs = append(errs, validate(root, items, e, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return errs
}

func hasType(v any, t string) bool {
	switch t {
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case "number":
		_, ok := v.(float64)
		return ok
	}
	return jsonType(v) == t
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	return s
}

// checkDoc validates one document and the rules of its mode that the
// schema's subset cannot say (which optional fields each mode has).
func checkDoc(t *testing.T, schema map[string]any, what string, data []byte, mode string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, data)
	}
	for _, e := range validate(schema, schema, v, "$") {
		t.Errorf("%s: %s", what, e)
	}
	if v["mode"] != mode {
		t.Errorf("%s: mode %v, want %s", what, v["mode"], mode)
	}
	if v["schemaVersion"] != float64(report.SchemaVersion) {
		t.Errorf("%s: schemaVersion %v, want %d", what, v["schemaVersion"], report.SchemaVersion)
	}
	_, hasSetups := v["setups"]
	_, hasCounts := v["stats"].(map[string]any)["setups"]
	sh, hasShard := v["shard"].(map[string]any)
	_, hasSwarm := v["swarm"]
	// A swarm's documents are topology reports: no setups.
	swarm := hasSwarm || hasShard && sh["mode"] == "swarm"
	if search := mode != kivi.ModeTopology && !swarm; hasSetups != search || hasCounts != search {
		t.Errorf("%s: setups present %v, stats.setups present %v; want both %v in mode %s", what, hasSetups, hasCounts, search, mode)
	}
	if hasShard != (mode == kivi.ModeShard) {
		t.Errorf("%s: shard present %v in mode %s", what, hasShard, mode)
	}
	if hasSwarm && mode != kivi.ModeMerge {
		t.Errorf("%s: swarm present in mode %s", what, mode)
	}
	if hasShard && (sh["mode"] == "swarm") == (sh["listHash"] != nil) {
		t.Errorf("%s: shard mode %v with listHash %v: a scaling shard has one, a swarm shard none", what, sh["mode"], sh["listHash"])
	}
	return v
}

// TestSchemaEveryMode validates the JSON output of every mode against
// docs/report.schema.json: the written topology (--original, and a
// user's manifests, which carry a reader warning), the scaling search,
// shard files and kivi merge of them.
func TestSchemaEveryMode(t *testing.T) {
	schema := loadSchema(t)
	dir := t.TempDir()
	runJSON := func(args ...string) []byte {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		if code != exitHolds && code != exitViolated && code != exitUnknown {
			t.Fatalf("%v: exit %d, stderr %s", args, code, stderr.String())
		}
		return stdout.Bytes()
	}
	checkDoc(t, schema, "--original", runJSON("verify", "--case", "c3", "--original", "--json", "--quiet", "--workers", "1"), kivi.ModeTopology)
	// A lasso (C1's oscillation) and a model bound: the optional fields
	// of those reports (loopStart, bound) are in the schema too.
	checkDoc(t, schema, "--original c1", runJSON("verify", "--case", "c1", "--original", "--json", "--quiet", "--workers", "1"), kivi.ModeTopology)
	checkDoc(t, schema, "model bound", runJSON("verify", "--case", "c1", "--scale", "200", "--original", "--json", "--quiet"), kivi.ModeTopology)

	// A violation found by the depth-first phase names its seed.
	ex := filepath.Join("..", "..", "examples", "zone-skew-20")
	deep := checkDoc(t, schema, "depth-first", runJSON("verify", "-f", filepath.Join(ex, "manifests.yaml"), "--nodes", filepath.Join(ex, "nodes.yaml"),
		"--intents", filepath.Join(ex, "intents.yaml"), "--json", "--quiet", "--workers", "1"), kivi.ModeTopology)
	seeded := false
	for _, in := range deep["intents"].([]any) {
		if m := in.(map[string]any); m["foundBy"] == "depth-first search" && m["seed"] != nil {
			seeded = true
		}
	}
	if !seeded {
		t.Errorf("examples/zone-skew-20: no violation found by the depth-first phase with its seed: %v", deep["intents"])
	}

	// A user's manifests with a field the model does not model (a
	// StatefulSet pod's schedulingGates): its warning is in the document,
	// not only on stderr. Its minReadySeconds puts the pods' readiness in
	// the traces' snapshots.
	app, err := os.ReadFile("testdata/own/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	warned := filepath.Join(dir, "app.yaml")
	sts := "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  minReadySeconds: 5\n" +
		"  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      schedulingGates: [{name: example.com/gate}]\n      containers: [{name: db}]\n"
	if err := os.WriteFile(warned, append(app, sts...), 0o644); err != nil {
		t.Fatal(err)
	}
	own := checkDoc(t, schema, "-f", runJSON("verify", "-f", warned, "--nodes", "testdata/own/nodes.yaml", "--json", "--quiet", "--workers", "1"), kivi.ModeTopology)
	if ws, _ := own["warnings"].([]any); len(ws) == 0 {
		t.Errorf("-f with a StatefulSet: no warning in the document")
	}
	checkDoc(t, schema, "-f --search", runJSON("verify", "-f", warned, "--nodes", "testdata/own/nodes.yaml", "--search", "--json", "--quiet", "--workers", "1"), kivi.ModeSearch)

	search := checkDoc(t, schema, "search", runJSON("verify", "--case", "c3", "--json", "--quiet", "--workers", "1"), kivi.ModeSearch)
	if search["verdict"] != "violated" || search["firstFailure"] == nil {
		t.Errorf("search: verdict %v, firstFailure %v; want violated and the failing setup", search["verdict"], search["firstFailure"])
	}
	var shards []string
	for k := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("shard%d.json", k))
		runJSON("verify", "--case", "c3", "--shard", fmt.Sprintf("%d/2", k), "--shard-out", p, "--quiet", "--workers", "1")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkDoc(t, schema, p, data, kivi.ModeShard)
		shards = append(shards, p)
	}
	// A swarm over examples/zone-skew-20: its shards, with the
	// violation's counterexample and seed, and their merge.
	var swarm []string
	for k := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("swarm%d.json", k))
		runJSON(append(append([]string{"verify"}, zoneSkew20...), "--shard", fmt.Sprintf("%d/2", k), "--max-states", "20000", "--shard-out", p, "--quiet", "--workers", "1")...)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc := checkDoc(t, schema, p, data, kivi.ModeShard)
		if doc["shard"].(map[string]any)["mode"] != "swarm" || doc["verdict"] != "violated" {
			t.Errorf("%s: shard %v, verdict %v; want a swarm shard that found the violation", p, doc["shard"], doc["verdict"])
		}
		swarm = append(swarm, p)
	}
	sm := checkDoc(t, schema, "swarm merge", runJSON(append([]string{"merge", "--json"}, swarm...)...), kivi.ModeMerge)
	if sm["swarm"] == nil || sm["verdict"] != "violated" {
		t.Errorf("swarm merge: swarm %v, verdict %v", sm["swarm"], sm["verdict"])
	}

	merged := checkDoc(t, schema, "merge", runJSON(append([]string{"merge", "--json"}, shards...)...), kivi.ModeMerge)
	// The merge of the shards is the search: the same document but for
	// its mode and its timings.
	for _, doc := range []map[string]any{search, merged} {
		delete(doc, "mode")
		delete(doc, "measured")
		for _, s := range doc["setups"].([]any) {
			if r, ok := s.(map[string]any)["report"].(map[string]any); ok {
				delete(r, "measured")
			}
		}
	}
	a, _ := json.Marshal(search)
	b, _ := json.Marshal(merged)
	if !bytes.Equal(a, b) {
		t.Errorf("merged shards differ from the search:\n%s\n%s", a, b)
	}
}

// TestSchemaCatchesMismatches: the validator (and so TestSchemaEveryMode)
// fails on a field the schema does not have, a missing required field, a
// wrong type or a value outside an enum, at any depth.
func TestSchemaCatchesMismatches(t *testing.T) {
	schema := loadSchema(t)
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"verify", "--case", "c3", "--original", "--json", "--quiet", "--workers", "1"}, &stdout, &stderr)
	fresh := func() map[string]any {
		var v map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if errs := validate(schema, schema, fresh(), "$"); len(errs) > 0 {
		t.Fatalf("the unchanged document is invalid: %v", errs)
	}
	// firstTrace returns the first trace step's first object.
	firstObject := func(v map[string]any) map[string]any {
		for _, in := range v["intents"].([]any) {
			if tr, ok := in.(map[string]any)["trace"].(map[string]any); ok {
				for _, st := range tr["steps"].([]any) {
					if objs := st.(map[string]any)["objects"].([]any); len(objs) > 0 {
						return objs[0].(map[string]any)
					}
				}
			}
		}
		t.Fatal("no trace step with objects")
		return nil
	}
	for _, tc := range []struct {
		name   string
		change func(v map[string]any)
		want   string
	}{
		{"extra top-level field", func(v map[string]any) { v["extra"] = 1 }, `field "extra" is not in the schema`},
		{"missing verdict", func(v map[string]any) { delete(v, "verdict") }, `required field "verdict" is missing`},
		{"missing warnings", func(v map[string]any) { delete(v, "warnings") }, `required field "warnings" is missing`},
		{"null intents", func(v map[string]any) { v["intents"] = nil }, "$.intents: null, want array"},
		{"bad verdict", func(v map[string]any) { v["verdict"] = "fine" }, "fine is not one of"},
		{"extra stats field", func(v map[string]any) { v["stats"].(map[string]any)["speed"] = 1.5 }, `$.stats: field "speed"`},
		{"fraction for an integer", func(v map[string]any) { v["stats"].(map[string]any)["states"] = 1.5 }, "$.stats.states: number, want integer"},
		{"deep extra field", func(v map[string]any) { firstObject(v)["uid"] = "x" }, `field "uid" is not in the schema`},
		{"deep missing field", func(v map[string]any) { delete(firstObject(v), "kind") }, `required field "kind" is missing`},
	} {
		v := fresh()
		tc.change(v)
		errs := validate(schema, schema, v, "$")
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tc.want) }) {
			t.Errorf("%s: errors %q, want one containing %q", tc.name, errs, tc.want)
		}
	}
}

// TestSchemaDocumented: every field of the schema is described in
// docs/json.md (as `name` in a table row), so that the document and
// the schema cannot drift apart silently.
func TestSchemaDocumented(t *testing.T) {
	schema := loadSchema(t)
	doc, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	for def, d := range schema["$defs"].(map[string]any) {
		for field := range d.(map[string]any)["properties"].(map[string]any) {
			if !bytes.Contains(doc, []byte("| `"+field+"`")) {
				t.Errorf("$defs.%s.%s is not described in docs/json.md (a table row starting with `%s`)", def, field, field)
			}
		}
	}
}

// TestMergeOldShardFiles: shard files written by an earlier kivi (format
// "kivi-scaling-shard" version 1, testdata/shard-v1: `kivi verify --case
// c5 --confident-nodes 2 --confident-pods-per-node 1 --shard K/2` at
// commit a343d54) still merge, into a valid version 2 document whose
// verdict and first failure are this kivi's search's, with the objects of
// each trace step filled in.
func TestMergeOldShardFiles(t *testing.T) {
	schema := loadSchema(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"merge", "--json", "testdata/shard-v1/c5-0.json", "testdata/shard-v1/c5-1.json"}, &stdout, &stderr)
	if code != exitViolated {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	merged := checkDoc(t, schema, "merge of version 1 shards", stdout.Bytes(), kivi.ModeMerge)
	stdout.Reset()
	run(context.Background(), []string{"verify", "--case", "c5", "--confident-nodes", "2", "--confident-pods-per-node", "1", "--json", "--quiet", "--workers", "1"}, &stdout, &stderr)
	var search map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &search); err != nil {
		t.Fatal(err)
	}
	if merged["verdict"] != search["verdict"] || fmt.Sprint(merged["firstFailure"]) != fmt.Sprint(search["firstFailure"]) {
		t.Errorf("merge of version 1 shards: verdict %v, first failure %v; the search: %v, %v",
			merged["verdict"], merged["firstFailure"], search["verdict"], search["firstFailure"])
	}
	objects := 0
	for _, s := range merged["setups"].([]any) {
		r, _ := s.(map[string]any)["report"].(map[string]any)
		if r == nil {
			continue
		}
		for _, in := range r["intents"].([]any) {
			if tr, ok := in.(map[string]any)["trace"].(map[string]any); ok {
				for _, st := range tr["steps"].([]any) {
					objects += len(st.(map[string]any)["objects"].([]any))
				}
			}
		}
	}
	if objects == 0 {
		t.Error("merge of version 1 shards: no trace step names an object")
	}
}

// TestMergeRefusesNonShards: merge names what it was given when it is not
// a shard file it can read.
func TestMergeRefusesNonShards(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"verify", "--case", "c3", "--original", "--json", "--quiet"}, &stdout, &stderr)
	topology := filepath.Join(dir, "topology.json")
	newer := filepath.Join(dir, "newer.json")
	if err := os.WriteFile(topology, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(newer, []byte(`{"schemaVersion": 99, "mode": "shard"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{topology, `a "topology" report, not a shard`},
		{newer, "report schema version 99 is newer than this kivi's 2"},
	} {
		stderr.Reset()
		code := run(context.Background(), []string{"merge", tc.file}, io.Discard, &stderr)
		if code != exitInput || !strings.Contains(stderr.String(), tc.file) || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("merge %s: exit %d, stderr %q; want exit 2 naming the file and %q", tc.file, code, stderr.String(), tc.want)
		}
	}
}
