package quotadiff

import (
	"fmt"

	"github.com/kivi-go/kivi/fidelity/podspec"
	"github.com/kivi-go/kivi/model"
)

// ModelRefusal is the model's answer for the case's new pod:
// manifest.LoadStream on the case's YAML (the quotas and templates as
// the reader keeps them), the existing pods put in a state in the
// model's phases (a deleted pod Terminating; a Succeeded pod's object is
// gone, as the Job model frees its slot at once), and
// model.Universe.QuotaRefusal. "" is admitted.
func ModelRefusal(c *Case) (string, error) {
	r, u, s, err := podspec.BuildCase(c.YAML())
	if err != nil {
		return "", err
	}
	tmpl := make([]int, len(c.Specs))
	for i := range c.Specs {
		tmpl[i] = -1
		for _, dd := range r.Cluster.Deployments {
			if dd.Name != workloadName(i) && dd.Name != Namespace+"/"+workloadName(i) {
				continue
			}
			for k, t := range u.Templates {
				if t.Name == dd.Template {
					tmpl[i] = k
				}
			}
		}
		if tmpl[i] < 0 {
			return "", fmt.Errorf("model: no template for %s (deployments %v)", workloadName(i), r.Cluster.Deployments)
		}
	}
	s.Pods = nil
	for _, p := range c.Pods {
		ps := model.PodState{Template: uint8(tmpl[p.Spec]), Node: 1}
		switch {
		case p.Phase == Succeeded:
			continue
		case p.Phase == Failed:
			ps.Phase = model.Failed
		case p.Deleted:
			ps.Phase = model.Terminating
		case p.Phase == Pending:
			ps.Phase = model.Pending
		default:
			ps.Phase = model.Running
		}
		s.Pods = append(s.Pods, ps)
	}
	msg, _ := u.QuotaRefusal(s, tmpl[c.New])
	return msg, nil
}
