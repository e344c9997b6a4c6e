package quotadiff

import (
	"flag"
	"os"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// TestMain silences klog: the quota admission logs through the
// global logger.
func TestMain(m *testing.M) {
	flag.Parse()
	classify.SilenceKlog()
	os.Exit(m.Run())
}
