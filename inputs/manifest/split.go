package manifest

import (
	"bytes"
	"encoding/json"
	"strings"
)

// splitDocuments splits a YAML stream at document separators the way
// k8s.io/apimachinery's YAMLReader does: a line starting with "---",
// followed only by spaces or a comment. It returns the parts in order,
// and the 1-based line of a separator followed by anything else (0 if
// none), which Kubernetes rejects.
func splitDocuments(data []byte) (docs [][]byte, badLine int) {
	// Documents are sub-slices of data, found line by line without
	// copying: a 50 MB stream must not cost several times its size.
	start, line := 0, 0
	for pos := 0; pos < len(data); {
		end := len(data)
		if nl := bytes.IndexByte(data[pos:], '\n'); nl >= 0 {
			end = pos + nl + 1
		}
		line++
		if l := data[pos:end]; bytes.HasPrefix(l, []byte("---")) {
			rest := strings.TrimSpace(string(l[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, line
			}
			docs = append(docs, data[start:pos:pos])
			start = end
		}
		pos = end
	}
	docs = append(docs, data[start:len(data):len(data)])
	return docs, 0
}

// looksLikeJSON reports whether a file is JSON (an object or an array at
// its start), which is decoded directly, without the YAML converter.
func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// isJSONText reports whether a file is one JSON text. One that only
// starts like JSON is read as a YAML stream, as kubectl reads it: YAML in
// flow style looks like JSON without being JSON.
func isJSONText(data []byte) bool {
	return looksLikeJSON(data) && json.Valid(data)
}

// isBlank reports whether a file holds no document at all: empty, only
// whitespace, only comments or only separators.
func isBlank(data []byte) bool {
	if isJSONText(data) {
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
