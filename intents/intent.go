package intents

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// ErrUnknownIntent and ErrBadParameter mark intent-spec errors.
var (
	ErrUnknownIntent = errors.New("unknown intent")
	ErrBadParameter  = errors.New("bad intent parameter")
)

// Kind says how an intent is checked.
type Kind uint8

const (
	// Assertion: violated when a step records the intent's model.Failure.
	Assertion Kind = iota
	// Monitor: violated when its observer fails the state, or when the
	// cluster stops with the monitor still waiting (EndCheck).
	Monitor
	// Cycle: violated by a reachable loop whose steps carry all the Marks.
	Cycle
	// Predicate: a user predicate that must hold in every state.
	Predicate
)

// Intent is one property to verify.
type Intent struct {
	// Name is the user name (e.g. pod_always_schedulable); Internal is
	// Kivi's internal name (no_feasible_node), used in Kivi-style output.
	Name     string
	Internal string
	Kind     Kind
	// Explain is a one-line statement of what must hold.
	Explain string
	// Failure is the assertion code (Assertion kind).
	Failure model.Failure
	// Marks are the actions a violating loop repeats, every one of them
	// (Cycle kind).
	Marks []model.Mark
	// Holds is the user predicate (Predicate kind).
	Holds func(u *model.Universe, s *model.State) bool
	// Watch is the monitor (Monitor kind, and the counter variant of
	// no_oscillation_eviction).
	Watch Watch
	// Deployment is the deployment the intent is about (index), or -1.
	Deployment int
	// ReadsQuiescence says that the monitor also reads the work queues
	// and the descheduler's trigger (it checks settled states), besides
	// the pods, deployments and nodes every monitor reads.
	ReadsQuiescence bool
}

// Watch is an intent monitor: a small automaton over the cluster's states.
// Its memory is Size bytes of State.Monitors, starting at the offset the
// System gives it.
type Watch interface {
	Size() int
	// Observe updates the memory after a step (tx.Marks are the step's
	// marks) and returns a violation message, or "".
	Observe(u *model.Universe, s *model.State, mem []byte, marks []model.Mark) string
	// Stuck reports, for a state without successors, whether the monitor
	// is still waiting for something that had to happen, and what.
	Stuck(u *model.Universe, s *model.State, mem []byte) string
}

// Catalogue lists the user names of the built-in intents, in Kivi's order,
// then this model's own.
var catalogue = []string{
	"pod_always_schedulable", "no_kernel_panic", "no_oscillation_replica_num",
	"replica_num_always_meet_min", "replica_num_always_meet_exp",
	"no_oscillation_eviction", "pod_balance_across_node", "no_oscillation_rejection",
	"rollout_completes", "job_completes", "no_scaling_loop",
}

// internalNames maps Kivi's internal names to user names.
var internalNames = map[string]string{
	"no_feasible_node": "pod_always_schedulable", "kernel_panic": "no_kernel_panic",
	"checkOscillationReplicaNum": "no_oscillation_replica_num", "checkMinReplicas": "replica_num_always_meet_min",
	"checkExpReplicas": "replica_num_always_meet_exp", "checkEvictionCycle": "no_oscillation_eviction",
	"checkBalanceNode": "pod_balance_across_node",
}

// Names returns the accepted user names.
func Names() []string { return append([]string(nil), catalogue...) }

// UserName returns the user name of a user or internal name, and whether
// it is known.
func UserName(name string) (string, bool) {
	for _, n := range catalogue {
		if n == name {
			return n, true
		}
	}
	n, ok := internalNames[name]
	return n, ok
}

// InternalName returns Kivi's internal name of a user name.
func InternalName(user string) string {
	for in, u := range internalNames {
		if u == user {
			return in
		}
	}
	return user
}

// Params are an intent's parameters as written by the user.
type Params map[string]any

// Options tune how intents are checked.
type Options struct {
	// EvictionCounter checks no_oscillation_eviction with Kivi's counter
	// ("evicted and re-added 3 times") instead of a cycle.
	EvictionCounter bool
	// BalanceAtPodStart checks pod_balance_across_node only at the steps
	// that start a pod of the deployment (Kivi's placement of the check)
	// instead of in every settled state.
	BalanceAtPodStart bool
}

// ParamError is a bad parameter of an intent: which one, and a message
// with the accepted values. It is an ErrBadParameter.
type ParamError struct {
	Intent string
	// Param is the parameter's key ("" for the parameters as a whole).
	Param string
	Msg   string
}

func (e *ParamError) Error() string {
	if e.Param == "" {
		return fmt.Sprintf("intent %s: %s: %s", e.Intent, ErrBadParameter, e.Msg)
	}
	return fmt.Sprintf("intent %s: parameter %s: %s: %s", e.Intent, e.Param, ErrBadParameter, e.Msg)
}

// Unwrap makes a ParamError an ErrBadParameter.
func (e *ParamError) Unwrap() error { return ErrBadParameter }

// Check checks a declared intent against the workloads' names (in
// order) and kinds (model.DeploymentDecl.Kind: "" for a Deployment,
// StatefulSet, Job; kinds may be shorter than deployments, the rest are
// Deployments) without building the model, for readers that place
// errors in their file: it returns the bad parameter and the message, or
// "", "" (unknown intent names are the reader's to report).
func Check(d model.IntentDecl, deployments, kinds []string) (param, msg string) {
	u := &model.Universe{}
	for i, n := range deployments {
		dep := model.Deployment{Name: n}
		if i < len(kinds) {
			if cj, ok := strings.CutPrefix(kinds[i], "CronJob/"); ok {
				dep.Kind, dep.CronJob = model.KindJob, addCronJobRun(u, cj, i)
			} else {
				dep.Kind, _ = model.ParseWorkloadKind(kinds[i])
			}
		}
		u.Deployments = append(u.Deployments, dep)
	}
	_, err := New(u, d.Name, d.Params, Options{})
	var pe *ParamError
	switch {
	case err == nil:
		return "", ""
	case errors.As(err, &pe):
		return pe.Param, pe.Msg
	}
	return "", err.Error()
}

