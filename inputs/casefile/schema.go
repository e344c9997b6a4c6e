package casefile

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/kivi-go/kivi/model"
)

// field is one struct field as the case file spells it.
type field struct {
	index int
	// fileName is the key in a case file; jsonName is the key
	// encoding/json uses for the Go field (its tag, or its Go name when
	// the model type has no tag).
	fileName, jsonName string
	// required fields (tagged without omitempty) are written even when
	// zero, as encoding/json would.
	required bool
}

// fieldsOf lists the exported fields of struct type t in declaration
// order.
func fieldsOf(t reflect.Type) []field {
	var out []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fi := field{index: i, fileName: name, jsonName: name}
		if name == "" {
			fi.fileName, fi.jsonName = lowerCamel(f.Name), f.Name
		} else {
			fi.required = !strings.Contains(","+opts+",", ",omitempty,")
		}
		out = append(out, fi)
	}
	return out
}

func fileNames(fs []field) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.fileName
	}
	return strings.Join(names, ", ")
}

// lowerCamel turns a Go field name into Kubernetes' JSON spelling:
// "MatchLabels" → "matchLabels", "CPU" → "cpu", "HTTPPort" → "httpPort".
func lowerCamel(s string) string {
	r := []rune(s)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) {
		n-- // the last capital starts the next word
	}
	for i := 0; i < n; i++ {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// enum is a model type whose values a case file writes by name.
type enum struct {
	// decode turns the file's value into the number encoding/json reads.
	decode func(v any) (int64, error)
	// encode returns the file's value for x (nil: leave the field out).
	encode func(x int64) any
}

// enumFor returns the named-value codec of t, or nil. The descheduler's
// enums are numbers in package model; a case file names them the way a
// descheduler policy does.
func enumFor(t reflect.Type) *enum {
	if e := descheduleEnum(t); e != nil {
		return e
	}
	switch t {
	case reflect.TypeFor[model.BalancePlugin]():
		plugins := []model.BalancePlugin{model.RemoveDuplicates, model.RemovePodsViolatingTopologySpreadConstraint,
			model.LowNodeUtilization, model.HighNodeUtilization}
		names := make([]string, len(plugins))
		for i, p := range plugins {
			names[i] = p.String()
		}
		return &enum{
			decode: func(v any) (int64, error) {
				s, ok := v.(string)
				for _, p := range plugins {
					if ok && s == p.String() {
						return int64(p), nil
					}
				}
				return 0, fmt.Errorf("%s is not a balance plugin (accepted: %s)", describe(v), strings.Join(names, ", "))
			},
			encode: func(x int64) any { return model.BalancePlugin(x).String() },
		}
	case reflect.TypeFor[model.TopologySpreadConstraints]():
		// descheduler's RemovePodsViolatingTopologySpreadConstraint args:
		// constraints is a list of whenUnsatisfiable values, default
		// [DoNotSchedule].
		const accepted = "a list of DoNotSchedule and ScheduleAnyway"
		return &enum{
			decode: func(v any) (int64, error) {
				list, ok := v.([]any)
				if !ok || len(list) == 0 {
					return 0, fmt.Errorf("%s is not a constraint list (accepted: %s)", describe(v), accepted)
				}
				hard, soft := false, false
				for _, x := range list {
					switch x {
					case "DoNotSchedule":
						hard = true
					case "ScheduleAnyway":
						soft = true
					default:
						return 0, fmt.Errorf("%s is not a whenUnsatisfiable value (accepted: %s)", describe(x), accepted)
					}
				}
				switch {
				case hard && soft:
					return int64(model.AllConstraints), nil
				case soft:
					return int64(model.SoftConstraints), nil
				}
				return int64(model.HardConstraints), nil
			},
			encode: func(x int64) any {
				switch model.TopologySpreadConstraints(x) {
				case model.SoftConstraints:
					return []any{"ScheduleAnyway"}
				case model.AllConstraints:
					return []any{"DoNotSchedule", "ScheduleAnyway"}
				}
				return nil
			},
		}
	}
	return nil
}

// describe renders a decoded JSON value for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		// A whole non-YAML file can arrive as one string: quote only its
		// beginning, the message must stay one readable line.
		if r := []rune(x); len(r) > 60 {
			return fmt.Sprintf("the string %q… (%d characters)", string(r[:60]), len(r))
		}
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%v", v)
}
