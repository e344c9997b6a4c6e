package manifest

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInput marks every error about an input's content: syntax, kinds,
// fields, values and references between objects.
var ErrInput = errors.New("bad input")

// Error is one problem of an input, located by file, document and field
// path. It wraps ErrInput and, when the model found the problem, the
// model's error too.
type Error struct {
	File string
	// Doc is the 1-based index of the document in a multi-document file
	// (0: the file as a whole).
	Doc int
	// Path is the field path, e.g. "spec.template.spec.containers[0].resources.requests.cpu".
	Path string
	// Object names the object of a List item ("StatefulSet shop/redis"),
	// which its path (items[3]…) alone does not; "" otherwise.
	Object string
	Msg    string
	Err    error
}

func (e *Error) Error() string { return location(e.File, e.Doc, e.Object, e.Path) + e.Msg }

// Unwrap lets errors.Is find ErrInput and the model's sentinel.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInput, e.Err}
	}
	return []error{ErrInput}
}

// Warning is a problem that does not stop the load: a field the model
// does not represent although it can change scheduling or scaling, or a
// field Kubernetes does not know.
type Warning struct {
	File string
	Doc  int
	Path string
	// Object: Error's.
	Object string
	Msg    string
}

func (w Warning) String() string { return location(w.File, w.Doc, w.Object, w.Path) + w.Msg }

func location(file string, doc int, object, path string) string {
	var b strings.Builder
	if file != "" {
		b.WriteString(file)
		b.WriteString(": ")
	}
	switch {
	case doc > 0 && object != "":
		fmt.Fprintf(&b, "document %d (%s): ", doc, object)
	case doc > 0:
		fmt.Fprintf(&b, "document %d: ", doc)
	case object != "":
		fmt.Fprintf(&b, "%s: ", object)
	}
	if path != "" {
		b.WriteString(path)
		b.WriteString(": ")
	}
	return b.String()
}

// at locates errors and warnings in one document.
type at struct {
	file string
	doc  int
	// object names a List item (Error.Object).
	object string
}

func (a at) errorf(path, format string, args ...any) error {
	return &Error{File: a.file, Doc: a.doc, Path: path, Object: a.object, Msg: fmt.Sprintf(format, args...)}
}

func (a at) warning(path, format string, args ...any) Warning {
	return Warning{File: a.file, Doc: a.doc, Path: path, Object: a.object, Msg: fmt.Sprintf(format, args...)}
}

// join appends a field to a path.
func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }
