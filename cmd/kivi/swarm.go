package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/scaling"
)

// runSwarm runs shard K of a swarm of N over one topology (--shard K/N
// with --original, manifests, a configuration or logs) and writes its
// shard document, which kivi merge reads back with the other shards'.
// Like a scaling shard it exits 0 once the document is written: the
// verdict is the merge's.
//
// set names the flags given explicitly.
func runSwarm(ctx context.Context, c *kivi.Cluster, opts kivi.Options, sf scalingFlags, set map[string]bool, stdout, stderr io.Writer, warnings []kivi.JSONWarning) int {
	co := opts.Checker
	switch {
	case set["shard-mode"]:
		return inputError(stderr, fmt.Errorf("--shard-mode %s: a swarm shard of one topology runs seeds, not a slice of setups (accepted: --shard-mode with the scaling search only): %w", sf.shardMode, errUsage))
	case set["seed"]:
		return inputError(stderr, fmt.Errorf("--seed with --shard: shard K of N runs the seeds K+1, K+1+N, … (accepted: --seed with --strategy dfs and no --shard): %w", errUsage))
	case set["strategy"] && co.Strategy != kivi.DFS:
		return inputError(stderr, fmt.Errorf("--strategy bfs with --shard: a swarm shard runs seeded depth-first searches (accepted: --strategy dfs, or no --strategy): %w", errUsage))
	case co.Timeout == 0 && co.MaxStates == 0:
		return inputError(stderr, fmt.Errorf("--shard %s of one topology runs a swarm of seeded searches that never runs out of seeds: it needs a bound (accepted: --shard K/N --timeout D, e.g. --timeout 30m, or --max-states N): %w", sf.shard, errUsage))
	}
	sh, err := scaling.ParseShard(sf.shard, scaling.Interleaved)
	if err != nil {
		return inputError(stderr, fmt.Errorf("--shard: %w", err))
	}
	// Searches run side by side: one status line would be theirs mixed.
	co.OnProgress = nil
	var sw *kivi.Swarm
	p, err := kivi.NewProblem(c, opts)
	switch {
	case errors.Is(err, kivi.ErrModelBound):
		// Too large for the model: every shard says so, and the merge.
		sum := sha256.Sum256([]byte(err.Error()))
		sw = &kivi.Swarm{K: sh.K, N: sh.N, All: co.CollectAll, Fingerprint: "model-bound:" + hex.EncodeToString(sum[:]),
			Report: kivi.BoundReport(c, err)}
	case err != nil:
		return inputError(stderr, err)
	default:
		if sw, err = p.SwarmShard(ctx, co, sh.K, sh.N); err != nil {
			fmt.Fprintf(stderr, "kivi: %v\n", err)
			return exitInput
		}
	}
	return writeShard(kivi.SwarmShardJSON(c.Name, sw, warnings), sf.shardOut, stdout, stderr)
}

// writeShard writes a shard document to file, or to stdout when file
// is "".
func writeShard(doc kivi.JSONReport, file string, stdout, stderr io.Writer) int {
	w := stdout
	if file != "" {
		f, err := os.Create(file)
		if err != nil {
			return inputError(stderr, err)
		}
		defer f.Close()
		w = f
	}
	if err := doc.WriteJSON(w); err != nil {
		fmt.Fprintf(stderr, "kivi: %v\n", err)
		return exitInput
	}
	return exitHolds
}

// mergeSwarm merges swarm shard files (kivi merge when the first file is
// a swarm shard): datas are the files' contents, in the order given.
func mergeSwarm(files []string, datas [][]byte, jsonOut bool, stdout, stderr io.Writer) int {
	var shards []kivi.JSONReport
	for i, data := range datas {
		if !kivi.IsSwarmShard(data) {
			return inputError(stderr, fmt.Errorf("%s: not a swarm shard, but %s is one (accepted: the shards of one swarm, or of one scaling search): %w", files[i], files[0], scaling.ErrShard))
		}
		doc, err := kivi.ReadSwarmShard(data)
		if err != nil {
			return inputError(stderr, fmt.Errorf("%s: %w", files[i], err))
		}
		shards = append(shards, doc)
	}
	doc, err := kivi.MergeSwarm(shards...)
	if err != nil {
		return inputError(stderr, err)
	}
	if jsonOut {
		_ = doc.WriteJSON(stdout)
	} else {
		kivi.WriteSwarm(stdout, doc, "kivi verify <the shards' input and options>")
	}
	switch doc.Verdict {
	case kivi.Violated.String():
		return exitViolated
	case kivi.Unknown.String():
		return exitUnknown
	}
	return exitHolds
}
