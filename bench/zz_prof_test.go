package bench

import "testing"

func TestZZProf(t *testing.T) {
	rep := verifyAt(t, "c7", 500, false)
	t.Log(rep.Verdict(), rep.Stats)
}
