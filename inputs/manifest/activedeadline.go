package manifest

import "math"

// activeDeadline reads the pod spec's activeDeadlineSeconds, which puts
// the pods in the ResourceQuota scope Terminating (the model enforces no
// deadline: the Job reader warns about its own). The API server accepts
// 1 to 2³²−1 seconds, and refuses the field in the pod template of a
// Deployment, StatefulSet or DaemonSet (apps validation: its pods are
// meant to run for ever).
func (tc templateConv) activeDeadline(spec PodSpec) (bool, error) {
	v := spec.ActiveDeadlineSeconds
	if v == nil {
		return false, nil
	}
	switch tc.o.Kind {
	case "Deployment", "StatefulSet", "DaemonSet":
		return false, tc.errorf("spec.activeDeadlineSeconds", "%d: the API server refuses an activeDeadlineSeconds in a %s's pod template (accepted: none; in a Job's pod template, 1 to %d)", *v, tc.o.Kind, uint32(math.MaxUint32))
	}
	if *v < 1 || *v > math.MaxUint32 {
		return false, tc.errorf("spec.activeDeadlineSeconds", "%d (accepted: 1 to %d seconds)", *v, uint32(math.MaxUint32))
	}
	return true, nil
}
