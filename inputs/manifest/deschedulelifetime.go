package manifest

import (
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// FailedPodsArgs are RemoveFailedPods' arguments.
type FailedPodsArgs struct {
	ExcludeOwnerKinds       []string `json:"excludeOwnerKinds"`
	MinPodLifetimeSeconds   *uint    `json:"minPodLifetimeSeconds"`
	Reasons                 []string `json:"reasons"`
	ExitCodes               []int32  `json:"exitCodes"`
	IncludingInitContainers bool     `json:"includingInitContainers"`
	PodFilterArgs
}

// PodLifeTimeArgs are PodLifeTime's arguments.
type PodLifeTimeArgs struct {
	OwnerKinds                   *NamespacesArg       `json:"ownerKinds"`
	MaxPodLifeTimeSeconds        *uint                `json:"maxPodLifeTimeSeconds"`
	States                       []string             `json:"states"`
	Conditions                   []PodConditionFilter `json:"conditions"`
	ExitCodes                    []int32              `json:"exitCodes"`
	IncludingInitContainers      bool                 `json:"includingInitContainers"`
	IncludingEphemeralContainers bool                 `json:"includingEphemeralContainers"`
	PodFilterArgs
}

// TooManyRestartsArgs are RemovePodsHavingTooManyRestarts' arguments.
type TooManyRestartsArgs struct {
	PodRestartThreshold     int32    `json:"podRestartThreshold"`
	IncludingInitContainers bool     `json:"includingInitContainers"`
	States                  []string `json:"states"`
	PodFilterArgs
}

// PodConditionFilter is one of PodLifeTime's conditions.
type PodConditionFilter struct {
	Type                              string `json:"type"`
	Status                            string `json:"status"`
	Reason                            string `json:"reason"`
	MinTimeSinceLastTransitionSeconds *uint  `json:"minTimeSinceLastTransitionSeconds"`
}

// defaultMinPodLifetimeSeconds is RemoveFailedPods' default
// minPodLifetimeSeconds (SetDefaults_RemoveFailedPodsArgs).
const defaultMinPodLifetimeSeconds = 3600

// neverStates are the PodLifeTime states no pod of the model is ever in
// (controllers/descheduler, podlifetime.go): its containers never fail to
// pull or terminate and crash only when OOM-killed (crashStates), a pod
// fails only at admission or killed by the kubelet (Evicted, which
// warnEvicted explains), no pod has init containers, and a pod of a node
// that is not Ready is not listed.
var neverStates = []string{"Succeeded", "Unknown", "NodeLost", "Shutdown", "UnexpectedAdmissionError",
	"PodInitializing", "ImagePullBackOff", "CreateContainerConfigError", "ErrImagePull",
	"CreateContainerError", "InvalidImageName",
	"Error", "Completed", "DeadlineExceeded", "ContainerCannotRun", "StartError"}

// crashStates are the PodLifeTime states a pod of the model shows only
// after an OOM kill, which eventMemoryChange past a memory limit makes
// and the model restarts in place.
var crashStates = []string{"CrashLoopBackOff", "OOMKilled"}

// failedPodsArgs reads RemoveFailedPods' args at path pp, validated as
// ValidateRemoveFailedPodsArgs does.
func failedPodsArgs(o Object, pp string, raw []byte, mp *model.DeschedulerProfile, warns *[]Warning) error {
	var args FailedPodsArgs
	f, err := decodeFilteredArgs(o, pp, raw, &args, &args.PodFilterArgs, warns)
	if err != nil {
		return err
	}
	a := model.FailedPodsArgs{Reasons: args.Reasons, ExitCodes: args.ExitCodes, IncludingInitContainers: args.IncludingInitContainers,
		ExcludeOwnerKinds: args.ExcludeOwnerKinds, MinPodLifetimeSeconds: defaultMinPodLifetimeSeconds}
	if args.MinPodLifetimeSeconds != nil {
		a.MinPodLifetimeSeconds = *args.MinPodLifetimeSeconds
	}
	warnOwnerKinds(o, pp+".excludeOwnerKinds", args.ExcludeOwnerKinds, warns)
	if len(args.ExitCodes) > 0 {
		*warns = append(*warns, o.at().warning(o.path(pp+".exitCodes"),
			"no pod of the model matches: it gives a Failed pod no container status (one rejected at admission ran none), so RemoveFailedPods evicts nothing"))
	}
	mp.Deschedule.FailedPods, mp.Deschedule.FailedPodsFilter = a, f
	return nil
}

// podLifeTimeArgs reads PodLifeTime's args at path pp, validated as
// ValidatePodLifeTimeArgs does.
func podLifeTimeArgs(o Object, pp string, raw []byte, mp *model.DeschedulerProfile, warns *[]Warning) error {
	var args PodLifeTimeArgs
	f, err := decodeFilteredArgs(o, pp, raw, &args, &args.PodFilterArgs, warns)
	if err != nil {
		return err
	}
	at := o.at()
	a := model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: args.MaxPodLifeTimeSeconds, States: args.States,
		Conditions: len(args.Conditions), ExitCodes: args.ExitCodes}
	if k := args.OwnerKinds; k != nil {
		if len(k.Include) > 0 && len(k.Exclude) > 0 {
			return at.errorf(o.path(pp+".ownerKinds"), "only one of include and exclude owner kinds can be set (accepted: include or exclude)")
		}
		a.IncludeOwnerKinds, a.ExcludeOwnerKinds = k.Include, k.Exclude
		warnOwnerKinds(o, pp+".ownerKinds.include", k.Include, warns)
		warnOwnerKinds(o, pp+".ownerKinds.exclude", k.Exclude, warns)
	}
	var never, crash []string
	for i, st := range args.States {
		if !slices.Contains(model.PodLifeTimeStates, st) {
			return at.errorf(o.path(index(pp+".states", i)), "%q (accepted: %s)", st, model.AcceptedPodLifeTimeStates())
		}
		if slices.Contains(neverStates, st) {
			never = append(never, st)
		}
		if slices.Contains(crashStates, st) {
			crash = append(crash, st)
		}
	}
	for i, c := range args.Conditions {
		if c.Type == "" && c.Status == "" && c.Reason == "" && c.MinTimeSinceLastTransitionSeconds == nil {
			return at.errorf(o.path(index(pp+".conditions", i)), "empty (accepted: at least one of type, status, reason, minTimeSinceLastTransitionSeconds)")
		}
	}
	if a.MaxPodLifeTimeSeconds == nil && len(a.States) == 0 && a.Conditions == 0 && len(a.ExitCodes) == 0 {
		return at.errorf(o.path(pp), "no filtering criterion (accepted: at least one of maxPodLifeTimeSeconds, states, conditions, exitCodes)")
	}
	if len(never) > 0 {
		*warns = append(*warns, at.warning(o.path(pp+".states"),
			"%s: no pod of the model is ever in these states (its containers always start and terminate only when OOM-killed; no pod has init containers)", strings.Join(never, ", ")))
	}
	if i := slices.Index(args.States, "Evicted"); i >= 0 {
		*warns = append(*warns, at.warning(o.path(index(pp+".states", i)),
			"Evicted: only a pod the kubelet's eviction manager evicted under memory pressure (after an eventMemoryChange) carries this reason in the model; whether a Failed pod was evicted is left open (the checker explores both)"))
	}
	if len(crash) > 0 {
		*warns = append(*warns, at.warning(o.path(pp+".states"),
			"%s: a pod of the model shows these states only after its container was OOM-killed past its memory limit (an eventMemoryChange), which the model restarts in place; whether a cycle sees them then is left open (the checker explores both)", strings.Join(crash, ", ")))
	}
	if a.Conditions > 0 {
		*warns = append(*warns, at.warning(o.path(pp+".conditions"),
			"not modelled: the model has no pod conditions, so any pod may match them (the checker explores both)"))
	}
	switch {
	case slices.Contains(a.ExitCodes, model.OOMKilledExitCode):
		*warns = append(*warns, at.warning(o.path(pp+".exitCodes"),
			"only %d matches a pod of the model: its containers terminate only when OOM-killed past their memory limit (an eventMemoryChange), which the model restarts in place; whether a cycle sees the exit code then is left open (the checker explores both)", model.OOMKilledExitCode))
	case len(a.ExitCodes) > 0:
		*warns = append(*warns, at.warning(o.path(pp+".exitCodes"),
			"no pod of the model matches: its containers terminate only when OOM-killed (exit code %d), so PodLifeTime evicts nothing", model.OOMKilledExitCode))
	}
	mp.Deschedule.PodLifeTime, mp.Deschedule.PodLifeTimeFilter = a, f
	return nil
}

