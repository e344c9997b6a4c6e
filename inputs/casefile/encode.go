package casefile

import (
	"reflect"
	"sort"

	yamlv2 "go.yaml.in/yaml/v2"

	"github.com/kivi-go/kivi/model"
)

// Marshal writes c as a case file: YAML with the fields in declaration
// order, map keys sorted, and empty optional fields left out.
func Marshal(c *model.Cluster) ([]byte, error) {
	return yamlv2.Marshal(encode(reflect.ValueOf(c)))
}

// encode turns v into the YAML tree of its case-file form.
func encode(v reflect.Value) any {
	if e := enumFor(v.Type()); e != nil {
		if v.CanInt() {
			return e.encode(v.Int())
		}
		return e.encode(int64(v.Uint()))
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return encode(v.Elem())
	case reflect.Struct:
		out := yamlv2.MapSlice{}
		for _, f := range fieldsOf(v.Type()) {
			fv := v.Field(f.index)
			if fv.IsZero() && !(f.required && scalar(fv.Kind())) {
				continue
			}
			x := encode(fv)
			if x == nil {
				continue
			}
			out = append(out, yamlv2.MapItem{Key: f.fileName, Value: x})
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = encode(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		out := yamlv2.MapSlice{}
		for _, k := range keys {
			out = append(out, yamlv2.MapItem{Key: k, Value: encode(v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())))})
		}
		return out
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	}
	return v.Interface()
}

func scalar(k reflect.Kind) bool {
	switch k {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}
