package deschedulerdiff

import (
	"os"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// TestMain silences klog: the descheduler logs every refused eviction
// through the global logger.
func TestMain(m *testing.M) {
	classify.SilenceKlog()
	os.Exit(m.Run())
}
