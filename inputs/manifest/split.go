package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
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

// document is one document of a file and the number of the file's
// lines before it.
type document struct {
	data []byte
	line int
}

// splitStream splits a file into its documents as kubectl's decoder
// (apimachinery's YAMLOrJSONDecoder) reads them: one JSON text; JSON
// texts one after the other (`kubectl get … -o json` run once per object
// into one file); or a YAML stream, read from the start when the first
// JSON text does not parse (YAML in flow style looks like JSON) and after
// it when the second does not, while a failure past the second is an
// error.
func splitStream(file string, data []byte) ([]document, error) {
	if isJSONText(data) {
		return []document{{data: data}}, nil
	}
	var docs []document
	rest, restLine := data, 0
	if looksLikeJSON(data) {
		dec := json.NewDecoder(bytes.NewReader(data))
		end := 0 // where the last JSON text read ends
		for {
			start := dec.InputOffset()
			var raw json.RawMessage
			err := dec.Decode(&raw)
			if err == io.EOF {
				return docs, nil
			}
			if err != nil {
				if len(docs) > 1 {
					return nil, &Error{File: file, Doc: len(docs) + 1, Msg: fmt.Sprintf("not valid JSON: %v", err)}
				}
				break
			}
			docs = append(docs, document{data: raw, line: bytes.Count(data[:start], []byte("\n"))})
			end = int(dec.InputOffset())
		}
		if len(docs) == 1 {
			// kubectl reads on as YAML after the first JSON text, past
			// the white space that follows it up to the end of its line.
			for end < len(data) && unicode.IsSpace(rune(data[end])) {
				end++
				if data[end-1] == '\n' {
					break
				}
			}
			rest, restLine = data[end:], bytes.Count(data[:end], []byte("\n"))
		} else {
			docs = nil
		}
	}
	parts, bad := splitDocuments(rest)
	if bad > 0 {
		return nil, &Error{File: file, Msg: fmt.Sprintf("line %d: a document separator \"---\" may only be followed by spaces or a comment", restLine+bad)}
	}
	line := restLine
	for _, p := range parts {
		docs = append(docs, document{data: p, line: line})
		line += bytes.Count(p, []byte("\n")) + 1 // the part's lines and the separator's
	}
	return docs, nil
}
