package manifest

import (
	"strings"
)

// warnFractionalBytes warns, as the API server does (pkg/api/pod
// warnings.go), about a container's memory or ephemeral-storage written
// as a fraction of a byte: "512m" is 0.512 bytes, not 512 MiB, a slip
// the API server accepts with a warning and the scheduler then counts
// as next to nothing. The quantity is read as written (rounded up to the
// model's unit); a malformed one is left to the reading that follows.
func (tc templateConv) warnFractionalBytes(path string, c Container) {
	for _, f := range []struct {
		field string
		m     map[string]QuantityText
	}{{"requests", c.Resources.Requests}, {"limits", c.Resources.Limits}} {
		for _, name := range []string{"memory", "ephemeral-storage"} {
			t, ok := f.m[name]
			if !ok {
				continue
			}
			q, err := t.Parse()
			if err != nil || q.Rat().IsInt() {
				continue
			}
			hint := ""
			if strings.HasSuffix(t.Text, "m") {
				hint = "; the suffix m means thousandths of a byte: did you mean " + strings.TrimSuffix(t.Text, "m") + "Mi?"
			}
			tc.warn(path+".resources."+f.field+"."+name, "fractional byte value %q: a fraction of a byte, which the API server accepts with a warning that it must be an integer, read as written%s", t.Text, hint)
		}
	}
}
