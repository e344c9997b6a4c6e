package kubeletadmitdiff

import (
	"os"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// TestMain silences klog: the kubelet's admit handlers and eviction
// manager log through the global logger.
func TestMain(m *testing.M) {
	classify.SilenceKlog()
	os.Exit(m.Run())
}
