package manifest

import (
	"math/big"
	"strings"
	"testing"
)

// TestParseQuantity: the grammar and values of resource.ParseQuantity
// (k8s.io/apimachinery pkg/api/resource/quantity.go and quantity_test.go
// @ v0.37: "1.5" = 1500m, "1.5Gi" = 1536Mi, ".5", "5.", exponents, nano
// rounding away from zero).
func TestParseQuantity(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // exact rational, "" = error
	}{
		{"0", "0"}, {"1", "1"}, {"100m", "1/10"}, {"1.5", "3/2"}, {"0.5", "1/2"}, {".5", "1/2"}, {"5.", "5"},
		{"+1", "1"}, {"-1", "-1"}, {"007", "7"}, {"1k", "1000"}, {"1M", "1000000"}, {"1G", "1000000000"},
		{"1T", "1000000000000"}, {"1P", "1000000000000000"}, {"1E", "1000000000000000000"},
		{"1Ki", "1024"}, {"1Mi", "1048576"}, {"2Gi", "2147483648"}, {"500Mi", "524288000"}, {"1.5Gi", "1610612736"},
		{"1Ti", "1099511627776"}, {"1Pi", "1125899906842624"}, {"1Ei", "1152921504606846976"},
		{"1e3", "1000"}, {"1E3", "1000"}, {"1e-3", "1/1000"}, {"1e+3", "1000"}, {"1.5e3", "1500"},
		{"1n", "1/1000000000"}, {"1u", "1/1000000"}, {"0.9n", "1/1000000000"}, {"0.1m", "1/10000"},
		// Errors.
		{"", ""}, {"m", ""}, {"Ki", ""}, {".", ""}, {"+", ""}, {"1.2.3", ""}, {"1 Ki", ""}, {"1KiB", ""},
		{"1mi", ""}, {"1K", ""}, {"1e", ""}, {"1e3.5", ""}, {"1k1", ""}, {"1e999", ""}, {"0x10", ""}, {" 1", ""},
	} {
		q, err := ParseQuantity(tc.in)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%q: want an error, got %v", tc.in, q.Rat())
			}
			continue
		}
		want, _ := new(big.Rat).SetString(tc.want)
		if err != nil || q.Rat().Cmp(want) != 0 {
			t.Errorf("%q = %v, %v; want %v", tc.in, q.Rat(), err, want)
		}
	}
}

// TestModelUnits: CPU in millicores rounded up (Quantity.MilliValue);
// memory in MiB, requests rounded up and capacities down; negatives,
// zero capacities and out-of-range values rejected.
func TestModelUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind resourceKind
		want int64
		bad  bool
	}{
		{"100m", cpuRequest, 100, false}, {"1.5", cpuRequest, 1500, false}, {"0.5", cpuRequest, 500, false},
		{"2", cpuRequest, 2000, false}, {"0.1m", cpuRequest, 1, false}, {"1n", cpuRequest, 1, false},
		{"0", cpuRequest, 0, false}, {"24", cpuCapacity, 24000, false}, {"1e-3", cpuRequest, 1, false},
		{"2Gi", memoryRequest, 2048, false}, {"500Mi", memoryRequest, 500, false}, {"1G", memoryRequest, 954, false},
		{"1G", memoryCapacity, 953, false}, {"65910332Ki", memoryCapacity, 64365, false}, {"128974848", memoryRequest, 123, false},
		{"129e6", memoryRequest, 124, false}, {"17Mi", memoryRequest, 17, false},
		{"-100m", cpuRequest, 0, true}, {"0", cpuCapacity, 0, true}, {"1Ki", memoryCapacity, 0, true},
		{"2e9", cpuRequest, 0, true}, {"1Ei", memoryRequest, 0, true},
	} {
		q, err := ParseQuantity(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		got, err := modelValue(q, tc.kind)
		if tc.bad != (err != nil) || got != tc.want {
			t.Errorf("%q (kind %d) = %d, %v; want %d, error %v", tc.in, tc.kind, got, err, tc.want, tc.bad)
		}
	}
}

// TestIntOrPercent: intstr.IntOrString as maxSurge/maxUnavailable take it
// (validation.IsValidPercent ^[0-9]+%$; an int32 ≥ 0) and the rounding of
// GetScaledValueFromIntOrPercent (surge up, unavailable down).
func TestIntOrPercent(t *testing.T) {
	for _, tc := range []struct {
		raw   string
		isStr bool
		want  string
	}{
		{"3", false, "3"}, {"0", false, "0"}, {"25%", true, "25%"}, {"100%", true, "100%"}, {"0%", true, "0%"},
		{"-1", false, ""}, {"1.5", false, ""}, {"25", true, ""}, {"%", true, ""}, {"-5%", true, ""},
		{"5 %", true, ""}, {"abc", true, ""}, {"99999999999", false, ""},
	} {
		got, err := intOrPercent(at{}, "x", IntOrString{Raw: tc.raw, IsStr: tc.isStr, Set: true})
		if (tc.want == "") != (err != nil) || got != tc.want {
			t.Errorf("%q (string %v) = %q, %v; want %q", tc.raw, tc.isStr, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		v     string
		total int
		up    bool
		want  int
	}{{"25%", 5, true, 2}, {"25%", 5, false, 1}, {"25%", 4, true, 1}, {"10%", 1, false, 0}, {"3", 10, true, 3}} {
		if got := resolveIntOrPercent(tc.v, tc.total, tc.up); got != tc.want {
			t.Errorf("%s of %d (up %v) = %d, want %d", tc.v, tc.total, tc.up, got, tc.want)
		}
	}
}

// TestMegaCores: a CPU quantity with M (mega) for m (milli) is too large
// for the model; the error names the likely slip.
func TestMegaCores(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind resourceKind
		hint bool
	}{
		{"500M", cpuRequest, true}, {"64M", cpuCapacity, true}, {"2e9", cpuRequest, false}, {"2000Mi", cpuRequest, false},
	} {
		q, err := ParseQuantity(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		_, err = modelValue(q, tc.kind)
		if err == nil {
			t.Fatalf("%q: want an error", tc.in)
		}
		if got := strings.Contains(err.Error(), "did you mean "+strings.TrimSuffix(tc.in, "M")+"m?"); got != tc.hint {
			t.Errorf("%q: %v; hint %v, want %v", tc.in, err, got, tc.hint)
		}
	}
}

// TestNullQuantity: a quantity written as null (a Helm value left empty)
// is an explicit zero, as resource.Quantity's UnmarshalJSON reads it: it
// is not defaulted from the limit, where a request left out is.
func TestNullQuantity(t *testing.T) {
	for _, tc := range []struct {
		resources string
		cpu       int64
	}{
		{"{requests: {cpu: null, memory: 64Mi}, limits: {cpu: 500m}}", 0},
		{"{requests: {cpu: , memory: 64Mi}, limits: {cpu: 500m}}", 0},
		{"{requests: {memory: 64Mi}, limits: {cpu: 500m}}", 500},
	} {
		r := load(t, webDeployment("      containers: [{name: c, resources: "+tc.resources+"}]\n"))
		if got := r.Cluster.Templates[0].CPU; got != tc.cpu {
			t.Errorf("%s: cpu request %d, want %d", tc.resources, got, tc.cpu)
		}
	}
}
