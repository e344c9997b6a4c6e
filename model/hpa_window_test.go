package model_test

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// hpaUniverse is a small universe whose deployments have HPAs with the
// given downscale stabilisation windows (in sync periods).
func hpaUniverse(t interface{ Fatal(...any) }, windows ...int) *model.Universe {
	b := build.New()
	b.AddNodes(2, build.Node())
	tmpl := b.AddTemplate(build.Template("app").Requests(8, 8))
	for i, w := range windows {
		d := b.AddDeployment(string(rune('a'+i)), tmpl, 2)
		h := b.AddHPA(1, 6, 50)
		b.U.HPAs[h-1].ScaleDownStabilizationSyncs = w
		b.WithHPA(d, h)
	}
	b.Slots = 4
	u, _, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestWindowEncodingRoundTrip: with windows the encoding still decodes
// to the state and tells states apart exactly.
func TestWindowEncodingRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var windows []int
		for range rapid.IntRange(1, 3).Draw(t, "deployments") {
			windows = append(windows, rapid.IntRange(0, model.MaxStabilizationSyncs).Draw(t, "window"))
		}
		u := hpaUniverse(t, windows...)
		draw := func() *model.State {
			s := randomState(t, u, 1)
			slots := model.WindowSlots(u)
			for d := range s.Deps {
				ds := &s.Deps[d]
				ds.HPASeen, ds.HPAHeld = rapid.Bool().Draw(t, "seen"), rapid.Bool().Draw(t, "held")
				for k := range slots {
					ds.HPAWindow[k] = int16(rapid.IntRange(0, 300).Draw(t, "rec"))
				}
			}
			return s
		}
		s := draw()
		enc := s.AppendEncoding(u, nil)
		back, err := model.DecodeState(u, 1, enc)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(s, back, cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(model.State{})); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
		other := draw()
		if same := cmp.Equal(s, other, cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(model.State{})); same != (string(enc) == string(other.AppendEncoding(u, nil))) {
			t.Fatalf("equal states %v but equal encodings %v", same, !same)
		}
	})
}

// TestWindowEncodingLayout: a model without a window encodes exactly as
// before the window existed (the golden bytes below predate it); with
// one, each deployment gains its WindowSlots entries and nothing else.
func TestWindowEncodingLayout(t *testing.T) {
	state := func(u *model.Universe) *model.State {
		s := model.NewState(u, 0)
		s.Deps[0] = model.DeploymentState{Active: true, Replicas: 3, HPA: 1, RS: [2]model.ReplicaSetState{{Template: 1, Replicas: 3}}}
		s.Pods[0] = model.PodState{Phase: model.Running, Node: 1, Owner: 1}
		s.Enqueue(model.HPAQueue, 0)
		return s
	}
	off := hpaUniverse(t, 0)
	const golden = "00000001019201100000000000010100060106000000000001000000"
	if got := hex.EncodeToString(state(off).AppendEncoding(off, nil)); got != golden {
		t.Errorf("encoding without a window changed:\n got  %s\n want %s", got, golden)
	}
	on := hpaUniverse(t, 3)
	s := state(on)
	s.Deps[0].HPASeen, s.Deps[0].HPAHeld = true, true
	s.Deps[0].HPAWindow = [model.MaxStabilizationSyncs + 1]int16{2, 0, 3, 200}
	got := hex.EncodeToString(s.AppendEncoding(on, nil))
	// The deployment (flags, hpa, config, replicas, two ReplicaSets)
	// gains seen|held in its flags (01 → 0d) and 4 uvarint slots after
	// its ReplicaSets (2, 0, 3, 200 = c8 01).
	const dep = "01" + "01" + "00" + "06" + "0106" + "0000"
	if strings.Count(golden, dep) != 1 {
		t.Fatalf("deployment bytes %s not found once in %s", dep, golden)
	}
	want := strings.Replace(golden, dep, "0d"+dep[2:]+"020003c801", 1)
	if got != want {
		t.Errorf("encoding with a window:\n got  %s\n want %s", got, want)
	}
}

// TestWindowSlots: no window anywhere gives no slots; otherwise the
// largest window plus the current period.
func TestWindowSlots(t *testing.T) {
	for _, tc := range []struct {
		windows []int
		want    int
	}{{[]int{0}, 0}, {[]int{0, 0}, 0}, {[]int{1}, 2}, {[]int{0, 4, 2}, 5}} {
		if got := model.WindowSlots(hpaUniverse(t, tc.windows...)); got != tc.want {
			t.Errorf("WindowSlots(%v) = %d, want %d", tc.windows, got, tc.want)
		}
	}
}

// TestWindowValidation: Compile accepts 0..MaxStabilizationSyncs.
func TestWindowValidation(t *testing.T) {
	for _, w := range []int{-1, model.MaxStabilizationSyncs + 1} {
		b := build.New()
		b.AddNodes(1, build.Node())
		d := b.AddDeployment("a", b.AddTemplate(build.Template("app").Requests(8, 8)), 1)
		h := b.AddHPA(1, 2, 50)
		b.U.HPAs[h-1].ScaleDownStabilizationSyncs = w
		b.WithHPA(d, h)
		_, _, err := b.Build(0)
		if !errors.Is(err, model.ErrInvalid) || !strings.Contains(err.Error(), "scaleDownStabilizationSyncs") {
			t.Errorf("window %d: error %v, want an ErrInvalid naming scaleDownStabilizationSyncs", w, err)
		}
	}
}
