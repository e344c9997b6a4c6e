package manifest

import (
	"bytes"
	"fmt"
	"strconv"
)

// IntOrString is k8s.io/apimachinery util/intstr.IntOrString as decoded:
// a JSON integer or a JSON string. Like QuantityText it never fails to
// decode; resolve checks it with the field path at hand.
type IntOrString struct {
	Raw   string
	IsStr bool
	Set   bool
}

// UnmarshalJSON keeps the raw value.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*v = IntOrString{}
		return nil
	}
	if len(b) >= 2 && b[0] == '"' {
		if s, err := strconv.Unquote(string(b)); err == nil {
			*v = IntOrString{Raw: s, IsStr: true, Set: true}
			return nil
		}
	}
	*v = IntOrString{Raw: string(b), Set: true}
	return nil
}

const intOrPercentAccepted = `a non-negative integer or a percentage such as "25%"`

// intOrPercent checks the value by Kubernetes' rules (an int32, or a
// string matching ^[0-9]+%$ — validation.IsValidPercent; a string without
// "%" is rejected by GetScaledValueFromIntOrPercent) and returns it in
// the model's notation ("3" or "25%").
func intOrPercent(a at, path string, v IntOrString) (string, error) {
	if !v.IsStr {
		n, err := strconv.ParseInt(v.Raw, 10, 32)
		if err != nil || n < 0 {
			return "", a.errorf(path, "%s (accepted: %s)", v.Raw, intOrPercentAccepted)
		}
		return strconv.FormatInt(n, 10), nil
	}
	s := v.Raw
	if len(s) < 2 || s[len(s)-1] != '%' {
		return "", a.errorf(path, "%s is not a percentage (accepted: %s)", strconv.Quote(s), intOrPercentAccepted)
	}
	for i := 0; i < len(s)-1; i++ {
		if !isDigit(s[i]) {
			return "", a.errorf(path, "%s is not a percentage (accepted: %s)", strconv.Quote(s), intOrPercentAccepted)
		}
	}
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 32)
	if err != nil {
		return "", a.errorf(path, "%s is out of range (accepted: %s)", strconv.Quote(s), intOrPercentAccepted)
	}
	return fmt.Sprintf("%d%%", n), nil
}

// resolveIntOrPercent is GetScaledValueFromIntOrPercent: percentages of
// total, rounded up or down.
func resolveIntOrPercent(s string, total int, roundUp bool) int {
	if n := len(s); n > 0 && s[n-1] == '%' {
		p, _ := strconv.Atoi(s[:n-1])
		x := p * total
		if roundUp {
			return (x + 99) / 100
		}
		return x / 100
	}
	n, _ := strconv.Atoi(s)
	return n
}
