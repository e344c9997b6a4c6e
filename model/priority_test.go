package model

import "testing"

// TestDeschedulerProtects: the DefaultEvictor protects system-critical
// priorities and, with a threshold, priorities at or above it, unless
// evictSystemCriticalPods (descheduler v0.36 defaultevictor).
func TestDeschedulerProtects(t *testing.T) {
	threshold := int32(1000)
	for _, c := range []struct {
		prio      int32
		critical  bool
		threshold *int32
		evictAll  bool
		want      bool
	}{
		{0, false, nil, false, false},
		{SystemCriticalPriority - 1, false, nil, false, false},
		{SystemCriticalPriority, false, nil, false, true},
		{SystemNodeCriticalPriority, false, nil, true, false},
		{0, true, nil, false, true},
		{999, false, &threshold, false, false},
		{1000, false, &threshold, false, true},
		{1000, false, &threshold, true, false},
	} {
		p := DeschedulerProfile{EvictSystemCriticalPods: c.evictAll, PriorityThreshold: c.threshold}
		if got := p.Protects(&PodTemplate{Priority: c.prio, Critical: c.critical}); got != c.want {
			t.Errorf("%+v: Protects = %v", c, got)
		}
	}
}
