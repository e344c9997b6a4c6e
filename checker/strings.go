package checker

import "fmt"

func (v Verdict) String() string {
	switch v {
	case Unknown:
		return "unknown"
	case Holds:
		return "holds"
	case Violated:
		return "violated"
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

func (r Reason) String() string {
	switch r {
	case ReasonNone:
		return "none"
	case ReasonTimeout:
		return "timeout"
	case ReasonCancelled:
		return "cancelled"
	case ReasonMemory:
		return "memory budget"
	case ReasonStateBound:
		return "state bound"
	case ReasonDepthBound:
		return "depth bound"
	case ReasonBitstate:
		return "bitstate storage"
	case ReasonHashCompaction:
		return "hash compaction"
	case ReasonStopped:
		return "stopped at another violation"
	case ReasonUnreplayable:
		return "cycle found up to symmetry does not replay concretely"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

func (s Strategy) String() string {
	switch s {
	case BFS:
		return "bfs"
	case DFS:
		return "dfs"
	}
	return fmt.Sprintf("Strategy(%d)", uint8(s))
}

func (s Storage) String() string {
	switch s {
	case Exact:
		return "exact"
	case HashCompaction:
		return "hash-compaction"
	case Bitstate:
		return "bitstate"
	}
	return fmt.Sprintf("Storage(%d)", uint8(s))
}
