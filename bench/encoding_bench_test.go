package bench

import (
	"testing"

	"github.com/kivi-go/kivi/model"

	"github.com/kivi-go/kivi/kivitest/script/build"
)

// BenchmarkEncodedState reports the size of one encoded cluster state at
// the model issue's reference size: 20 nodes, 60 running pods of 2
// deployments (target ≤ 256 bytes; Kivi's SPIN state vector is 1.7 KB at
// 10 nodes and 2.7 KB at 20), and the cost of encoding it.
func BenchmarkEncodedState(b *testing.B) {
	mb := build.New()
	mb.AddNodes(20, build.Node().Zone("a"))
	web := mb.AddTemplate(build.Template("web").Requests(8, 8).Label("app", "web"))
	api := mb.AddTemplate(build.Template("api").Requests(4, 4).Label("app", "api"))
	d1 := mb.AddDeployment("web", web, 30)
	d2 := mb.AddDeployment("api", api, 30)
	mb.WithHPA(d1, mb.AddHPA(30, 40, 80))
	for i := 0; i < 30; i++ {
		mb.RunPod(d1, i%20)
		mb.RunPod(d2, (i+7)%20)
	}
	mb.Slots = 60
	u, s, err := mb.Build(0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(encodeLoop(b, u, s))), "bytes")
}

// BenchmarkEncodedRunningCluster reports the size and the cost of one
// encoded state of a running cluster's dump (RunningCluster) at 300
// nodes: its pod slots are encoded with runs (model/podruns.go).
func BenchmarkEncodedRunningCluster(b *testing.B) {
	u, s, err := loadRunningCluster(b, 300).Build()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(encodeLoop(b, u, s))), "bytes")
	b.ReportMetric(float64(len(s.Pods)), "slots")
}

// encodeLoop encodes s for the benchmark's iterations and returns the
// encoding.
func encodeLoop(b *testing.B, u *model.Universe, s *model.State) []byte {
	var buf []byte
	for b.Loop() {
		buf = s.AppendEncoding(u, buf[:0])
	}
	return buf
}