// New builds a built-in intent from its user or internal name. The
// intent's deployment is params["deployment"], its name, or
// params["did"], its 1-based position (Kivi's convention); the first
// deployment when neither is given.
func New(u *model.Universe, name string, p Params, opts Options) (Intent, error) {
	user, ok := UserName(name)
	if !ok {
		return Intent{}, fmt.Errorf("intent %q: %w (accepted: %s)", name, ErrUnknownIntent, strings.Join(catalogue, ", "))
	}
	bad := func(param, format string, args ...any) error {
		return &ParamError{Intent: user, Param: param, Msg: fmt.Sprintf(format, args...)}
	}
	for _, k := range slices.Sorted(maps.Keys(p)) {
		if !accepts(user, k) {
			if len(paramNames(user)) == 0 {
				return Intent{}, bad(k, "unknown parameter (accepted: none, %s takes no parameter)", user)
			}
			return Intent{}, bad(k, "unknown parameter (accepted: %s)", strings.Join(paramNames(user), ", "))
		}
	}
	in := Intent{Name: user, Internal: InternalName(user), Deployment: -1}
	did := -1
	if needsDeployment(user) {
		d, err := deploymentParam(u, p, user == "job_completes")
		if err == nil {
			err = checkKind(u, user, d, p)
		}
		if err != nil {
			var pe *ParamError
			if errors.As(err, &pe) {
				pe.Intent = user
			}
			return Intent{}, err
		}
		did = d
		in.Deployment = did
	}
	switch user {
	case "pod_always_schedulable":
		in.Kind, in.Failure = Assertion, model.FailNoFeasibleNode
		in.Explain = "every pod the scheduler tries finds a feasible node"
	case "no_kernel_panic":
		in.Kind, in.Failure = Assertion, model.FailKernelPanic
		in.Explain = "no node suffers a kernel panic three times"
	case "no_oscillation_replica_num":
		in.Kind, in.Watch = Monitor, oscillationWatch{d: did}
		in.Explain = fmt.Sprintf("%s %s never falls back to its HPA minimum, or 3 below its maximum, after reaching the maximum", u.KindWord(did, false), u.Deployments[did].Name)
	case "replica_num_always_meet_min":
		in.Kind, in.Watch = Monitor, minWatch{d: did}
		in.Explain = fmt.Sprintf("%s %s reaches its minimum (HPA min, or spec) and never drops below it", u.KindWord(did, false), u.Deployments[did].Name)
	case "replica_num_always_meet_exp":
		e, err := parseExpected(p["expReplicas"])
		if err != nil {
			return Intent{}, bad("expReplicas", "%s (accepted: an integer, \"spec\", \"spec-N\", \"spec+N\" or \"d[did].specReplicas-N\")", quoted(p["expReplicas"]))
		}
		in.Kind, in.Watch = Monitor, expWatch{d: did, exp: e}
		in.Explain = fmt.Sprintf("%s %s reaches %s replicas and never drops below", u.KindWord(did, false), u.Deployments[did].Name, e)
	case "no_oscillation_eviction":
		if opts.EvictionCounter {
			in.Kind, in.Watch = Monitor, evictionCounter{d: did}
			in.Explain = fmt.Sprintf("pods of %s %s are not deleted and re-added 3 times", u.KindWord(did, false), u.Deployments[did].Name)
		} else {
			in.Kind, in.Marks = Cycle, []model.Mark{model.MarkEvicted(did), model.MarkStarted(did)}
			in.Explain = fmt.Sprintf("no reachable loop evicts pods of %s %s and starts them again forever", u.KindWord(did, false), u.Deployments[did].Name)
		}
	case "no_oscillation_rejection":
		in.Kind, in.Marks = Cycle, []model.Mark{model.MarkRejected(did)}
		in.Explain = fmt.Sprintf("no reachable loop has the kubelet reject pods of %s %s at admission, and the ReplicaSet create them again, forever", u.KindWord(did, false), u.Deployments[did].Name)
	case "no_scaling_loop":
		in.Kind, in.Marks = Cycle, []model.Mark{model.MarkScaledUp(did), model.MarkScaledDown(did)}
		in.Explain = fmt.Sprintf("no reachable loop scales %s %s up and down forever (HPAs fighting over it, an HPA against a controller that resets its replicas)", u.KindWord(did, false), u.Deployments[did].Name)
	case "rollout_completes":
		in.Kind, in.Watch = Monitor, rolloutWatch{d: did}
		in.Explain = fmt.Sprintf("whenever the cluster stops, %s %s runs its spec replicas of its current template and no older pod (kubectl rollout status succeeds)", u.KindWord(did, false), u.Deployments[did].Name)
	case "job_completes":
		in.Kind, in.Watch = Monitor, jobWatch{d: did}
		in.Explain = fmt.Sprintf("whenever the cluster stops, job %s is Complete (kubectl wait --for=condition=complete succeeds)", u.Deployments[did].Name)
	case "pod_balance_across_node":
		k, err := intParam(p, "maxSkew", 2)
		if err != nil || k < 0 {
			return Intent{}, bad("maxSkew", "%v (accepted: an integer ≥ 0, default 2)", p["maxSkew"])
		}
		in.Kind, in.Watch = Monitor, balanceWatch{d: did, maxSkew: k, atPodStart: opts.BalanceAtPodStart}
		in.Explain = fmt.Sprintf("whenever %s %s is at spec and the cluster has settled, Running pods differ by at most %d between Ready nodes", u.KindWord(did, false), u.Deployments[did].Name, k)
		in.ReadsQuiescence = true
		if opts.BalanceAtPodStart {
			in.Explain = fmt.Sprintf("once %s %s is at spec, each time one of its pods starts, Running pods differ by at most %d between Ready nodes", u.KindWord(did, false), u.Deployments[did].Name, k)
			in.ReadsQuiescence = false
		}
	}
	return in, nil
}

