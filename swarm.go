package kivi

import (
	"io"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/report"
)

// Swarm is what one shard of a swarm did (Problem.SwarmShard): shard K
// of N ran seeded depth-first searches of one topology with the seeds
// K+1, K+1+N, …; docs/distributed.md.
type Swarm = report.Swarm

// ErrSwarmBound marks a swarm shard asked to run without a timeout or a
// state budget.
var ErrSwarmBound = compose.ErrSwarmBound

// SwarmSeed is the seed of the i-th search (from 0) of shard k of n.
func SwarmSeed(k, n, i int) uint64 { return compose.SwarmSeed(k, n, i) }

// SwarmShardJSON is the JSON document of one swarm shard (mode "shard",
// shard.mode "swarm"), which kivi merge reads back (ReadSwarmShard).
func SwarmShardJSON(name string, s *Swarm, warnings []JSONWarning) JSONReport {
	return report.SwarmShardJSON(name, s, warnings)
}

// IsSwarmShard reports whether data is a swarm shard document rather
// than a scaling-search shard.
func IsSwarmShard(data []byte) bool { return report.IsSwarmShard(data) }

// ReadSwarmShard reads a swarm shard document back for merging.
func ReadSwarmShard(data []byte) (JSONReport, error) { return report.ReadSwarmShard(data) }

// MergeSwarm merges the N shards of one swarm into one document (mode
// "merge"): an intent is violated if a shard found it violated (the
// shortest counterexample, with its shard and seed), holds only if a
// shard's search explored everything, and is unknown otherwise.
func MergeSwarm(shards ...JSONReport) (JSONReport, error) { return report.MergeSwarm(shards...) }

// WriteSwarm writes a merged swarm for people; repeat is the command
// that verifies the input, to which `--strategy dfs --seed S` repeats a
// violation's search.
func WriteSwarm(w io.Writer, doc JSONReport, repeat string) { report.WriteSwarm(w, doc, repeat) }
