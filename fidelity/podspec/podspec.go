// Package podspec holds the containers of the pod specs that the
// differential tests of pod admission draw (admissiondiff, quotadiff,
// kubeletadmitdiff): their requests and limits as written, their copies
// and their YAML, the YAML stream of a case's documents, and that stream
// read and built as the model reads manifests.
package podspec

import (
	"fmt"
	"maps"
	"strings"

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/model"
	"sigs.k8s.io/yaml"
)

// Resources maps a resource name (cpu, memory) to a quantity as written;
// an absent name is an absent field, "0" an explicit zero.
type Resources map[string]string

// Container is one container of a pod spec.
type Container struct {
	Requests, Limits Resources
	// Sidecar marks an init container with restartPolicy Always.
	Sidecar bool
}

// Clone returns deep copies of cs.
func Clone(cs []Container) []Container {
	out := make([]Container, len(cs))
	for i, x := range cs {
		out[i] = Container{Requests: maps.Clone(x.Requests), Limits: maps.Clone(x.Limits), Sidecar: x.Sidecar}
	}
	return out
}

// Name names container i of a list whose names take prefix (c for
// containers, i for init containers).
func Name(prefix string, i int) string { return fmt.Sprintf("%s%d", prefix, i) }

// YAML is cs as a pod spec's containers (or initContainers) list, for
// yaml.Marshal: names from prefix, the pause image, the resources written
// and a sidecar's restartPolicy.
func YAML(prefix string, cs []Container) []any {
	var out []any
	for i, x := range cs {
		m := map[string]any{"name": Name(prefix, i), "image": "registry.k8s.io/pause"}
		res := map[string]any{}
		if x.Requests != nil {
			res["requests"] = x.Requests
		}
		if x.Limits != nil {
			res["limits"] = x.Limits
		}
		if len(res) > 0 {
			m["resources"] = res
		}
		if x.Sidecar {
			m["restartPolicy"] = "Always"
		}
		out = append(out, m)
	}
	return out
}

// Stream writes docs as one YAML stream, "---" between documents.
func Stream(docs []any) []byte {
	var b strings.Builder
	for i, d := range docs {
		if i > 0 {
			b.WriteString("---\n")
		}
		y, err := yaml.Marshal(d)
		if err != nil {
			panic(err) // maps of strings, numbers and lists always marshal
		}
		b.Write(y)
	}
	return []byte(b.String())
}

// ReadCase reads a case's YAML stream as `kivi verify -f` reads
// manifests; an error carries the YAML.
func ReadCase(yaml []byte) (*manifest.Result, error) {
	r, err := manifest.LoadStream([]manifest.File{{Name: "case.yaml", Data: yaml}}, nil, nil, manifest.Options{})
	if err != nil {
		return nil, fmt.Errorf("model: %w\n%s", err, yaml)
	}
	return r, nil
}

// BuildCase is ReadCase with the cluster built: its universe and
// initial state.
func BuildCase(yaml []byte) (*manifest.Result, *model.Universe, *model.State, error) {
	r, err := ReadCase(yaml)
	if err != nil {
		return nil, nil, nil, err
	}
	u, s, err := r.Cluster.Build()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("model: build: %w", err)
	}
	return r, u, s, nil
}