// deploymentParam resolves the intent's deployment: by name, by Kivi's
// 1-based position, or the first (the first Job with firstJob).
func deploymentParam(u *model.Universe, p Params, firstJob bool) (int, error) {
	names := make([]string, len(u.Deployments))
	for i, d := range u.Deployments {
		names[i] = d.Name
	}
	list := strings.Join(names, ", ")
	if len(names) > 10 {
		list = strings.Join(names[:10], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
	}
	v, byName := p["deployment"]
	if _, byPos := p["did"]; byName && byPos {
		return 0, &ParamError{Param: "did", Msg: "both deployment and did (accepted: one of them: deployment, a name, or did, Kivi's 1-based position)"}
	}
	if byName {
		s, ok := v.(string)
		if i := slices.Index(names, s); ok && i >= 0 {
			return i, nil
		}
		if d, isCronJob, err := cronJobParam(u, s, firstJob); ok && isCronJob {
			return d, err
		}
		return 0, &ParamError{Param: "deployment", Msg: fmt.Sprintf("%s: no such deployment (accepted: %s)", quoted(v), list)}
	}
	if _, byPos := p["did"]; !byPos && firstJob {
		for d := range u.Deployments {
			if u.IsJob(d) && u.CronJobOf(d) < 0 {
				return d, nil
			}
		}
	}
	n, err := intParam(p, "did", 1)
	if err != nil || n < 1 || n > len(names) {
		return 0, &ParamError{Param: "did", Msg: fmt.Sprintf("%s (accepted: a 1-based position 1..%d: %s; or deployment: NAME)", quoted(p["did"]), len(names), list)}
	}
	return n - 1, nil
}

func quoted(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func needsDeployment(user string) bool {
	switch user {
	case "pod_always_schedulable", "no_kernel_panic":
		return false
	}
	return true
}

// ParamNames lists the parameters an intent (user or internal name)
// accepts.
func ParamNames(name string) []string {
	user, _ := UserName(name)
	return paramNames(user)
}

func paramNames(user string) []string {
	switch user {
	case "pod_always_schedulable", "no_kernel_panic":
		return nil
	case "replica_num_always_meet_exp":
		return []string{"deployment", "did", "expReplicas"}
	case "pod_balance_across_node":
		return []string{"deployment", "did", "maxSkew"}
	}
	return []string{"deployment", "did"}
}

func accepts(user, param string) bool {
	for _, p := range paramNames(user) {
		if p == param {
			return true
		}
	}
	return false
}

func intParam(p Params, key string, def int) (int, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case float64:
		if x == float64(int(x)) {
			return int(x), nil
		}
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf("parameter %s = %v: %w (accepted: an integer)", key, v, ErrBadParameter)
}

// Expected is the replica threshold of replica_num_always_meet_exp: either
// a constant, or the deployment's spec replicas plus an offset (Kivi's
// "d[did].specReplicas-1", re-read in every state).
type Expected struct {
	Spec   bool
	Offset int
}

func (e Expected) String() string {
	if !e.Spec {
		return strconv.Itoa(e.Offset)
	}
	switch {
	case e.Offset == 0:
		return "spec"
	case e.Offset > 0:
		return fmt.Sprintf("spec+%d", e.Offset)
	}
	return fmt.Sprintf("spec%d", e.Offset)
}

// Value evaluates the threshold for deployment d in s.
func (e Expected) Value(s *model.State, d int) int {
	if e.Spec {
		return int(s.Deps[d].Replicas) + e.Offset
	}
	return e.Offset
}

// parseExpected accepts an integer, "spec", "spec-N", "spec+N", or Kivi's
// "d[did].specReplicas-N".
func parseExpected(v any) (Expected, error) {
	switch x := v.(type) {
	case nil:
		return Expected{}, nil
	case int:
		return Expected{Offset: x}, nil
	case int64:
		return Expected{Offset: int(x)}, nil
	case float64:
		if x == float64(int(x)) {
			return Expected{Offset: int(x)}, nil
		}
	case string:
		t := strings.ReplaceAll(strings.TrimSpace(x), " ", "")
		if n, err := strconv.Atoi(t); err == nil {
			return Expected{Offset: n}, nil
		}
		for _, base := range []string{"d[did].specReplicas", "spec"} {
			if rest, ok := strings.CutPrefix(t, base); ok {
				if rest == "" {
					return Expected{Spec: true}, nil
				}
				if n, err := strconv.Atoi(rest); err == nil && (rest[0] == '-' || rest[0] == '+') {
					return Expected{Spec: true, Offset: n}, nil
				}
			}
		}
	}
	return Expected{}, fmt.Errorf("parameter expReplicas = %v: %w (accepted: an integer, \"spec\", \"spec-N\", \"spec+N\" or \"d[did].specReplicas-N\")", v, ErrBadParameter)
}

// Sorted returns intents in Kivi's attribution order.
func Sorted(in []Intent) []Intent {
	order := map[string]int{}
	for i, n := range catalogue {
		order[n] = i
	}
	out := append([]Intent(nil), in...)
	sort.SliceStable(out, func(i, j int) bool { return order[out[i].Name] < order[out[j].Name] })
	return out
}
