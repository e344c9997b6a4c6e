package cases

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// ErrUnknownCase and ErrBadScale mark the errors of Get.
var (
	ErrUnknownCase = errors.New("unknown case")
	ErrBadScale    = errors.New("bad scale")
)

// DefaultScale is Kivi's default -s.
const DefaultScale = 3

// ExpectNone is the Expect of the no-violation variants.
const ExpectNone = "none"

// Info describes one built-in case.
type Info struct {
	// ID is the CLI name (c1..c8); KiviID is Kivi's internal id.
	ID, KiviID string
	// Title is a one-line description.
	Title string
	// Expect is the user name of the intent the original topology
	// violates (the no-violation variant expects ExpectNone).
	Expect string
	// Scenario explains the case in two lines; NoViolation says what the
	// no-violation variant changes.
	Scenario    []string
	NoViolation string

	generate func(s int, noViolation bool) *model.Cluster
}

// List returns the built-in cases in order.
func List() []Info {
	return []Info{c1Info(), c2Info(), c3Info(), c4Info(), c5Info(), c6Info(), c7Info(), c8Info()}
}

// Names returns the accepted case names.
func Names() []string {
	var out []string
	for _, in := range List() {
		out = append(out, in.ID)
	}
	return out
}

// Get generates case name ("c1".."c8", lower case only, as Kivi's -c) at
// scale s ≥ 1; noViolation selects the -cn variant.
func Get(name string, scale int, noViolation bool) (*model.Cluster, error) {
	for _, in := range List() {
		if in.ID != name {
			continue
		}
		if scale < 1 {
			return nil, fmt.Errorf("case %s: scale %d: %w (accepted: an integer ≥ 1, default %d)", name, scale, ErrBadScale, DefaultScale)
		}
		c := in.generate(scale, noViolation)
		// Kivi's cases are written against its `hostname` alias (C3, C6
		// and C8 spread by it).
		c.KiviHostnameAlias = true
		// Their verdicts are Kivi's, reached through its pod lifecycle
		// (docs/divergences.md, "Verdicts of the built-in cases").
		c.KiviLifecycle = true
		c.Name = FileName(name, noViolation)
		c.Description = in.Title
		c.Expect = in.Expect
		if noViolation {
			c.Description += " — no-violation variant, " + in.NoViolation
			c.Expect = ExpectNone
		}
		return c, nil
	}
	return nil, fmt.Errorf("case %q: %w (accepted: %s)", name, ErrUnknownCase, strings.Join(Names(), ", "))
}

// FileName is the base name of a case's example file (without .yaml).
func FileName(name string, noViolation bool) string {
	if noViolation {
		return name + "-no-violation"
	}
	return name
}
