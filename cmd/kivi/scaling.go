package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/scaling"
)

// scalingFlags are the scaling search's options.
type scalingFlags struct {
	confidentNodes, confidentPods, fastFind int
	shard, shardMode, shardOut              string
	setupTimeout                            time.Duration
}

// runScaling runs the scaling search (or one shard of it) and prints it in
// Kivi's shape. It returns the exit status.
//
// input is the size a user's own configuration was written at (nil for
// Kivi's cases and case files): the search then stays inside the input's
// own bounds (scaling.InputBounds) and every setup line says whether it
// is that size.
//
// warnings are the input readers' warnings, for the JSON documents.
func runScaling(ctx context.Context, c *kivi.Cluster, opts kivi.Options, sf scalingFlags, all, jsonOut bool, stdout, stderr io.Writer, progress bool, input *scaling.Setup, warnings []kivi.JSONWarning, page *pageOut) int {
	eo := scaling.EnumerateOptions{ConfidentNodes: sf.confidentNodes, ConfidentPodsPerNode: sf.confidentPods, FastFind: sf.fastFind}
	var setups []scaling.Setup
	var err error
	if input != nil {
		c = scaling.WithWrittenHPAs(c)
		var b scaling.Bounds
		if b, err = scaling.InputBounds(c, sf.confidentNodes); err == nil {
			setups, err = scaling.Enumerate(b, eo)
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", c.Name, err)
		}
	} else {
		setups, err = scaling.Setups(c, eo)
	}
	if err != nil {
		return inputError(stderr, err)
	}
	so := scaling.Options{All: all, Timeout: sf.setupTimeout, Workers: opts.Checker.Workers}
	if so.Workers == 0 {
		so.Workers = runtime.GOMAXPROCS(0)
	}
	// Parallelism goes to setups: one engine worker each, or the two
	// multiply; the memory budget is shared the same way.
	opts.Checker.Workers = 1
	if opts.Checker.MaxMemory > 0 {
		opts.Checker.MaxMemory /= int64(so.Workers)
	}
	if progress {
		so.Progress = func(p scaling.Progress) {
			fmt.Fprintf(stderr, "\rsetups %d/%d, at %s, %d states, %s elapsed, ETA %s   ", p.Done, p.Total, p.Current,
				p.States, p.Elapsed.Round(time.Second), p.ETA.Round(time.Second))
		}
	}
	verify := kivi.SetupVerifier(c, opts)
	if sf.shard != "" {
		mode, err := scaling.ParseShardMode(sf.shardMode)
		if err != nil {
			return inputError(stderr, fmt.Errorf("--shard-mode: %w", err))
		}
		sh, err := scaling.ParseShard(sf.shard, mode)
		if err != nil {
			return inputError(stderr, fmt.Errorf("--shard: %w", err))
		}
		res, err := scaling.RunShard(ctx, setups, sh, verify, so)
		if progress {
			fmt.Fprint(stderr, "\r\033[K")
		}
		if err != nil {
			fmt.Fprintf(stderr, "kivi: %v\n", err)
			return exitInput
		}
		// A shard file is a report document of its own (mode "shard"),
		// which kivi merge reads back (kivi.ReadShard).
		data, err := json.MarshalIndent(kivi.ShardJSON(c.Name, res, input, warnings), "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "kivi: %v\n", err)
			return exitInput
		}
		w := stdout
		if sf.shardOut != "" {
			f, err := os.Create(sf.shardOut)
			if err != nil {
				return inputError(stderr, err)
			}
			defer f.Close()
			w = f
		}
		fmt.Fprintln(w, string(data))
		return exitHolds
	}
	if !jsonOut && len(setups) > 0 {
		h, err := kivi.SetupHeader(c, opts, setups[0])
		if err != nil {
			return inputError(stderr, err)
		}
		h.Write(stdout)
	}
	start := time.Now()
	// --timeout bounds the whole search, as it bounds a single
	// verification; --setup-timeout bounds each setup.
	sctx := ctx
	if t := opts.Checker.Timeout; t > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	res, err := scaling.Search(sctx, setups, verify, so)
	if res.Interrupted && ctx.Err() == nil && errors.Is(sctx.Err(), context.DeadlineExceeded) {
		res.Stopped = fmt.Sprintf("--timeout %s ran out before every setup was verified", opts.Checker.Timeout)
	}
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil && !res.Interrupted {
		fmt.Fprintf(stderr, "kivi: %v\n", err)
		return exitInput
	}
	res.Elapsed = time.Since(start)
	doc := kivi.SearchJSON(kivi.ModeSearch, c.Name, res, input, warnings)
	code := printScaling(stdout, doc, res, jsonOut, input)
	if err := page.emit(func(w io.Writer) error { return doc.WriteHTML(w) }); err != nil {
		fmt.Fprintf(stderr, "kivi: %v\n", err)
		return exitInput
	}
	return code
}

// printScaling prints a search result (a run or merged shards): doc with
// --json, else Kivi's text from res.
func printScaling(stdout io.Writer, doc kivi.JSONReport, res scaling.Result, jsonOut bool, input *scaling.Setup) int {
	if jsonOut {
		_ = doc.WriteJSON(stdout)
	} else {
		kivi.WriteSearch(stdout, res, input)
	}
	switch {
	case res.Failed > 0:
		return exitViolated
	case res.Unknown > 0 || res.Interrupted:
		return exitUnknown
	}
	return exitHolds
}

// detail recovers a setup's JSON report (a value in a run, raw JSON after
// a merge of old shard files).
func detail(d any) *kivi.JSONReport { return kivi.SetupReport(d) }

// cmdMerge combines shard results into the summary a single run gives:
// a scaling search's shards, or a swarm's (mergeSwarm).
func cmdMerge(args []string, stdout, stderr io.Writer) int {
	jsonOut := false
	var files []string
	for _, a := range args {
		if a == "--json" {
			jsonOut = true
			continue
		}
		files = append(files, a)
	}
	if len(files) == 0 {
		return inputError(stderr, fmt.Errorf("merge needs shard result files: %w", errUsage))
	}
	var shards []scaling.ShardResult
	// The merged document takes its name, input size and warnings from
	// the shards, which all read the same input; shard files of an older
	// kivi carry none of them.
	name := "merged"
	var input *scaling.Setup
	warnings := []kivi.JSONWarning{}
	seen := map[string]bool{}
	datas := make([][]byte, len(files))
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return inputError(stderr, err)
		}
		datas[i] = data
	}
	if kivi.IsSwarmShard(datas[0]) {
		return mergeSwarm(files, datas, jsonOut, stdout, stderr)
	}
	for i, f := range files {
		data := datas[i]
		if kivi.IsSwarmShard(data) {
			return inputError(stderr, fmt.Errorf("%s: a swarm shard, but %s is a scaling-search shard (accepted: the shards of one swarm, or of one scaling search): %w", f, files[0], scaling.ErrShard))
		}
		sf, err := kivi.ReadShard(data)
		if err != nil {
			return inputError(stderr, fmt.Errorf("%s: %w", f, err))
		}
		if i == 0 {
			name, input = sf.Name, sf.Input
		}
		for _, w := range sf.Warnings {
			if !seen[w.Text] {
				seen[w.Text] = true
				warnings = append(warnings, w)
			}
		}
		shards = append(shards, sf.Result)
	}
	res, err := scaling.Merge(shards...)
	if err != nil {
		return inputError(stderr, err)
	}
	return printScaling(stdout, kivi.SearchJSON(kivi.ModeMerge, name, res, input, warnings), res, jsonOut, input)
}
