package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/kivi-go/kivi"
)

// inputFlags are the real-input sources of `kivi verify`: Kivi's
// configuration directory (the positional DIR), its log directory
// (--logs), or a manifest stream (-f FILE|-, repeated) with --nodes and
// --intents.
type inputFlags struct {
	logs      bool
	manifests []string
	// recursive makes -f DIR read DIR's subdirectories too (kubectl's
	// -R).
	recursive bool
	nodes     string
	intents   string
	// currentPlacement reads the manifests as a running cluster's dump,
	// its Pods where they run (kivi.LoadClusterDump).
	currentPlacement bool
	// warnings are the readers' warnings of the last load: printed to
	// stderr as they come, and carried into the --json document.
	warnings []kivi.Warning
}

// register adds --logs, -f (repeatable), --nodes and --intents.
func (in *inputFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&in.logs, "logs", false, "DIR is Kivi's log directory of a running cluster (setup/ + user_input/)")
	fs.Func("f", "manifest file, directory (its .yaml, .yml and .json files, as kubectl apply -f reads one), or - for standard input (repeatable)", func(v string) error {
		in.manifests = append(in.manifests, v)
		return nil
	})
	fs.BoolVar(&in.recursive, "R", false, "with -f DIR: read its subdirectories too (kubectl's -R)")
	fs.BoolVar(&in.recursive, "recursive", false, "the same as -R")
	fs.StringVar(&in.nodes, "nodes", "", "with -f: Node manifests or Kivi's cluster_configs.json")
	fs.StringVar(&in.intents, "intents", "", "with -f: intents file (Kivi's intents.json or {intents, events})")
	fs.BoolVar(&in.currentPlacement, "current-placement", false, "with -f or a directory of manifests: they are a dump of a running cluster (kubectl get …,pods -A -o yaml): start from where its pods run, not from the workloads' creation")
}

// load returns the cluster of the real-input flags, or ok false when
// none applies (a built-in case or a case file is meant).
func (in *inputFlags) load(pos []string, stdin io.Reader, stderr io.Writer) (c *kivi.Cluster, ok bool, err error) {
	stream := len(in.manifests) > 0 || (len(pos) == 1 && !in.logs && isDir(pos[0]) && !isKiviDir(pos[0]))
	if in.currentPlacement && !stream {
		return nil, true, fmt.Errorf("--current-placement reads a running cluster's manifests: give them with -f or as a directory of manifests: %w", errUsage)
	}
	switch {
	case len(in.manifests) > 0:
		if len(pos) > 0 || in.logs {
			return nil, true, fmt.Errorf("-f reads manifests; give no DIR and no --logs with it: %w", errUsage)
		}
		files, err := manifestFiles(in.manifests, in.recursive, in.nodes, in.intents)
		if err != nil {
			return nil, true, err
		}
		c, in.warnings, err = loadStream(files, in.nodes, in.intents, in.currentPlacement, stdin, stderr)
		return c, true, err
	case in.recursive:
		return nil, true, fmt.Errorf("-R goes with -f DIR: %w", errUsage)
	case in.nodes != "" || in.intents != "":
		return nil, true, fmt.Errorf("--nodes and --intents go with -f: %w", errUsage)
	case len(pos) == 1 && !in.logs && isDir(pos[0]) && !isKiviDir(pos[0]):
		// A directory of manifests, Nodes included, and an intents
		// file, as kivitest reads one.
		files, err := manifestFiles(pos, false)
		if err != nil {
			return nil, true, fmt.Errorf("%s: neither Kivi's configuration directory (accepted: yaml/ and user_input/) nor a directory of manifests (accepted: .yaml, .yml or .json files, an intents file among them): %w", pos[0], errUsage)
		}
		c, in.warnings, err = loadStream(files, "", "", in.currentPlacement, stdin, stderr)
		return c, true, err
	case len(pos) == 1 && (in.logs || isDir(pos[0])):
		c, in.warnings, err = loadInputs(pos[0], in.logs, stderr)
		return c, true, err
	case in.logs:
		return nil, true, fmt.Errorf("--logs needs one log directory: %w", errUsage)
	}
	return nil, false, nil
}

// loadInputs reads a Kivi configuration directory, or with logs a Kivi
// log directory, into a cluster; warnings go to stderr. Errors wrap
// kivi.ErrInput (exit status 2).
func loadInputs(dir string, logs bool, stderr io.Writer) (*kivi.Cluster, []kivi.Warning, error) {
	load := kivi.LoadKiviDir
	if logs {
		load = kivi.LoadKiviLogs
	}
	c, warns, err := load(dir)
	if err != nil {
		return nil, nil, err
	}
	printWarnings(stderr, warns)
	return c, warns, nil
}

