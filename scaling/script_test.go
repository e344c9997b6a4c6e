package scaling_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script"
)

// TestEnumerationScript runs the golden script of the enumeration,
// testdata/enumerate.txt (kivitest/script's enumerate-setups: the total
// and the setups from..to, 1-based as Kivi counts them).
func TestEnumerationScript(t *testing.T) { script.Run(t, "testdata") }
