package model_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestQuotaCountsPodObjects: count/pods counts every pod object, a
// Terminating one too (PodUsageFunc), where pods counts only the pods
// that are not terminal and, in the model, not terminating.
func TestQuotaCountsPodObjects(t *testing.T) {
	for _, c := range []struct {
		name    string
		refused bool
	}{{"count/pods", true}, {"pods", false}} {
		b := build.New()
		b.AddNodes(1, build.Node())
		tmpl := b.AddTemplate(build.Template("web").Requests(1, 1))
		d := b.AddDeployment("web", tmpl, 2)
		b.RunPod(d, 0).RunPod(d, 0)
		u, s, err := b.Build(0)
		if err != nil {
			t.Fatal(err)
		}
		u.ResourceQuotas = []model.ResourceQuota{{Name: "q", Hard: map[string]int64{c.name: 2}}}
		s.MarkTerminating(0)
		msg, refused := u.QuotaRefusal(s, 0)
		if refused != c.refused {
			t.Errorf("%s: refused %v (%q), want %v", c.name, refused, msg, c.refused)
		}
		if refused && !strings.Contains(msg, "used: count/pods=2") {
			t.Errorf("%s: message %q", c.name, msg)
		}
	}
}
