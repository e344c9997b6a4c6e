package hpa

import "github.com/kivi-go/kivi/model"

// missingRequest reports whether the replica calculator fails to read the
// request of resource r of some pod the HPA of deployment d lists: calculateRequests
// sums the requests of every pod the HPA's selector lists (any phase,
// terminating ones too) and returns an error for a pod with a container
// that does not request r (model.PodTemplate.MissingMetricRequest). A
// Utilization metric is then invalid, whatever the other pods use.
func missingRequest(u *model.Universe, s *model.State, d int, spec *model.HPA, r model.MetricSource) bool {
	for i := range s.Pods {
		p := &s.Pods[i]
		if lists(spec, d, p) && u.Templates[p.Template].MissingMetricRequest[r] != "" {
			return true
		}
	}
	return false
}
