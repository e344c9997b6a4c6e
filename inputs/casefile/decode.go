package casefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/kivi-go/kivi/model"
)

// maxCaseFileBytes bounds a case file's size.
const maxCaseFileBytes = 8 << 20

// manifestKind tells a Kubernetes manifest (top-level apiVersion and
// kind, in YAML or JSON) given where a case file was expected, and
// returns its kind. A case file has neither key.
func manifestKind(data []byte) (string, bool) {
	var probe struct {
		APIVersion any    `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	first := data
	// The first YAML document is enough (a manifest stream has several).
	if i := bytes.Index(data, []byte("\n---")); i >= 0 {
		first = data[:i]
	}
	if yaml.Unmarshal(first, &probe) != nil || probe.APIVersion == nil || probe.Kind == "" {
		return "", false
	}
	return probe.Kind, true
}

// Load reads the case file at path (YAML or JSON); see Parse.
func Load(path string) (*model.Cluster, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a case file (YAML or JSON) strictly and checks that it
// builds. name is the file name used in error messages.
func Parse(name string, data []byte) (*model.Cluster, error) {
	// Checked before parsing: parsing YAML costs about twenty times its
	// size in memory, and a case file the model can hold (at most
	// model.MaxNodes nodes and model.MaxObjects deployments) is far smaller.
	if len(data) > maxCaseFileBytes {
		return nil, &Error{File: name, Msg: fmt.Sprintf("the file is %.1f MB (accepted: at most %d MiB; the model holds at most %d nodes and %d deployments)", float64(len(data))/1e6, maxCaseFileBytes>>20, model.MaxNodes, model.MaxObjects)}
	}
	if kind, ok := manifestKind(data); ok {
		return nil, &Error{File: name, Msg: fmt.Sprintf("this is a Kubernetes manifest (kind: %s), not a case file: pass manifests with -f (kivi verify -f %s), or kivitest.Manifests in tests (accepted here: a case file with nodeTypes, nodes, templates, deployments, ...)", kind, name)}
	}
	js, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
		msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
		return nil, &Error{File: name, Msg: "not valid YAML: " + strings.ReplaceAll(msg, "\n  ", "; ")}
	}
	var tree any
	strict, err := sigsjson.UnmarshalStrict(js, &tree)
	if err == nil && len(strict) > 0 {
		err = strict[0]
	}
	if err != nil {
		return nil, &Error{File: name, Msg: "not valid JSON: " + err.Error()}
	}
	if tree == nil {
		return nil, &Error{File: name, Msg: "empty case file (expected a mapping with nodeTypes, nodes, templates, deployments, ...)"}
	}
	r := reader{file: name}
	norm, err := r.normalize(reflect.TypeFor[model.Cluster](), tree, "")
	if err != nil {
		return nil, err
	}
	// The normalised tree has the Go JSON names; decoding it strictly
	// cannot fail unless normalize let something through, which the
	// error below would show.
	js, err = json.Marshal(norm)
	if err != nil {
		return nil, &Error{File: name, Msg: err.Error()}
	}
	c := &model.Cluster{}
	strict, err = sigsjson.UnmarshalStrict(js, c)
	if err == nil && len(strict) > 0 {
		err = strict[0]
	}
	if err != nil {
		return nil, &Error{File: name, Msg: err.Error()}
	}
	for i := range c.Intents {
		c.Intents[i].Params = plainInts(c.Intents[i].Params).(map[string]any)
		if len(c.Intents[i].Params) == 0 {
			c.Intents[i].Params = nil
		}
	}
	if err := checkLimits(name, c); err != nil {
		return nil, err
	}
	// A case file describes a case for Kivi, whose nodes have the
	// `hostname` alias (examples/cases spread by it).
	c.KiviHostnameAlias = true
	if _, _, err := c.Build(); err != nil {
		return nil, &Error{File: name, Msg: err.Error(), Err: err}
	}
	return c, nil
}

// plainInts turns the int64s sigs.k8s.io/json preserves into int, the type
// Go code writes intent parameters with (did: 1).
func plainInts(v any) any {
	switch x := v.(type) {
	case int64:
		if x >= math.MinInt && x <= math.MaxInt {
			return int(x)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainInts(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainInts(e)
		}
		return out
	}
	return v
}

// reader checks a decoded JSON tree against the Go type it describes and
// renames the case file's keys to the Go JSON names.
type reader struct{ file string }

func (r *reader) fail(path, format string, args ...any) error {
	return &Error{File: r.file, Path: path, Msg: fmt.Sprintf(format, args...)}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func mapKey(path, key string) string {
	for _, c := range key {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return fmt.Sprintf("%s[%q]", path, key)
		}
	}
	return join(path, key)
}

// normalize returns v, checked against t, in the form encoding/json
// decodes into t.
func (r *reader) normalize(t reflect.Type, v any, path string) (any, error) {
	if e := enumFor(t); e != nil {
		x, err := e.decode(v)
		if err != nil {
			return nil, r.fail(path, "%v", err)
		}
		return x, nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return r.normalize(t.Elem(), v, path)
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, r.fail(path, "expected a mapping (fields: %s), got %s", fileNames(fieldsOf(t)), describe(v))
		}
		fields := fieldsOf(t)
		out := make(map[string]any, len(obj))
		for _, k := range sortedKeys(obj) {
			f, ok := lookup(fields, k)
			if !ok {
				for _, g := range fields {
					if strings.EqualFold(g.fileName, k) {
						return nil, r.fail(join(path, k), "unknown field; did you mean %q? (field names are case-sensitive)", g.fileName)
					}
				}
				return nil, r.fail(join(path, k), "unknown field (accepted: %s)", fileNames(fields))
			}
			if obj[k] == nil {
				continue // null: the field is unset
			}
			x, err := r.normalize(t.Field(f.index).Type, obj[k], join(path, k))
			if err != nil {
				return nil, err
			}
			out[f.jsonName] = x
		}
		return out, nil
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return nil, r.fail(path, "expected a list, got %s", describe(v))
		}
		out := make([]any, len(list))
		for i, e := range list {
			p := fmt.Sprintf("%s[%d]", path, i)
			if e == nil {
				return nil, r.fail(p, "null is not allowed in a list")
			}
			x, err := r.normalize(t.Elem(), e, p)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, r.fail(path, "expected a mapping, got %s", describe(v))
		}
		out := make(map[string]any, len(obj))
		for _, k := range sortedKeys(obj) {
			p := mapKey(path, k)
			if obj[k] == nil && t.Elem().Kind() != reflect.Interface {
				return nil, r.fail(p, "null is not allowed here")
			}
			x, err := r.normalize(t.Elem(), obj[k], p)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case reflect.Interface:
		return v, nil
	case reflect.String:
		switch x := v.(type) {
		case string:
			return x, nil
		case int64:
			// YAML reads `zone: 1` and `node: 2` as numbers; like
			// Kubernetes' YAML decoder, take them as strings.
			return strconv.FormatInt(x, 10), nil
		}
		return nil, r.fail(path, "expected a string, got %s (quote it)", describe(v))
	case reflect.Bool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, r.fail(path, "expected true or false, got %s", describe(v))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(int64)
		if !ok {
			return nil, r.fail(path, "expected an integer, got %s", describe(v))
		}
		if reflect.Zero(t).OverflowInt(n) {
			return nil, r.fail(path, "%d is out of range", n)
		}
		return n, nil
	case reflect.Float64:
		// Percentages (the descheduler's thresholds) may have decimals.
		switch x := v.(type) {
		case int64:
			return float64(x), nil
		case float64:
			return x, nil
		}
		return nil, r.fail(path, "expected a number, got %s", describe(v))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(int64)
		if !ok || n < 0 {
			return nil, r.fail(path, "expected a non-negative integer, got %s", describe(v))
		}
		if reflect.Zero(t).OverflowUint(uint64(n)) {
			return nil, r.fail(path, "%d is out of range", n)
		}
		return n, nil
	}
	return nil, r.fail(path, "cannot read a %s", t)
}

func lookup(fields []field, key string) (field, bool) {
	for _, f := range fields {
		if f.fileName == key {
			return f, true
		}
	}
	return field{}, false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
