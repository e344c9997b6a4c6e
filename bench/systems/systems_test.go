package systems

import (
	"context"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// wantStates are the reachable state counts of each model. Every figure
// was checked equal to SPIN 6.5.2's "states, stored" on the Promela twin
// (spin -a; gcc -DSAFETY -DNOREDUCE; ./pan), on 2026-11-22, and SPIN's
// multi-core mode agreed; the philosophers' also equal trace(M^N) (see
// Philosophers). Also checked then, too slow to keep here: philosophers
// 17 = 3215042, filter 6 = 1827936, spread 6 = 1868173.
var wantStates = map[string]map[int]int64{
	"philosophers": {3: 14, 5: 82, 10: 6726, 12: 39202, 14: 228486, 15: 551614},
	"filter":       {2: 20, 3: 288, 4: 4752, 5: 88560},
	"spread":       {3: 499, 4: 12157},
	"dedup":        {3: 178, 4: 1999, 6: 502496},
}

func TestStateCounts(t *testing.T) {
	for _, m := range Models() {
		for n, want := range wantStates[m.Name] {
			t.Run(fmt.Sprintf("%s/%d", m.Name, n), func(t *testing.T) {
				if testing.Short() && want > 100000 {
					t.Skip("large in -short")
				}
				res, err := checker.Check(context.Background(), m.New(n), checker.Properties[State]{}, checker.Options{Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Stats.States; got != want {
					t.Errorf("%s N=%d: %d states, want %d (SPIN's count)", m.Name, n, got, want)
				}
			})
		}
	}
}
