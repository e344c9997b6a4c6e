package scaling

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrShard marks bad shard specifications and shard sets that cannot be
// merged.
var ErrShard = errors.New("shard error")

// ShardMode is how a setup list is cut into shards.
type ShardMode uint8

const (
	// Interleaved gives shard K the setups K, K+N, K+2N, … (0-based). It
	// is the default: every shard starts with the small setups, where a
	// minimal failure is likely, and the growing cost of later setups is
	// spread evenly.
	Interleaved ShardMode = iota
	// Contiguous gives shard K one block of consecutive setups, sizes
	// differing by at most one; useful when shards should stop early
	// independently (a shard whose block lies past a known failure can be
	// skipped).
	Contiguous
)

func (m ShardMode) String() string {
	if m == Contiguous {
		return "contiguous"
	}
	return "interleaved"
}

// ParseShardMode parses "interleaved" (or "") and "contiguous".
func ParseShardMode(s string) (ShardMode, error) {
	switch s {
	case "", "interleaved":
		return Interleaved, nil
	case "contiguous":
		return Contiguous, nil
	}
	return 0, fmt.Errorf("shard mode %q (accepted: interleaved, contiguous): %w", s, ErrShard)
}

// Shard is the K-th of N slices of a setup list, K 0-based so that a
// Kubernetes Indexed Job's JOB_COMPLETION_INDEX can be used as is.
type Shard struct {
	K, N int
	Mode ShardMode
}

// ParseShard parses the CLI's --shard K/N (0 ≤ K < N).
func ParseShard(s string, mode ShardMode) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(ks))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q (accepted: K/N with 0 ≤ K < N, e.g. 0/4): %w", s, ErrShard)
	}
	sh := Shard{K: k, N: n, Mode: mode}
	return sh, sh.Validate()
}

// Validate checks 0 ≤ K < N.
func (s Shard) Validate() error {
	if s.N < 1 || s.K < 0 || s.K >= s.N {
		return fmt.Errorf("shard %d/%d (accepted: 0 ≤ K < N): %w", s.K, s.N, ErrShard)
	}
	if s.Mode > Contiguous {
		return fmt.Errorf("shard mode %d: %w", s.Mode, ErrShard)
	}
	return nil
}

func (s Shard) String() string { return strconv.Itoa(s.K) + "/" + strconv.Itoa(s.N) }

// Indices returns the positions, in a list of total setups, that belong
// to the shard, in increasing order. The shards of one N partition the
// list.
func (s Shard) Indices(total int) []int {
	var out []int
	switch s.Mode {
	case Contiguous:
		for i := s.K * total / s.N; i < (s.K+1)*total/s.N; i++ {
			out = append(out, i)
		}
	default:
		for i := s.K; i < total; i += s.N {
			out = append(out, i)
		}
	}
	return out
}

// RunShard searches the shard's slice of setups (the whole, identical
// list every shard enumerates) and returns its ShardResult. Without
// opts.All the shard stops at its own first failure; Merge then keeps the
// global minimum.
func RunShard(ctx context.Context, setups []Setup, shard Shard, verify VerifyFunc, opts Options) (ShardResult, error) {
	if err := shard.Validate(); err != nil {
		return ShardResult{}, err
	}
	r, err := search(ctx, setups, shard.Indices(len(setups)), verify, opts)
	sr := ShardResult{Version: ShardFormatVersion, ListHash: ListHash(setups), Total: len(setups),
		Shard: shard, All: opts.All, Interrupted: r.Interrupted, Elapsed: r.Elapsed, Setups: r.Setups}
	return sr, err
}
