package quotadiff

import (
	"flag"
	"io"
	"os"
	"testing"

	"k8s.io/klog/v2"
)

// TestMain silences klog: the quota admission logs through the
// global logger.
func TestMain(m *testing.M) {
	flag.Parse()
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for k, v := range map[string]string{"logtostderr": "false", "alsologtostderr": "false", "stderrthreshold": "FATAL",
		"legacy_stderr_threshold_behavior": "false"} {
		if f := fs.Lookup(k); f != nil {
			_ = fs.Set(k, v)
		}
	}
	klog.SetOutput(io.Discard)
	os.Exit(m.Run())
}
