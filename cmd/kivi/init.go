package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kivi-go/kivi"
)

// cmdInit writes a starting intents file for the manifests given as to
// verify (-f FILE|DIR, --nodes, or a DIR of manifests): the intents a
// user of each workload kind usually means, and a rolling node upgrade,
// with the other events as comments. It is meant to be read and edited:
// the comments say what each entry checks.
func cmdInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var in inputFlags
	in.register(fs)
	out := fs.String("o", "", "write the intents file here instead of standard output (an existing file is not overwritten)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitInput
	}
	switch {
	case in.intents != "":
		return inputError(stderr, fmt.Errorf("--intents: kivi init writes the intents file (accepted: -f, --nodes, DIR): %w", errUsage))
	case in.logs:
		return inputError(stderr, fmt.Errorf("--logs: kivi init reads manifests (accepted: -f, --nodes, DIR): %w", errUsage))
	case len(in.manifests) == 0 && (len(pos) != 1 || !isDir(pos[0])):
		return inputError(stderr, fmt.Errorf("kivi init needs manifests (accepted: -f FILE|DIR [--nodes FILE], or a DIR of manifests): %w", errUsage))
	}
	c, _, err := in.load(pos, os.Stdin, stderr)
	if err != nil {
		return inputError(stderr, err)
	}
	text := starterIntents(c)
	if *out == "" {
		fmt.Fprint(stdout, text)
		return exitHolds
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return inputError(stderr, fmt.Errorf("-o %s: the file exists; kivi init does not overwrite it (accepted: a new file's path): %w", *out, errUsage))
	}
	if err != nil {
		return inputError(stderr, err)
	}
	defer f.Close()
	if _, err := io.WriteString(f, text); err != nil {
		return inputError(stderr, err)
	}
	fmt.Fprintf(stderr, "kivi: wrote %s; pass it to kivi verify with --intents %s, or put it in the manifests' directory and run kivi verify on that\n", *out, *out)
	return exitHolds
}

