package classify

import (
	"maps"
	"slices"
	"sync"
	"testing"
)

// Counter counts a differential test's outcomes by name; rapid may run
// checks concurrently, so Add locks. The zero value is ready.
type Counter struct {
	mu sync.Mutex
	m  map[string]int
}

// Add counts one outcome named k.
func (c *Counter) Add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int{}
	}
	c.m[k]++
}

// Log logs every outcome with its count, sorted by name, the counts in
// one column.
func (c *Counter) Log(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	width := 0
	for k := range c.m {
		width = max(width, len(k))
	}
	for _, k := range slices.Sorted(maps.Keys(c.m)) {
		t.Logf("%-*s %d", width, k, c.m[k])
	}
}