// tooManyRestartsArgs reads RemovePodsHavingTooManyRestarts' args at
// path pp, validated as ValidateRemovePodsHavingTooManyRestartsArgs does.
// A missing or zero podRestartThreshold is refused, as upstream's
// validation refuses its default 0.
func tooManyRestartsArgs(o Object, pp string, raw []byte, mp *model.DeschedulerProfile, warns *[]Warning) error {
	var args TooManyRestartsArgs
	f, err := decodeFilteredArgs(o, pp, raw, &args, &args.PodFilterArgs, warns)
	if err != nil {
		return err
	}
	at := o.at()
	if args.PodRestartThreshold < 1 {
		return at.errorf(o.path(pp+".podRestartThreshold"), "%d (accepted: an integer of at least 1; the descheduler refuses a missing or 0 threshold and does not start)", args.PodRestartThreshold)
	}
	for i, st := range args.States {
		if !slices.Contains(model.TooManyRestartsStates(), st) {
			return at.errorf(o.path(index(pp+".states", i)), "%q (accepted: %s)", st, strings.Join(model.TooManyRestartsStates(), ", "))
		}
	}
	mp.Deschedule.TooManyRestarts = model.TooManyRestartsArgs{PodRestartThreshold: args.PodRestartThreshold,
		IncludingInitContainers: args.IncludingInitContainers, States: args.States}
	mp.Deschedule.TooManyRestartsFilter = f
	return nil
}

// warnOwnerKinds warns about owner kinds that own no pod of the model.
func warnOwnerKinds(o Object, path string, kinds []string, warns *[]Warning) {
	for k, kind := range kinds {
		if !slices.Contains(model.OwnerKinds, kind) {
			*warns = append(*warns, o.at().warning(o.path(index(path, k)),
				"%q owns no pod of the model (its pods' owners are %s; kinds are compared as written, case included)", kind, strings.Join(model.OwnerKinds, ", ")))
		}
	}
}
