package manifest

import (
	"bytes"
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// Quantity is a Kubernetes resource quantity (k8s.io/apimachinery
// pkg/api/resource.Quantity), kept as an exact rational number. Only the
// value matters to the model, not the format it was written in.
type Quantity struct {
	v *big.Rat
	// Text is the quantity as written.
	Text string
}

// quantityGrammar is what every quantity error message quotes.
const quantityGrammar = "a Kubernetes quantity: a decimal number with an optional suffix n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent e3, as in 100m, 1.5, 2Gi, 500Mi, 1e3"

// maxExponent bounds decimal exponents: Kubernetes accepts any int32 but
// nothing beyond ±10^40 can fit the model, and the bound keeps parsing
// cheap on hostile inputs.
const maxExponent = 40

var errQuantity = errors.New("not a quantity")

// ParseQuantity parses s by the rules of resource.ParseQuantity:
//
//	<quantity>        ::= <signedNumber><suffix>
//	<number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
//	<suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
//	<binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
//	<decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
//	<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
//
// and, like Kubernetes, rounds a non-zero value away from zero to a whole
// number of nano units. Kubernetes' scanner also accepts a lone sign or
// dot ("+", "-", ".") as zero; those are rejected here because nobody
// means them.
func ParseQuantity(s string) (Quantity, error) {
	if s == "" {
		return Quantity{}, errQuantity
	}
	pos := 0
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		pos++
	}
	start := pos
	for pos < len(s) && isDigit(s[pos]) {
		pos++
	}
	intPart := s[start:pos]
	frac := ""
	if pos < len(s) && s[pos] == '.' {
		pos++
		fs := pos
		for pos < len(s) && isDigit(s[pos]) {
			pos++
		}
		frac = s[fs:pos]
	}
	if intPart == "" && frac == "" {
		return Quantity{}, errQuantity
	}
	mult, ok := suffixValue(s[pos:])
	if !ok {
		return Quantity{}, errQuantity
	}
	num, _ := new(big.Int).SetString(strings.TrimLeft(intPart+frac, "0")+"0", 10)
	num.Quo(num, big.NewInt(10)) // the appended "0" keeps SetString happy on "".
	v := new(big.Rat).SetFrac(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil))
	v.Mul(v, mult)
	v = roundAwayToNano(v)
	if neg {
		v.Neg(v)
	}
	return Quantity{v: v, Text: s}, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var binarySuffixes = map[string]uint{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

var decimalSuffixes = map[string]int64{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

// suffixValue returns the multiplier a suffix stands for.
func suffixValue(suf string) (*big.Rat, bool) {
	if e, ok := decimalSuffixes[suf]; ok {
		return pow10(e), true
	}
	if b, ok := binarySuffixes[suf]; ok {
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), b)), true
	}
	if len(suf) > 1 && (suf[0] == 'e' || suf[0] == 'E') {
		digits := suf[1:]
		if digits[0] == '+' || digits[0] == '-' {
			digits = digits[1:]
		}
		if digits == "" || strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			return nil, false
		}
		e, err := strconv.ParseInt(suf[1:], 10, 64)
		if err != nil || e > maxExponent || e < -maxExponent {
			return nil, false
		}
		return pow10(e), true
	}
	return nil, false
}

func pow10(e int64) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(e)), nil)
	if e < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// roundAwayToNano rounds a non-negative value up to a multiple of 10^-9.
func roundAwayToNano(v *big.Rat) *big.Rat {
	nano := new(big.Rat).Mul(v, pow10(9))
	if nano.IsInt() {
		return v
	}
	q := ceilRat(nano)
	return new(big.Rat).SetFrac(q, new(big.Int).Exp(big.NewInt(10), big.NewInt(9), nil))
}

// ceilRat is ⌈r⌉ for any sign.
func ceilRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// floorRat is ⌊r⌋ for any sign.
func floorRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() < 0 {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

// Sign is −1, 0 or +1.
func (q Quantity) Sign() int {
	if q.v == nil {
		return 0
	}
	return q.v.Sign()
}

// Rat returns the exact value.
func (q Quantity) Rat() *big.Rat {
	if q.v == nil {
		return new(big.Rat)
	}
	return new(big.Rat).Set(q.v)
}

// Scaled returns the value in units of unit (a positive number), rounded
// up or down; ok is false when it does not fit an int64.
func (q Quantity) Scaled(unit *big.Rat, up bool) (int64, bool) {
	r := new(big.Rat).Quo(q.Rat(), unit)
	var n *big.Int
	if up {
		n = ceilRat(r)
	} else {
		n = floorRat(r)
	}
	if !n.IsInt64() {
		return 0, false
	}
	return n.Int64(), true
}

// QuantityText is a quantity as decoded from JSON: a string or a bare
// number, as resource.Quantity.UnmarshalJSON accepts. Decoding never
// fails, so that the parse error can name the field path; Parse does the
// checking.
type QuantityText struct {
	Text string
	// NotScalar is set when the JSON value was neither a string nor a
	// number (an object, an array, a boolean).
	NotScalar bool
}

// UnmarshalJSON keeps the text (quotes removed, spaces trimmed). A null
// is a zero, as resource.Quantity's UnmarshalJSON reads it: a Helm value
// left empty (`cpu:` with nothing after it) is an explicit zero request,
// not a malformed one. (A pointer field stays nil for null, as
// *resource.Quantity does.)
func (q *QuantityText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*q = QuantityText{Text: "0"}
	case len(b) >= 2 && b[0] == '"':
		u, err := strconv.Unquote(string(b))
		if err != nil {
			*q = QuantityText{Text: string(b), NotScalar: true}
			return nil
		}
		*q = QuantityText{Text: strings.TrimSpace(u)}
	case len(b) > 0 && (b[0] == '-' || isDigit(b[0])):
		*q = QuantityText{Text: string(b)}
	default:
		*q = QuantityText{Text: string(b), NotScalar: true}
	}
	return nil
}

// Parse parses the text (see ParseQuantity).
func (q QuantityText) Parse() (Quantity, error) {
	if q.NotScalar {
		return Quantity{}, errQuantity
	}
	return ParseQuantity(q.Text)
}
