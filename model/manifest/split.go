package manifest

import (
	"bytes"
	"strings"
)

// splitDocuments splits a YAML stream at document separators the way
// k8s.io/apimachinery's YAMLReader does: a line starting with "---",
// followed only by spaces or a comment. It returns the parts in order,
// and the 1-based line of a separator followed by anything else (0 if
// none), which Kubernetes rejects.
func splitDocuments(data []byte) (docs [][]byte, badLine int) {
	var cur bytes.Buffer
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, line := range lines {
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, i + 1
			}
			docs = append(docs, bytes.Clone(cur.Bytes()))
			cur.Reset()
			continue
		}
		cur.Write(line)
	}
	docs = append(docs, cur.Bytes())
	return docs, 0
}

// looksLikeJSON reports whether a file is JSON (an object or an array at
// its start), which is decoded directly, without the YAML converter.
func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// isBlank reports whether a file holds no document at all: empty, only
// whitespace, only comments or only separators.
func isBlank(data []byte) bool {
	if looksLikeJSON(data) {
		return false
	}
	parts, bad := splitDocuments(data)
	if bad > 0 {
		return false
	}
	for _, p := range parts {
		js, err := toJSON(p)
		if err != nil || !isNull(js) {
			return false
		}
	}
	return true
}