// loadStream reads manifest files ("-" is standard input) with a nodes
// file and an intents file (either may be "").
func loadStream(files []string, nodes, intentsPath string, currentPlacement bool, stdin io.Reader, stderr io.Writer) (*kivi.Cluster, []kivi.Warning, error) {
	read := func(p string) (kivi.InputFile, error) {
		if p == "-" {
			data, err := io.ReadAll(stdin)
			return kivi.InputFile{Name: "<stdin>", Data: data}, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return kivi.InputFile{}, fmt.Errorf("%s: %w", p, err)
		}
		return kivi.InputFile{Name: p, Data: data}, nil
	}
	var ms []kivi.InputFile
	for _, p := range files {
		f, err := read(p)
		if err != nil {
			return nil, nil, err
		}
		ms = append(ms, f)
	}
	// Without --intents (or --nodes), an intents file (or Kivi's
	// cluster_configs.json) among the manifests is taken for it, as
	// kivitest does: one directory may hold everything.
	ms, foundNodes, foundIntents, err := kivi.SplitInputFiles(ms)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case foundIntents != nil && intentsPath != "":
		return nil, nil, fmt.Errorf("%s and %s are both intents files (accepted: one; --intents names it, or -f reads it): %w", intentsPath, foundIntents.Name, kivi.ErrInput)
	case foundNodes != nil && nodes != "":
		return nil, nil, fmt.Errorf("%s and %s both configure the nodes (accepted: one; --nodes names it, or -f reads it): %w", nodes, foundNodes.Name, kivi.ErrInput)
	}
	nf, inf := foundNodes, foundIntents
	for _, x := range []struct {
		path string
		out  **kivi.InputFile
	}{{nodes, &nf}, {intentsPath, &inf}} {
		if x.path == "" {
			continue
		}
		f, err := read(x.path)
		if err != nil {
			return nil, nil, err
		}
		*x.out = &f
	}
	if inf != nil {
		ms = kivi.WithoutEventManifests(ms, inf)
	}
	load := kivi.LoadManifests
	if currentPlacement {
		load = kivi.LoadClusterDump
	}
	c, warns, err := load(ms, nf, inf)
	if err != nil {
		return nil, nil, err
	}
	printWarnings(stderr, warns)
	return c, warns, nil
}

// jsonWarnings converts the readers' warnings for the --json document.
func jsonWarnings(ws []kivi.Warning) []kivi.JSONWarning {
	out := []kivi.JSONWarning{}
	for _, w := range ws {
		out = append(out, kivi.JSONWarning{File: w.File, Document: w.Doc, Path: w.Path, Message: w.Msg, Text: w.String()})
	}
	return out
}

func printWarnings(stderr io.Writer, ws []kivi.Warning) {
	for _, w := range ws {
		fmt.Fprintf(stderr, "kivi: warning: %s\n", w)
	}
}

// isKiviDir reports whether dir has the layout of Kivi's configuration
// directory (yaml/ or user_input/).
func isKiviDir(dir string) bool {
	return isDir(filepath.Join(dir, "yaml")) || isDir(filepath.Join(dir, "user_input"))
}

// isDir reports whether p is a directory (a Kivi configuration or log
// directory rather than a case file).
func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// manifestExtensions are the file extensions kubectl apply -f reads from
// a directory.
var manifestExtensions = []string{".yaml", ".yml", ".json"}

// manifestFiles expands the -f arguments as kubectl does: a directory
// stands for its files with a manifest extension, in lexical order (with
// recursive, those of its subdirectories too, depth first); a file or "-"
// stands for itself. A directory's file that is the --nodes or --intents
// file (skip) is left to that flag, so that one directory may hold all
// three. A directory without such a file is a usage error.
func manifestFiles(args []string, recursive bool, skip ...string) ([]string, error) {
	var skipped []os.FileInfo
	for _, p := range skip {
		if p == "" || p == "-" {
			continue
		}
		if st, err := os.Stat(p); err == nil {
			skipped = append(skipped, st)
		}
	}
	isSkipped := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && slices.ContainsFunc(skipped, func(o os.FileInfo) bool { return os.SameFile(st, o) })
	}
	var out []string
	for _, a := range args {
		if a == "-" || !isDir(a) {
			out = append(out, a)
			continue
		}
		var found []string
		err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != a && !recursive {
					return filepath.SkipDir
				}
				return nil
			}
			if slices.Contains(manifestExtensions, filepath.Ext(p)) && !isSkipped(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("-f %s: %w", a, err)
		}
		if len(found) == 0 {
			hint := ""
			if !recursive {
				hint = "; -R reads its subdirectories too"
			}
			return nil, fmt.Errorf("-f %s: the directory holds no manifest (accepted: files ending in .yaml, .yml or .json%s): %w", a, hint, errUsage)
		}
		out = append(out, found...)
	}
	return out, nil
}
