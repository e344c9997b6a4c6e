package casefile

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// descheduleEnum is the named-value codec of the deschedule extension
// point's enums (a profile's deschedule.enabled and its
// nodeAffinityType), spelt as a descheduler policy spells them; nil for
// any other type.
func descheduleEnum(t reflect.Type) *enum {
	switch t {
	case reflect.TypeFor[model.DeschedulePlugin]():
		return namedEnum("deschedule plugin", model.DeschedulePlugins())
	case reflect.TypeFor[model.NodeAffinityType]():
		return namedEnum("nodeAffinityType", model.NodeAffinityTypes())
	}
	return nil
}

// namedEnum decodes and encodes a uint8 enum by its values' names.
func namedEnum[T interface {
	~uint8
	fmt.Stringer
}](what string, values []T) *enum {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = v.String()
	}
	return &enum{
		decode: func(v any) (int64, error) {
			s, ok := v.(string)
			for _, x := range values {
				if ok && s == x.String() {
					return int64(x), nil
				}
			}
			return 0, fmt.Errorf("%s is not a %s (accepted: %s)", describe(v), what, strings.Join(names, ", "))
		},
		encode: func(x int64) any { return T(x).String() },
	}
}
