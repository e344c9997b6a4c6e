package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// kiviEvent is an event or user command entry of Kivi's JSON
// (inputs-and-cli.md §a.7): name, para (an int or an object),
// after_stable, first.
type kiviEvent struct {
	Name        string          `json:"name"`
	Para        json.RawMessage `json:"para"`
	AfterStable bool            `json:"after_stable"`
	First       json.RawMessage `json:"first"`
	Priority    *int            `json:"priority"`
}

// intentEntry is one intent: Kivi writes its parameters as "para", our
// case files as "params".
type intentEntry struct {
	Name   string         `json:"name"`
	Para   map[string]any `json:"para"`
	Params map[string]any `json:"params"`
}

// intentsDoc is the object form of an intents file: intents and events
// together (Kivi's intents.json is just the list of intents).
type intentsDoc struct {
	Intents []intentEntry `json:"intents"`
	Events  []kiviEvent   `json:"events"`
}

// parseIntents reads an intents file: Kivi's list of {name, para}, or an
// object {intents: [...], events: [...]} with Kivi's event entries.
func parseIntents(file string, data []byte) ([]model.IntentDecl, []kiviEvent, error) {
	js, err := toJSON(data)
	if err != nil {
		return nil, nil, &Error{File: file, Msg: err.Error()}
	}
	a := at{file: file}
	var doc intentsDoc
	trimmed := bytes.TrimSpace(js)
	switch {
	case isNull(js):
		return nil, nil, nil
	case len(trimmed) > 0 && trimmed[0] == '[':
		if _, err := strictDecode(a, "", js, &doc.Intents); err != nil {
			return nil, nil, err
		}
	case len(trimmed) > 0 && trimmed[0] == '{':
		unknown, err := strictDecode(a, "", js, &doc)
		if err != nil {
			return nil, nil, err
		}
		if len(unknown) > 0 {
			return nil, nil, a.errorf(unknown[0], "unknown field (accepted: intents, events)")
		}
	default:
		return nil, nil, a.errorf("", "an intents file is a list of {name, para} or an object {intents, events}")
	}
	var out []model.IntentDecl
	for i, e := range doc.Intents {
		if e.Name == "" {
			return nil, nil, a.errorf(fmt.Sprintf("[%d].name", i), "required (accepted: an intent name such as pod_always_schedulable)")
		}
		p := e.Params
		if p == nil {
			p = e.Para
		} else if e.Para != nil {
			return nil, nil, a.errorf(fmt.Sprintf("[%d]", i), "give para or params, not both")
		}
		out = append(out, model.IntentDecl{Name: e.Name, Params: plainNumbers(p)})
	}
	return out, doc.Events, nil
}

// plainNumbers turns integral JSON numbers into int, the type intent
// parameters are read as.
func plainNumbers(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	out := map[string]any{}
	for k, v := range m {
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<31 {
			v = int(f)
		}
		if n, ok := v.(int64); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
			v = int(n)
		}
		out[k] = v
	}
	return out
}

var eventKinds = []string{"eventCpuChange", "kernelPanic", "maintenance", "nodeFailure", "createTargetDeployment",
	"applyDeployment", "createDeployment", "scaleDeployment"}

