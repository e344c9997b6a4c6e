package casefile

import (
	"errors"
	"fmt"
)

// ErrBadCase marks every error about a case file's content: syntax,
// unknown or mistyped fields, dangling references, out-of-range values.
var ErrBadCase = errors.New("bad case file")

// Error is one problem of a case file, at a field path (empty for the
// whole file). It wraps ErrBadCase and, when the problem was found by
// model.Cluster.Build, the model's error too.
type Error struct {
	File string
	// Path is the field path, e.g. "nodeTypes[0].taints[1].effect".
	Path string
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Path, e.Msg)
}

// Unwrap lets errors.Is find ErrBadCase and the model's sentinel.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrBadCase, e.Err}
	}
	return []error{ErrBadCase}
}
