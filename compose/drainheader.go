package compose

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// describeDrain says what a drain event does, with the options it has.
func describeDrain(u *model.Universe, e *model.Event) string {
	var names []string
	for _, n := range e.Nodes {
		if n >= 0 && n < len(u.Nodes) {
			names = append(names, u.Nodes[n].Name)
		}
	}
	what := "kubectl drain " + strings.Join(names, ", ")
	if len(names) > 1 {
		what += fmt.Sprintf(", %d at a time", e.Parallel)
	}
	o := e.Drain
	switch {
	case o.DisableEviction:
		what += ", deleting the pods (--disable-eviction)"
	case o.TimeoutRetries > 0:
		what += fmt.Sprintf(", evicting through the PodDisruptionBudgets, giving up after %d retries", o.TimeoutRetries)
	default:
		what += ", evicting through the PodDisruptionBudgets, retrying for ever"
	}
	if o.Force {
		what += ", --force"
	}
	if o.Uncordon {
		what += "; each node is uncordoned once drained"
	}
	return what
}
