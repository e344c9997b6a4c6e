package model

import "maps"

// NodeNameField is the key under which a node selector requirement reads
// a node's name instead of one of its labels: a node affinity term's
// matchFields on metadata.name, the only field a node selector may read
// (the API server refuses any other). It is not a label key (a label key
// has no colon), so no label is ever read as the name. Every node's
// LabelSet carries it (Compile); the label maps the model keeps for
// display and for the symmetry analysis do not, so a node's name tells
// nodes apart only through the NodeFit of a template that names it.
const NodeNameField = "field:metadata.name"

// DNSSubdomain reports whether s is a DNS subdomain (RFC 1123: lower case
// alphanumerics, '-' and '.', alphanumeric at both ends, at most 253
// characters), the syntax of a node's name.
func DNSSubdomain(s string) bool {
	return len(s) <= 253 && labelPrefixRE.MatchString(s)
}

// WithNodeName returns a copy of a node's labels that also carries its
// name under NodeNameField, the map a node selector with matchFields is
// evaluated on (Selector.MatchesLabels). An empty name (a node type of
// the scaling search, which has none) adds nothing.
func WithNodeName(name string, labels map[string]string) map[string]string {
	out := maps.Clone(labels)
	if name == "" {
		return out
	}
	if out == nil {
		out = map[string]string{}
	}
	out[NodeNameField] = name
	return out
}
