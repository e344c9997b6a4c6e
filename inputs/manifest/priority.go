package manifest

import (
	"math"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// PriorityClass is scheduling.k8s.io/v1 PriorityClass: a name for a pod
// priority value, the default of pods that name no class when
// globalDefault is set, and the preemption policy of the pods that use
// it.
type PriorityClass struct {
	TypeMeta
	Metadata         ObjectMeta `json:"metadata"`
	Value            *int64     `json:"value"`
	GlobalDefault    bool       `json:"globalDefault"`
	PreemptionPolicy *string    `json:"preemptionPolicy"`
	Description      string     `json:"description"`
}

// priorityClassTable is what the priority admission plugin resolves a
// pod's priority against: the classes of the input and the two built-in
// system classes.
type priorityClassTable struct {
	classes []model.PriorityClassDecl
	// def is the globalDefault class, nil when there is none.
	def *model.PriorityClassDecl
}

// builtinPriorityClasses are the classes the API server creates itself.
var builtinPriorityClasses = []model.PriorityClassDecl{
	{Name: model.SystemClusterCritical, Value: model.SystemCriticalPriority, PreemptionPolicy: model.PreemptLowerPriority},
	{Name: model.SystemNodeCritical, Value: model.SystemNodeCriticalPriority, PreemptionPolicy: model.PreemptLowerPriority},
}

// priorityClassDecls converts every PriorityClass among objs, validated
// as the API server validates it (ValidatePriorityClass and the
// admission plugin): a value at most 1000000000 for a class a user
// defines, no user class named system-*, one class per name, at most one
// globalDefault, a preemptionPolicy of PreemptLowerPriority (the
// default) or Never.
func priorityClassDecls(objs []Object) ([]model.PriorityClassDecl, error) {
	var out []model.PriorityClassDecl
	seen := firstSeen{}
	var def *Object
	for _, o := range objs {
		pc, ok := o.Value.(*PriorityClass)
		if !ok {
			continue
		}
		a := o.at()
		name := pc.Metadata.Name
		if name == "" {
			return nil, a.errorf(o.path("metadata.name"), "empty (accepted: the class's name)")
		}
		if err := seen.add(o, "PriorityClass", name, "name"); err != nil {
			return nil, err
		}
		if strings.HasPrefix(name, "system-") {
			return nil, a.errorf(o.path("metadata.name"), "%q: the prefix system- is reserved for the built-in classes %s and %s (accepted: another name)", name, model.SystemClusterCritical, model.SystemNodeCritical)
		}
		if pc.Value == nil {
			return nil, a.errorf(o.path("value"), "required (accepted: an integer up to %d)", model.HighestUserDefinablePriority)
		}
		if v := *pc.Value; v > int64(model.HighestUserDefinablePriority) || v < math.MinInt32 {
			return nil, a.errorf(o.path("value"), "%d (accepted: an integer from %d to %d; higher values are reserved for system classes)", v, math.MinInt32, model.HighestUserDefinablePriority)
		}
		d := model.PriorityClassDecl{Name: name, Value: int32(*pc.Value), GlobalDefault: pc.GlobalDefault, PreemptionPolicy: model.PreemptLowerPriority}
		if pc.PreemptionPolicy != nil {
			switch p := model.PreemptionPolicy(*pc.PreemptionPolicy); p {
			case model.PreemptLowerPriority, model.PreemptNever:
				d.PreemptionPolicy = p
			default:
				return nil, a.errorf(o.path("preemptionPolicy"), "%q (accepted: PreemptLowerPriority, Never)", *pc.PreemptionPolicy)
			}
		}
		if pc.GlobalDefault {
			if def != nil {
				return nil, a.errorf(o.path("globalDefault"), "true, but PriorityClass %s (%s document %d) is the global default already (accepted: one global default)", def.Value.(*PriorityClass).Metadata.Name, def.File, def.Doc)
			}
			oc := o
			def = &oc
		}
		out = append(out, d)
	}
	return out, nil
}

// newPriorityClassTable returns the table of the input's classes and the
// built-in ones.
func newPriorityClassTable(classes []model.PriorityClassDecl) *priorityClassTable {
	t := &priorityClassTable{classes: append(slices.Clone(builtinPriorityClasses), classes...)}
	for i := range t.classes {
		if t.classes[i].GlobalDefault {
			t.def = &t.classes[i]
		}
	}
	return t
}

func (t *priorityClassTable) find(name string) (model.PriorityClassDecl, bool) {
	for _, c := range t.classes {
		if c.Name == name {
			return c, true
		}
	}
	return model.PriorityClassDecl{}, false
}

func (t *priorityClassTable) names() string {
	out := make([]string, len(t.classes))
	for i, c := range t.classes {
		out[i] = c.Name
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// priority resolves a pod spec's priority and preemption policy as the
// priority admission plugin does when the pod is created: the class
// named by priorityClassName (an unknown name is rejected), else the
// globalDefault class, else priority 0 and PreemptLowerPriority; a
// priority or preemptionPolicy written in the spec must equal the
// resolved one. A nil table reads a pod that was admitted already (a
// running cluster's pods): its spec.priority and preemptionPolicy as
// they are.
func (tc templateConv) priority(td *model.TemplateDecl, spec PodSpec) error {
	if tc.classes == nil {
		td.PriorityClassName = spec.PriorityClassName
		if spec.Priority != nil {
			td.Priority = *spec.Priority
		}
		if spec.PreemptionPolicy != nil {
			td.PreemptionPolicy = model.PreemptionPolicy(*spec.PreemptionPolicy)
		}
		return nil
	}
	class := model.PriorityClassDecl{PreemptionPolicy: model.PreemptLowerPriority}
	from := "with no priorityClassName and no globalDefault PriorityClass"
	if spec.PriorityClassName != "" {
		from = "from PriorityClass " + spec.PriorityClassName
		c, ok := tc.classes.find(spec.PriorityClassName)
		if !ok {
			return tc.errorf("spec.priorityClassName", "no PriorityClass with name %s was found: the priority admission plugin rejects the pod (classes: %s)", spec.PriorityClassName, tc.classes.names())
		}
		class = c
	} else if tc.classes.def != nil {
		class = *tc.classes.def
		from = "from the globalDefault PriorityClass " + class.Name
	}
	if spec.Priority != nil && *spec.Priority != class.Value {
		return tc.errorf("spec.priority", "%d: the priority admission plugin computes %d %s and rejects the pod (accepted: no value, or %d)", *spec.Priority, class.Value, from, class.Value)
	}
	if p := spec.PreemptionPolicy; p != nil && model.PreemptionPolicy(*p) != class.PreemptionPolicy {
		switch model.PreemptionPolicy(*p) {
		case model.PreemptLowerPriority, model.PreemptNever:
			return tc.errorf("spec.preemptionPolicy", "%s: the priority admission plugin computes %s %s and rejects the pod (accepted: no value, or %s)", *p, class.PreemptionPolicy, from, class.PreemptionPolicy)
		default:
			return tc.errorf("spec.preemptionPolicy", "%q (accepted: PreemptLowerPriority, Never)", *p)
		}
	}
	td.Priority, td.PreemptionPolicy = class.Value, class.PreemptionPolicy
	// The admission plugin writes the class it resolved (the global
	// default included) into the pod: quota scopes select by it.
	td.PriorityClassName = class.Name
	return nil
}

// priorityThreshold reads the DefaultEvictor's priorityThreshold as the
// descheduler does (ValidateDefaultEvictorArgs and
// GetPriorityValueFromPriorityThreshold): a value or the name of a
// PriorityClass, not both, at most system-cluster-critical's priority.
// With evictSystemCriticalPods the protection is off and the threshold
// has no effect.
func priorityThreshold(o Object, path string, args DefaultEvictorArgs, classes *priorityClassTable, mp *model.DeschedulerProfile, warns *[]Warning) error {
	pt := args.PriorityThreshold
	if pt == nil || pt.Value == nil && pt.Name == "" {
		return nil
	}
	a := o.at()
	if pt.Value != nil && pt.Name != "" {
		return a.errorf(o.path(path), "both name and value are set (accepted: one of them)")
	}
	var v int64
	if pt.Value != nil {
		v = *pt.Value
		if v < math.MinInt32 {
			return a.errorf(o.path(path+".value"), "%d (accepted: an integer from %d to %d)", v, math.MinInt32, model.SystemCriticalPriority)
		}
	} else {
		if classes == nil {
			classes = newPriorityClassTable(nil)
		}
		c, ok := classes.find(pt.Name)
		if !ok {
			return a.errorf(o.path(path+".name"), "no PriorityClass with name %s (classes: %s)", pt.Name, classes.names())
		}
		v = int64(c.Value)
	}
	if v > int64(model.SystemCriticalPriority) {
		return a.errorf(o.path(path), "%d: the priority threshold can't be greater than %d (accepted: at most system-cluster-critical's priority)", v, model.SystemCriticalPriority)
	}
	if args.EvictSystemCriticalPods {
		*warns = append(*warns, a.warning(o.path(path), "ignored: evictSystemCriticalPods turns the priority protection off"))
		return nil
	}
	t := int32(v)
	mp.PriorityThreshold = &t
	return nil
}
