package scripttest

import (
	"github.com/kivi-go/kivi/controllers/deployment"
	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/controllers/nodelifecycle"
	"github.com/kivi-go/kivi/controllers/podgc"
	"github.com/kivi-go/kivi/model"
)

// Processes returns the workload controllers and the stand-in scheduler
// by script name.
func Processes() map[string]model.Process {
	return map[string]model.Process{
		"deployment":     deployment.New(),
		"kubelet":        kubelet.New(),
		"nodecontroller": nodelifecycle.NewNodeController(),
		"taintmanager":   nodelifecycle.NewTaintManager(),
		"podgc":          podgc.New(),
		"hpa":            hpa.New(),
		"scheduler":      FirstFit{},
	}
}
