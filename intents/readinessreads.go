package intents

// ReadinessReader is implemented by the monitors (Watch) that read the
// readiness of the pods of known deployments only: partial-order
// reduction (reduction/por) then knows that a step changing only the
// readiness of other deployments' pods leaves the monitor as it is. A
// monitor that does not implement it is taken to read every pod's.
type ReadinessReader interface {
	// ReadsReadinessOf returns the deployments (indices) whose pods'
	// readiness Observe reads.
	ReadsReadinessOf() []int
}

// The replica monitors read the replicas of their deployment (replicas:
// its Ready pods) and, besides, no pod's readiness; the eviction counter
// reads the step's marks only.
var (
	_ ReadinessReader = oscillationWatch{}
	_ ReadinessReader = minWatch{}
	_ ReadinessReader = expWatch{}
	_ ReadinessReader = balanceWatch{}
	_ ReadinessReader = evictionCounter{}
	_ ReadinessReader = rolloutWatch{}
	_ ReadinessReader = jobWatch{}
)

// ReadsReadinessOf: deployment d's replicas.
func (w oscillationWatch) ReadsReadinessOf() []int { return []int{w.d} }

// ReadsReadinessOf: deployment d's replicas.
func (w minWatch) ReadsReadinessOf() []int { return []int{w.d} }

// ReadsReadinessOf: deployment d's replicas.
func (w expWatch) ReadsReadinessOf() []int { return []int{w.d} }

// ReadsReadinessOf: deployment d's replicas and whether a pod of d is
// still to become Ready or Available (settled); the skew counts Running
// pods whatever their readiness.
func (w balanceWatch) ReadsReadinessOf() []int { return []int{w.d} }

// ReadsReadinessOf: none, the marks only.
func (evictionCounter) ReadsReadinessOf() []int { return nil }

// ReadsReadinessOf: none (Observe reads nothing).
func (rolloutWatch) ReadsReadinessOf() []int { return nil }

// ReadsReadinessOf: none (Observe reads nothing).
func (jobWatch) ReadsReadinessOf() []int { return nil }
