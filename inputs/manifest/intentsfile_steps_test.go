package manifest

import "testing"

// TestCPUSteps: a CPU change explores at most six evenly spaced amounts,
// never more than the largest asked for, down to one millicore.
func TestCPUSteps(t *testing.T) {
	for _, tc := range []struct{ largest, steps, unit int }{
		{0, 1, 1}, {1, 1, 1}, {6, 6, 1}, {7, 6, 1}, {10, 5, 2}, {750, 6, 125}, {751, 6, 125}, {755, 6, 125}, {11, 5, 2},
	} {
		steps, unit := cpuSteps(tc.largest)
		if steps != tc.steps || unit != tc.unit {
			t.Errorf("cpuSteps(%d) = %d×%d, want %d×%d", tc.largest, steps, unit, tc.steps, tc.unit)
		}
		if steps < 1 || steps > cpuChangeSteps || steps*unit > max(tc.largest, 1) {
			t.Errorf("cpuSteps(%d) = %d×%d: out of bounds", tc.largest, steps, unit)
		}
	}
}
