package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// inputFlags are the real-input sources of `kivi verify`: Kivi's
// configuration directory (the positional DIR), its log directory
// (--logs), or a manifest stream (-f FILE|-, repeated) with --nodes and
// --intents.
type inputFlags struct {
	logs      bool
	manifests []string
	nodes     string
	intents   string
	// warnings are the readers' warnings of the last load: printed to
	// stderr as they come, and carried into the --json document.
	warnings []manifest.Warning
}

// register adds --logs, -f (repeatable), --nodes and --intents.
func (in *inputFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&in.logs, "logs", false, "DIR is Kivi's log directory of a running cluster (setup/ + user_input/)")
	fs.Func("f", "manifest file, or - for standard input (repeatable)", func(v string) error {
		in.manifests = append(in.manifests, v)
		return nil
	})
	fs.StringVar(&in.nodes, "nodes", "", "with -f: Node manifests or Kivi's cluster_configs.json")
	fs.StringVar(&in.intents, "intents", "", "with -f: intents file (Kivi's intents.json or {intents, events})")
}

// load returns the cluster of the real-input flags, or ok false when
// none applies (a built-in case or a case file is meant).
func (in *inputFlags) load(pos []string, stdin io.Reader, stderr io.Writer) (c *model.Cluster, ok bool, err error) {
	switch {
	case len(in.manifests) > 0:
		if len(pos) > 0 || in.logs {
			return nil, true, fmt.Errorf("-f reads manifests; give no DIR and no --logs with it: %w", errUsage)
		}
		c, in.warnings, err = loadStream(in.manifests, in.nodes, in.intents, stdin, stderr)
		return c, true, err
	case in.nodes != "" || in.intents != "":
		return nil, true, fmt.Errorf("--nodes and --intents go with -f: %w", errUsage)
	case len(pos) == 1 && (in.logs || isDir(pos[0])):
		c, in.warnings, err = loadInputs(pos[0], in.logs, stderr)
		return c, true, err
	case in.logs:
		return nil, true, fmt.Errorf("--logs needs one log directory: %w", errUsage)
	}
	return nil, false, nil
}

// manifestOptions passes the intent catalogue to the readers (package
// manifest cannot import intents).
func manifestOptions() manifest.Options {
	return manifest.Options{
		KnownIntent: func(name string) bool { _, ok := intents.UserName(name); return ok },
		IntentNames: intents.Names(),
		CheckIntent: intents.Check,
	}
}

// loadInputs reads a Kivi configuration directory, or with logs a Kivi
// log directory, into a cluster; warnings go to stderr. Errors wrap
// manifest.ErrInput (exit status 2).
func loadInputs(dir string, logs bool, stderr io.Writer) (*model.Cluster, []manifest.Warning, error) {
	fsys := os.DirFS(filepath.Dir(filepath.Clean(dir)))
	root := filepath.Base(filepath.Clean(dir))
	var r *manifest.Result
	var err error
	if logs {
		r, err = manifest.LoadLogs(fsys, root, manifestOptions())
	} else {
		r, err = manifest.LoadKiviDir(fsys, root, manifestOptions())
	}
	if err != nil {
		return nil, nil, err
	}
	printWarnings(stderr, r.Warnings)
	return r.Cluster, r.Warnings, nil
}

// loadStream reads manifest files ("-" is standard input) with a nodes
// file and an intents file (either may be "").
func loadStream(files []string, nodes, intentsPath string, stdin io.Reader, stderr io.Writer) (*model.Cluster, []manifest.Warning, error) {
	read := func(p string) (manifest.File, error) {
		if p == "-" {
			data, err := io.ReadAll(stdin)
			return manifest.File{Name: "<stdin>", Data: data}, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return manifest.File{}, &manifest.Error{File: p, Msg: err.Error()}
		}
		return manifest.File{Name: p, Data: data}, nil
	}
	var ms []manifest.File
	for _, p := range files {
		f, err := read(p)
		if err != nil {
			return nil, nil, err
		}
		ms = append(ms, f)
	}
	var nf, inf *manifest.File
	for _, x := range []struct {
		path string
		out  **manifest.File
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
	r, err := manifest.LoadStream(ms, nf, inf, manifestOptions())
	if err != nil {
		return nil, nil, err
	}
	printWarnings(stderr, r.Warnings)
	return r.Cluster, r.Warnings, nil
}

// jsonWarnings converts the readers' warnings for the --json document.
func jsonWarnings(ws []manifest.Warning) []kivi.JSONWarning {
	out := []kivi.JSONWarning{}
	for _, w := range ws {
		out = append(out, kivi.JSONWarning{File: w.File, Document: w.Doc, Path: w.Path, Message: w.Msg, Text: w.String()})
	}
	return out
}

func printWarnings(stderr io.Writer, ws []manifest.Warning) {
	for _, w := range ws {
		fmt.Fprintf(stderr, "kivi: warning: %s\n", w)
	}
}

// isDir reports whether p is a directory (a Kivi configuration or log
// directory rather than a case file).
func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
