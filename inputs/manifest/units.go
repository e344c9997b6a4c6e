package manifest

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Model units. CPU is in millicores: Kubernetes itself computes CPU fit
// and HPA utilisation on MilliValue, so nothing is lost. Memory is in MiB:
// bytes would overflow the model's int32 pod usage beyond 2 GiB. A
// request is rounded up to a whole MiB and a capacity down, so rounding
// can only make a fit look tighter, by less than 1 MiB per pod.
var (
	milliCore = big.NewRat(1, 1000)
	mebibyte  = big.NewRat(1<<20, 1)
	big1      = big.NewRat(1, 1)
)

// maxModelValue bounds every resource value: pod usage is an int32 in the
// State, and sums of a node's requests must not overflow either.
const maxModelValue = 1 << 30

// resourceKind says how a quantity is converted and what range it may
// take.
type resourceKind uint8

const (
	cpuRequest resourceKind = iota
	memoryRequest
	cpuCapacity
	memoryCapacity
)

func (k resourceKind) isCPU() bool { return k == cpuRequest || k == cpuCapacity }

// modelValue converts a parsed quantity to model units; requests must be
// ≥ 0 and capacities > 0. The error message says what is accepted.
func modelValue(q Quantity, k resourceKind) (int64, error) {
	unit, name := mebibyte, "MiB"
	if k.isCPU() {
		unit, name = milliCore, "millicores"
	}
	capacity := k == cpuCapacity || k == memoryCapacity
	switch {
	case q.Sign() < 0:
		return 0, fmt.Errorf("%s is negative (accepted: a quantity ≥ 0)", strconv.Quote(q.Text))
	case capacity && q.Sign() == 0:
		return 0, fmt.Errorf("%s is zero (accepted: a capacity > 0)", strconv.Quote(q.Text))
	}
	v, ok := q.Scaled(unit, !capacity)
	if !ok || v > maxModelValue {
		return 0, fmt.Errorf("%s is too large for the model (accepted: at most %d %s)%s", strconv.Quote(q.Text), maxModelValue, name, megaCoresHint(q.Text, k))
	}
	if capacity && v == 0 {
		return 0, fmt.Errorf("%s is less than 1 %s (accepted: at least 1 %s)", strconv.Quote(q.Text), name, name)
	}
	return v, nil
}

// megaCoresHint names the likely slip of a CPU quantity written with M
// (mega) for m (milli): "500M" is 500 million cores.
func megaCoresHint(text string, k resourceKind) string {
	if !k.isCPU() || !strings.HasSuffix(text, "M") {
		return ""
	}
	return fmt.Sprintf("; the suffix M means millions of cores: did you mean %sm?", strings.TrimSuffix(text, "M"))
}

// parseResource parses and converts one quantity field.
func parseResource(a at, path string, t QuantityText, k resourceKind) (int64, error) {
	q, err := t.Parse()
	if err != nil {
		return 0, a.errorf(path, "%s is not %s", strconv.Quote(t.Text), quantityGrammar)
	}
	v, err := modelValue(q, k)
	if err != nil {
		return 0, a.errorf(path, "%v", err)
	}
	return v, nil
}