// starterIntents is the intents file kivi init writes for c.
func starterIntents(c *kivi.Cluster) string {
	var b strings.Builder
	n := len(c.Deployments)
	fmt.Fprintf(&b, "# Intents for the %s of %s, written by `kivi init` as a starting point:\n", plural(n, "workload"), c.Name)
	b.WriteString("# keep what you mean, edit, and pass the file with --intents (docs/intents.md\n")
	b.WriteString("# says what each intent checks, docs/inputs.md how to write events).\n")
	b.WriteString("intents:\n")
	b.WriteString("# Every pod the scheduler tries finds a node (always checked).\n")
	b.WriteString("- name: pod_always_schedulable\n")
	osRejects := osRejectedTemplates(c)
	var rollable, scaled []string
	for _, d := range c.Deployments {
		name := yamlString(d.Name)
		switch {
		case d.CronJob != nil:
			fmt.Fprintf(&b, "# %s: a CronJob; its runs are checked by pod_always_schedulable.\n", d.Name)
		case d.Kind == "Job":
			fmt.Fprintf(&b, "# Job %s completes whenever the cluster comes to rest.\n", d.Name)
			fmt.Fprintf(&b, "- name: job_completes\n  params: {deployment: %s}\n", name)
		default:
			kind := "Deployment"
			if d.Kind == "StatefulSet" {
				kind = "StatefulSet"
			}
			floor := fmt.Sprintf("its spec.replicas (%d)", d.Replicas)
			if d.HPA != nil {
				floor = fmt.Sprintf("its HPA's minReplicas (%d)", d.HPA.Min)
			}
			if d.HPA != nil && len(d.HPA.SharedTarget) > 0 {
				lowest, names := d.HPA.Min, []string{d.HPA.Name}
				for _, o := range d.HPA.SharedTarget {
					lowest, names = min(lowest, max(o.Min, 1)), append(names, o.Name)
				}
				floor = fmt.Sprintf("the lowest minReplicas of its HPAs (%d)", lowest)
				fmt.Fprintf(&b, "# %s %s is the target of several HPAs (%s): they do not set its\n# replicas up and down forever.\n", kind, d.Name, strings.Join(names, ", "))
				fmt.Fprintf(&b, "- name: no_scaling_loop\n  params: {deployment: %s}\n", name)
			}
			fmt.Fprintf(&b, "# %s %s never serves fewer Ready replicas than %s once it had them.\n", kind, d.Name, floor)
			fmt.Fprintf(&b, "- name: replica_num_always_meet_min\n  params: {deployment: %s}\n", name)
			fmt.Fprintf(&b, "# Whenever the cluster comes to rest, %s runs its spec replicas, all of its\n# current template (kubectl rollout status succeeds).\n", d.Name)
			fmt.Fprintf(&b, "- name: rollout_completes\n  params: {deployment: %s}\n", name)
			if osRejects[d.Template] {
				fmt.Fprintf(&b, "# %s %s's pods name an OS (kubernetes.io/os, spec.os) that a node the\n# scheduler may pick for them does not run: the kubelet rejects them there and\n# they are created again, but not forever.\n", kind, d.Name)
				fmt.Fprintf(&b, "- name: no_oscillation_rejection\n  params: {deployment: %s}\n", name)
			}
			rollable = append(rollable, name)
			if d.HPA != nil {
				scaled = append(scaled, name)
			}
		}
	}
	b.WriteString("events:\n")
	b.WriteString("# A node-pool upgrade once the cluster has settled: every node drained and\n")
	b.WriteString("# brought back, one at a time, in any order.\n")
	b.WriteString("- {kind: maintenance, order: any, parallel: 1, when: afterStable}\n")
	b.WriteString("# Other events to try (one or two at a time keep the search small):\n")
	if node := firstNodeName(c); node != "" {
		fmt.Fprintf(&b, "# - {kind: nodeFailure, node: %s, when: afterStable}   # the node goes down and comes back\n", yamlString(node))
	}
	if len(rollable) > 0 {
		fmt.Fprintf(&b, "# - {kind: rolloutRestart, deployment: %s, when: afterStable}   # kubectl rollout restart\n", rollable[0])
	}
	if len(scaled) > 0 {
		fmt.Fprintf(&b, "# - {kind: eventCpuChange, deployment: %s}   # the load of one of its pods rises: its HPA acts\n", scaled[0])
	}
	return b.String()
}

// osRejectedTemplates names the templates whose pods the scheduler may
// bind to a node whose kubelet rejects them for the OS they name (their
// kubernetes.io/os label or spec.os.name): a node their nodeSelector,
// affinity, nodeName and taints (NoSchedule and NoExecute, as the
// scheduler's TaintToleration filter) admit, of another OS. The
// compiled universe answers it; an input that does not build has none
// (verify reports its error).
func osRejectedTemplates(c *kivi.Cluster) map[string]bool {
	u, _, err := c.Build()
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for i := range u.Templates {
		t := &u.Templates[i]
		for _, f := range t.Fit {
			if f.Affinity && f.NodeName && !f.NoSchedule && !f.NoExecute && !f.AddedAffinityRejects && (f.OSLabelMismatch || f.OSFieldMismatch) {
				out[t.Name] = true
			}
		}
	}
	return out
}

// firstNodeName is the name of the input's first node, "" when the
// nodes are not named.
func firstNodeName(c *kivi.Cluster) string {
	for _, g := range c.Nodes {
		if len(g.Names) > 0 {
			return g.Names[0]
		}
	}
	return ""
}

// yamlString writes a name as a YAML scalar, quoted when YAML would read
// it as something else.
func yamlString(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' || r == '/')
	}) < 0
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n", "~":
		plain = false
	}
	if plain && (s[0] >= '0' && s[0] <= '9' || s[0] == '-' || s[0] == '.') {
		plain = false
	}
	if plain {
		return s
	}
	return fmt.Sprintf("%q", s)
}

// plural is "1 workload", "3 workloads".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
