package kivi

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kivi-go/kivi/examples/incidents"
	"github.com/kivi-go/kivi/inputs/casefile"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// Cluster is what to verify: nodes, deployments with their HPAs, the
// descheduler's policy, the events and the intents (model.Cluster). The
// loaders below read one; a Go program may also build one.
type Cluster = model.Cluster

// InputFile is one input document: its name, for messages, and its bytes.
type InputFile = manifest.File

// Warning is a reader's warning about something in the input the model
// does not represent; a run goes on after it.
type Warning = manifest.Warning

// CaseInfo describes a built-in case (c1..c8) or an incident of the
// library (examples/incidents).
type CaseInfo struct {
	// Name is what LoadCase takes; KiviID is Kivi's id of a built-in case.
	Name, KiviID string
	// Title says what goes wrong, in one line.
	Title string
	// Expect is the intent the case violates (its twin violates none).
	Expect string
	// Link is an incident's public report ("" for built-in cases).
	Link string
	// Incident: one of the incident library's, verified as written.
	Incident bool
}

// Cases lists the built-in cases, then the incidents.
func Cases() []CaseInfo {
	var out []CaseInfo
	for _, c := range cases.List() {
		out = append(out, CaseInfo{Name: c.ID, KiviID: c.KiviID, Title: c.Title, Expect: c.Expect})
	}
	for _, in := range incidents.List() {
		out = append(out, CaseInfo{Name: in.Name, Title: in.Title, Expect: in.Expect, Link: in.Link, Incident: true})
	}
	return out
}

// LoadCase returns a built-in case (c1..c8) at a scale, or an incident of
// the library by name (scale ignored: incidents are verified as written);
// noViolation selects the variant that holds (an incident's fixed twin).
// An unknown name is an ErrInput error listing the accepted ones.
func LoadCase(name string, scale int, noViolation bool) (*Cluster, error) {
	if _, ok := incidents.Get(name); ok {
		c, warns, err := incidents.Load(name, noViolation)
		if err != nil {
			return nil, err
		}
		if len(warns) > 0 {
			return nil, fmt.Errorf("incident %s: %s", name, warns[0])
		}
		return c, nil
	}
	c, err := cases.Get(name, scale, noViolation)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	return c, nil
}

// LoadCaseFile reads a case file (YAML or JSON, the format of
// examples/cases and docs/inputs.md).
func LoadCaseFile(path string) (*Cluster, error) { return casefile.Load(path) }

// LoadManifests reads Kubernetes manifests (Deployments, HPAs, Nodes, a
// DeschedulerPolicy) with an optional Nodes file (Node manifests or Kivi's
// cluster_configs.json) and an optional intents file, as `kivi verify -f`
// does. Errors name the file, the field and the accepted values.
func LoadManifests(manifests []InputFile, nodes, intentsFile *InputFile) (*Cluster, []Warning, error) {
	return loadStream(manifests, nodes, intentsFile, manifestOptions())
}

// LoadClusterDump reads a dump of a running cluster (`kubectl get
// deployments,statefulsets,…,pods -A -o yaml`, its Nodes among the
// manifests or in nodes) as `kivi verify -f … --current-placement` does:
// its workloads exist from the start and the pods of its Deployments and
// StatefulSets run where the dump has them, so that a verification
// explores what follows (the intents file's events) from the cluster as
// it is, not every placement the scheduler could have chosen. Other pods
// hold their requests on their nodes; docs/inputs.md has the rules.
func LoadClusterDump(manifests []InputFile, nodes, intentsFile *InputFile) (*Cluster, []Warning, error) {
	opts := manifestOptions()
	opts.CurrentPlacement = true
	return loadStream(manifests, nodes, intentsFile, opts)
}

func loadStream(manifests []InputFile, nodes, intentsFile *InputFile, opts manifest.Options) (*Cluster, []Warning, error) {
	r, err := manifest.LoadStream(manifests, nodes, intentsFile, opts)
	if err != nil {
		return nil, nil, err
	}
	return r.Cluster, r.Warnings, nil
}

// SplitInputFiles tells an intents file and Kivi's cluster_configs.json
// apart from manifests by their content, for LoadManifests.
func SplitInputFiles(files []InputFile) (manifests []InputFile, nodes, intentsFile *InputFile, err error) {
	for i := range files {
		f := &files[i]
		switch {
		case manifest.IsIntentsFile(f.Data):
			if intentsFile != nil {
				return nil, nil, nil, fmt.Errorf("%s and %s are both intents files (accepted: one): %w", intentsFile.Name, f.Name, ErrInput)
			}
			intentsFile = f
		case manifest.IsKiviClusterConfig(f.Data):
			nodes = f
		default:
			manifests = append(manifests, *f)
		}
	}
	if intentsFile != nil {
		manifests = WithoutEventManifests(manifests, intentsFile)
	}
	return manifests, nodes, intentsFile, nil
}

// WithoutEventManifests leaves out of manifests the files the events of
// intentsFile apply (kubectl apply of a new version, a Deployment
// created later): a directory holding the input may hold them too, and
// they are not part of the cluster at the start. File names are paths;
// an event's manifest is relative to the intents file.
func WithoutEventManifests(manifests []InputFile, intentsFile *InputFile) []InputFile {
	refs := manifest.EventManifests(intentsFile.Data)
	if len(refs) == 0 {
		return manifests
	}
	applied := func(name string) bool {
		for _, r := range refs {
			p := r
			if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(intentsFile.Name), r)
			}
			if filepath.Clean(p) == filepath.Clean(name) {
				return true
			}
			a, errA := os.Stat(p)
			b, errB := os.Stat(name)
			if errA == nil && errB == nil && os.SameFile(a, b) {
				return true
			}
		}
		return false
	}
	out := manifests[:0:0]
	for _, m := range manifests {
		if !applied(m.Name) {
			out = append(out, m)
		}
	}
	return out
}

// LoadKiviDir reads Kivi's configuration directory (yaml/ and
// user_input/), as `kivi verify DIR` does.
func LoadKiviDir(dir string) (*Cluster, []Warning, error) { return loadDir(dir, manifest.LoadKiviDir) }

// LoadKiviLogs reads Kivi's log directory of a running cluster (setup/ and
// user_input/), as `kivi verify --logs DIR` does.
func LoadKiviLogs(dir string) (*Cluster, []Warning, error) { return loadDir(dir, manifest.LoadLogs) }

func loadDir(dir string, load func(fsys fs.FS, root string, opts manifest.Options) (*manifest.Result, error)) (*Cluster, []Warning, error) {
	clean := filepath.Clean(dir)
	r, err := load(os.DirFS(filepath.Dir(clean)), filepath.Base(clean), manifestOptions())
	if err != nil {
		return nil, nil, err
	}
	return r.Cluster, r.Warnings, nil
}

// manifestOptions passes the intent catalogue to the readers (package
// manifest does not import intents).
func manifestOptions() manifest.Options {
	return manifest.Options{
		KnownIntent: func(name string) bool { _, ok := intents.UserName(name); return ok },
		IntentNames: intents.Names(),
		CheckIntent: intents.Check,
	}
}
