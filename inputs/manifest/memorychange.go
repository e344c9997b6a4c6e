package manifest

import "strconv"

// memoryDeltaAccepted is what eventMemoryChange's maxDelta accepts.
const memoryDeltaAccepted = "the largest increase of the pod's memory usage: an integer number of bytes, or a quantity such as 256Mi or 1Gi; at least 1Mi once rounded up to whole MiB, at most "

// memoryDelta reads eventMemoryChange's maxDelta into MiB, rounded up as
// a request is (units.go): bytes as an integer, or a quantity.
func (r *intentsReader) memoryDelta(path string, v any) (int, error) {
	accepted := memoryDeltaAccepted + strconv.Itoa(maxModelValue>>10) + "Gi"
	var text string
	switch x := v.(type) {
	case int64:
		text = strconv.FormatInt(x, 10)
	case string:
		text = x
	default:
		return 0, r.a.errorf(path, "%s (accepted: %s)", describeValue(v), accepted)
	}
	q, err := ParseQuantity(text)
	if err != nil {
		return 0, r.a.errorf(path, "%s is not %s (accepted: %s)", strconv.Quote(text), quantityGrammar, accepted)
	}
	mib, err := modelValue(q, memoryRequest)
	if err != nil || mib < 1 {
		return 0, r.a.errorf(path, "%s (accepted: %s)", strconv.Quote(text), accepted)
	}
	return int(mib), nil
}
