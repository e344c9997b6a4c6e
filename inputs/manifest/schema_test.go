package manifest

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/intents"
)

// The project has no JSON Schema validator; instead this test holds
// docs/intents.schema.json and the intents-file reader to the same
// vocabulary, both ways: every key, kind and intent name the schema
// allows, the reader accepts, and the reverse.

type schemaNode struct {
	Properties    map[string]*schemaNode `json:"properties"`
	Enum          []string               `json:"enum"`
	Const         string                 `json:"const"`
	Required      []string               `json:"required"`
	PropertyNames *schemaNode            `json:"propertyNames"`
	AllOf         []struct {
		If   *schemaNode `json:"if"`
		Then *schemaNode `json:"then"`
	} `json:"allOf"`
	Defs map[string]*schemaNode `json:"$defs"`
}

func loadSchema(t *testing.T) *schemaNode {
	t.Helper()
	data, err := os.ReadFile("../../docs/intents.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s schemaNode
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("docs/intents.schema.json: %v", err)
	}
	return &s
}

func sameSet(t *testing.T, what string, schema, reader []string) {
	t.Helper()
	a, b := slices.Sorted(slices.Values(schema)), slices.Sorted(slices.Values(reader))
	if !slices.Equal(a, b) {
		t.Errorf("%s: schema %v, reader %v", what, a, b)
	}
}

func keys(n *schemaNode) []string { return slices.Collect(maps.Keys(n.Properties)) }

func TestIntentsSchemaMatchesReader(t *testing.T) {
	s := loadSchema(t)
	d := s.Defs
	sameSet(t, "file keys", keys(d["file"]), intentsTopKeys)
	sameSet(t, "intent keys", keys(d["intent"]), intentKeys)
	sameSet(t, "event keys", keys(d["event"]), eventKeys)
	sameSet(t, "Kivi event keys", keys(d["kiviEvent"]), kiviEventKeys)
	sameSet(t, "event kinds", d["event"].Properties["kind"].Enum, slices.Collect(maps.Keys(eventParams)))
	sameSet(t, "Kivi event names", d["kiviEvent"].Properties["name"].Enum, eventKinds)
	sameSet(t, "when", d["event"].Properties["when"].Enum, []string{"main", "first", "afterStable"})

	// Intent names: the catalogue and Kivi's internal names, nothing else
	// (an intent of this model's own has no internal name).
	var names []string
	for _, n := range intents.Names() {
		names = append(names, n)
		if in := intents.InternalName(n); in != n {
			names = append(names, in)
		}
	}
	sameSet(t, "intent names", d["intent"].Properties["name"].Enum, names)
	var params []string
	for _, n := range intents.Names() {
		for _, p := range intents.ParamNames(n) {
			if !slices.Contains(params, p) {
				params = append(params, p)
			}
		}
	}
	sameSet(t, "intent parameters", keys(d["intentParams"]), params)

	// Per kind: the parameters it takes and the one it needs.
	seen := map[string]bool{}
	for _, c := range d["event"].AllOf {
		if c.If == nil || c.If.Properties["kind"] == nil {
			continue
		}
		kind := c.If.Properties["kind"].Const
		seen[kind] = true
		want := append([]string{"kind", "when"}, eventParams[kind]...)
		sameSet(t, kind+" parameters", c.Then.PropertyNames.Enum, want)
		var req []string
		if r := requiredParam[kind]; r != "" {
			req = []string{r}
		}
		sameSet(t, kind+" required", c.Then.Required, req)
	}
	for k := range eventParams {
		if !seen[k] {
			t.Errorf("the schema has no parameters for %s", k)
		}
	}
}

// TestIntentsSchemaExampleAccepted: the worked example's intents file
// uses only what the schema declares, and the reader accepts it.
func TestIntentsSchemaExampleAccepted(t *testing.T) {
	s := loadSchema(t)
	data, err := os.ReadFile("../../examples/inputs/intents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	js, err := toJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string][]map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	for k := range doc {
		if s.Defs["file"].Properties[k] == nil {
			t.Errorf("key %s is not in the schema", k)
		}
	}
	for _, in := range doc["intents"] {
		for k := range in {
			if s.Defs["intent"].Properties[k] == nil {
				t.Errorf("intent key %s is not in the schema", k)
			}
		}
	}
	for _, e := range doc["events"] {
		for k := range e {
			if s.Defs["event"].Properties[k] == nil {
				t.Errorf("event key %s is not in the schema", k)
			}
		}
	}
}
