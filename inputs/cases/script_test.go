package cases_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script"
)

// TestScript runs testdata/*.txt (kivitest/script): `case <id>
// scale=<scale> [no-violation]` builds the case's original topology and
// prints what Kivi's case definitions specifies (node labels and taints, templates, the
// deployment and its search bounds, events, intents) followed by the
// initial state.
func TestScript(t *testing.T) { script.Run(t, "testdata") }
