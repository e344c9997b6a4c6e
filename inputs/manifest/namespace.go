package manifest

import (
	"regexp"

	"github.com/kivi-go/kivi/model"
)

// Namespace is the part of a v1 Namespace the model reads: its name and
// labels, which inter-pod affinity terms' namespaceSelector select by.
type Namespace struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
}

// namespaceRE is a DNS-1123 label, the syntax of a namespace name.
var namespaceRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// validNamespace reports whether ns is a namespace name the API server
// accepts.
func validNamespace(ns string) bool { return len(ns) <= 63 && namespaceRE.MatchString(ns) }

// namespaceDecls reads the Namespace objects among objs.
func namespaceDecls(objs []Object) ([]model.NamespaceDecl, error) {
	var out []model.NamespaceDecl
	seen := firstSeen{}
	for _, o := range objs {
		n, ok := o.Value.(*Namespace)
		if !ok {
			continue
		}
		a := o.at()
		if !validNamespace(n.Metadata.Name) {
			return nil, a.errorf(o.path("metadata.name"), "%q is not a namespace name (accepted: lower-case letters, digits and '-', at most 63 characters, alphanumeric at both ends)", n.Metadata.Name)
		}
		if err := seen.add(o, "Namespace", n.Metadata.Name, "name"); err != nil {
			return nil, err
		}
		if err := checkNodeLabels(o, n.Metadata.Labels); err != nil {
			return nil, err
		}
		out = append(out, model.NamespaceDecl{Name: n.Metadata.Name, Labels: n.Metadata.Labels})
	}
	return out, nil
}