// eventDecl converts one Kivi event entry. deployments are the model's
// deployment names in order (para integers are 1-based positions, names
// are Kivi's deployment names).
func eventDecl(a at, path string, e kiviEvent, deployments []string) (model.EventDecl, error) {
	ed := model.EventDecl{Kind: e.Name}
	known := false
	for _, k := range eventKinds {
		known = known || k == e.Name
	}
	if !known {
		return ed, a.errorf(path+".name", "unknown event %q (accepted: %s)", e.Name, strings.Join(eventKinds, ", "))
	}
	switch {
	case len(e.First) > 0 && string(e.First) != "null":
		ed.When = "first"
	case e.AfterStable:
		ed.When = "afterStable"
	}
	deployment := func(p string, v any) (string, error) {
		switch x := v.(type) {
		case string:
			for _, d := range deployments {
				if d == x {
					return d, nil
				}
			}
			return "", a.errorf(p, "no deployment %q (deployments: %s)", x, strings.Join(deployments, ", "))
		case float64:
			if x >= 1 && int(x) <= len(deployments) && x == math.Trunc(x) {
				return deployments[int(x)-1], nil
			}
			return "", a.errorf(p, "%v (accepted: a deployment name or its 1-based position 1..%d)", x, len(deployments))
		}
		return "", a.errorf(p, "accepted: a deployment name or its 1-based position")
	}
	if len(e.Para) == 0 || string(e.Para) == "null" {
		if e.Name == "eventCpuChange" || e.Name == "createTargetDeployment" {
			return ed, a.errorf(path+".para", "required for %s (accepted: {targetDeployment: NAME} or a deployment position)", e.Name)
		}
		return ed, nil
	}
	var para any
	if err := json.Unmarshal(e.Para, &para); err != nil {
		return ed, a.errorf(path+".para", "not valid JSON")
	}
	intArg := func(p string, v any, what string) (int, error) {
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || f < 0 || f > 1000 {
			return 0, a.errorf(p, "%v (accepted: %s)", v, what)
		}
		return int(f), nil
	}
	var err error
	switch p := para.(type) {
	case float64:
		switch e.Name {
		case "eventCpuChange", "createTargetDeployment":
			ed.Deployment, err = deployment(path+".para", p)
		case "maintenance":
			ed.Parallel, err = intArg(path+".para", p, "the number of nodes maintained at once")
		case "nodeFailure":
			ed.Node = fmt.Sprint(int(p))
		default:
			return ed, a.errorf(path+".para", "%s takes no integer parameter", e.Name)
		}
	case map[string]any:
		for _, k := range sortedKeys(p) {
			v := p[k]
			kp := path + ".para." + k
			switch {
			case k == "targetDeployment":
				ed.Deployment, err = deployment(kp, v)
			case k == "p" && e.Name == "maintenance":
				ed.Parallel, err = intArg(kp, v, "the number of nodes maintained at once")
			case k == "maxDelta" && (e.Name == "eventCpuChange" || e.Name == "scaleDeployment"):
				ed.MaxDelta, err = intArg(kp, v, "the largest change, ≥ 1, in model units (millicores for CPU)")
			case k == "node" && e.Name == "nodeFailure":
				ed.Node = fmt.Sprint(v)
			case k == "template" && (e.Name == "applyDeployment" || e.Name == "createDeployment"):
				ed.Template = fmt.Sprint(v)
			default:
				return ed, a.errorf(kp, "unknown parameter of %s", e.Name)
			}
			if err != nil {
				return ed, err
			}
		}
	default:
		return ed, a.errorf(path+".para", "accepted: an integer or an object")
	}
	return ed, err
}

// cpuChangeSteps is how many different amounts a CPU change explores.
const cpuChangeSteps = 6

// cpuSteps spreads CPU changes of up to largest millicores over at most
// cpuChangeSteps evenly spaced amounts: (steps, unit) with steps·unit ≤
// largest, the amounts being unit, 2·unit, … steps·unit, the top one as
// close to largest as such a spacing allows. Kivi's cases change CPU by
// 1..6 of 8 units; a change per millicore would explore hundreds of
// successors that no controller tells apart.
func cpuSteps(largest int) (steps, unit int) {
	largest = max(largest, 1)
	if largest <= cpuChangeSteps {
		return largest, 1
	}
	// Either the unit rounded down (all six steps) or rounded up (fewer
	// steps): whichever reaches further, six steps on a tie.
	down := largest / cpuChangeSteps
	up := (largest + cpuChangeSteps - 1) / cpuChangeSteps
	if (largest/up)*up > cpuChangeSteps*down {
		return largest / up, up
	}
	return cpuChangeSteps, down
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// defaultCPUDelta is the default largest CPU increase of eventCpuChange:
// ¾ of the target's CPU request, Kivi's ratio (Δ ≤ 6 on requests of 8),
// in millicores; at least 1.
func defaultCPUDelta(c *model.Cluster, deployment string) int {
	for _, d := range c.Deployments {
		if d.Name != deployment {
			continue
		}
		for _, t := range c.Templates {
			if t.Name == d.Template {
				return int(max((t.CPU*6+7)/8, 1))
			}
		}
	}
	return 1
}

// addEvents converts event entries and applies the CPU delta default.
func (as *assembly) addEvents(file, field string, events []kiviEvent) error {
	var names []string
	for _, d := range as.c.Deployments {
		names = append(names, d.Name)
	}
	for i, e := range events {
		ed, err := eventDecl(at{file: file}, index(field, i), e, names)
		if err != nil {
			return err
		}
		if ed.Kind == "eventCpuChange" {
			largest := ed.MaxDelta
			if largest == 0 {
				largest = defaultCPUDelta(as.c, ed.Deployment)
			}
			ed.MaxDelta, ed.DeltaUnit = cpuSteps(largest)
		}
		as.c.Events = append(as.c.Events, ed)
	}
	return nil
}
