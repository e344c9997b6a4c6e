package classify

import (
	"flag"
	"io"

	"k8s.io/klog/v2"
)

// SilenceKlog discards what the real controllers log through klog's
// global logger, for a test binary's TestMain: thousands of cases would
// otherwise bury the test's own output.
func SilenceKlog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for k, v := range map[string]string{"logtostderr": "false", "alsologtostderr": "false", "stderrthreshold": "FATAL",
		"legacy_stderr_threshold_behavior": "false"} {
		if f := fs.Lookup(k); f != nil {
			_ = fs.Set(k, v)
		}
	}
	klog.SetOutput(io.Discard)
}
