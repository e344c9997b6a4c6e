package model

import (
	"fmt"
	"sort"
)

// KeyID is an interned label key. Keys are numbered from 0 in order of
// first appearance (Universe.Compile scans nodes, then templates, then
// selectors and topology keys), so the numbering is reproducible.
type KeyID uint16

// ValueID is an interned label value of one key, numbered from 1 in order
// of first appearance; 0 means "the object does not carry the key".
type ValueID uint16

// LabelSet is the compiled label map of an object: entry k is the value of
// key k, 0 when absent. Its length is the number of keys of the Universe.
type LabelSet []ValueID

// Has reports whether the object carries key k.
func (l LabelSet) Has(k KeyID) bool { return int(k) < len(l) && l[k] != 0 }

// Get returns the value of key k, 0 when absent.
func (l LabelSet) Get(k KeyID) ValueID {
	if int(k) < len(l) {
		return l[k]
	}
	return 0
}

// Interner numbers label keys and values.
type Interner struct {
	keys   []string
	keyIDs map[string]KeyID
	values [][]string // values[k][v-1]
	valIDs []map[string]ValueID
}

// Key interns a key name.
func (in *Interner) Key(name string) KeyID {
	if id, ok := in.keyIDs[name]; ok {
		return id
	}
	if in.keyIDs == nil {
		in.keyIDs = map[string]KeyID{}
	}
	id := KeyID(len(in.keys))
	in.keys = append(in.keys, name)
	in.keyIDs[name] = id
	in.values = append(in.values, nil)
	in.valIDs = append(in.valIDs, map[string]ValueID{})
	return id
}

// LookupKey returns the id of a key that was interned, and whether it was.
func (in *Interner) LookupKey(name string) (KeyID, bool) {
	id, ok := in.keyIDs[name]
	return id, ok
}

// Value interns a value of key k.
func (in *Interner) Value(k KeyID, v string) ValueID {
	if id, ok := in.valIDs[k][v]; ok {
		return id
	}
	in.values[k] = append(in.values[k], v)
	id := ValueID(len(in.values[k]))
	in.valIDs[k][v] = id
	return id
}

// LookupValue returns the id of value v of key k, or 0 if v never appeared.
func (in *Interner) LookupValue(k KeyID, v string) ValueID {
	if int(k) >= len(in.valIDs) {
		return 0
	}
	return in.valIDs[k][v]
}

// NumKeys is the number of interned keys.
func (in *Interner) NumKeys() int { return len(in.keys) }

// NumValues is the number of interned values of key k.
func (in *Interner) NumValues(k KeyID) int { return len(in.values[k]) }

// KeyName returns the name of key k.
func (in *Interner) KeyName(k KeyID) string { return in.keys[k] }

// ValueName returns the name of value v of key k ("" for 0).
func (in *Interner) ValueName(k KeyID, v ValueID) string {
	if v == 0 {
		return ""
	}
	return in.values[k][v-1]
}

// Compile turns a label map into a LabelSet, interning keys and values in
// sorted key order (maps have no order of their own).
func (in *Interner) Compile(m map[string]string) LabelSet {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ls := LabelSet{}
	for _, k := range keys {
		id := in.Key(k)
		for len(ls) <= int(id) {
			ls = append(ls, 0)
		}
		ls[id] = in.Value(id, m[k])
	}
	return ls
}

// Operator of a selector requirement, as in Kubernetes label selectors.
type Operator string

const (
	OpIn           Operator = "In"
	OpNotIn        Operator = "NotIn"
	OpExists       Operator = "Exists"
	OpDoesNotExist Operator = "DoesNotExist"
)

// Requirement is one matchExpressions entry.
type Requirement struct {
	Key      string
	Operator Operator
	Values   []string
}

// Selector is a Kubernetes label selector: matchLabels and
// matchExpressions, ANDed. A nil *Selector selects nothing (Kubernetes'
// rule for a nil labelSelector); an empty one selects everything.
type Selector struct {
	MatchLabels      map[string]string
	MatchExpressions []Requirement
}

// Empty reports whether the selector has no requirement.
func (s *Selector) Empty() bool {
	return s != nil && len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0
}

// compiledReq is a requirement over interned ids.
type compiledReq struct {
	key    KeyID
	op     Operator
	values []ValueID
}

// CompiledSelector is a Selector over interned ids.
type CompiledSelector struct {
	nothing bool
	reqs    []compiledReq
}

// Nothing reports whether the selector can match no object (nil selector).
func (c CompiledSelector) Nothing() bool { return c.nothing }

// Empty reports whether the selector matches every object.
func (c CompiledSelector) Empty() bool { return !c.nothing && len(c.reqs) == 0 }

// Matches evaluates the selector on a label set.
func (c CompiledSelector) Matches(ls LabelSet) bool {
	if c.nothing {
		return false
	}
	for _, r := range c.reqs {
		v := ls.Get(r.key)
		switch r.op {
		case OpIn:
			if !containsValue(r.values, v) {
				return false
			}
		case OpNotIn:
			if v != 0 && containsValue(r.values, v) {
				return false
			}
		case OpExists:
			if v == 0 {
				return false
			}
		case OpDoesNotExist:
			if v != 0 {
				return false
			}
		}
	}
	return true
}

func containsValue(vs []ValueID, v ValueID) bool {
	if v == 0 {
		return false
	}
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// compileSelector interns a selector. Values that appear on no object still
// get ids, so they simply never match.
func (in *Interner) compileSelector(s *Selector) (CompiledSelector, error) {
	if s == nil {
		return CompiledSelector{nothing: true}, nil
	}
	var c CompiledSelector
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		id := in.Key(k)
		c.reqs = append(c.reqs, compiledReq{key: id, op: OpIn, values: []ValueID{in.Value(id, s.MatchLabels[k])}})
	}
	for i, r := range s.MatchExpressions {
		id := in.Key(r.Key)
		cr := compiledReq{key: id, op: r.Operator}
		switch r.Operator {
		case OpIn, OpNotIn:
			if len(r.Values) == 0 {
				return c, fmt.Errorf("matchExpressions[%d] (key %q): operator %s needs values: %w", i, r.Key, r.Operator, ErrInvalid)
			}
			for _, v := range r.Values {
				cr.values = append(cr.values, in.Value(id, v))
			}
		case OpExists, OpDoesNotExist:
			if len(r.Values) != 0 {
				return c, fmt.Errorf("matchExpressions[%d] (key %q): operator %s takes no values: %w", i, r.Key, r.Operator, ErrInvalid)
			}
		default:
			return c, fmt.Errorf("matchExpressions[%d] (key %q): unknown operator %q (accepted: In, NotIn, Exists, DoesNotExist): %w", i, r.Key, r.Operator, ErrInvalid)
		}
		c.reqs = append(c.reqs, cr)
	}
	return c, nil
}
