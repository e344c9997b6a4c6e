package manifest

import "github.com/kivi-go/kivi/model"

// KubeSchedulerConfiguration is the part of a
// kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration the model
// reads: how many feasible nodes a scheduling cycle scores
// (model/nodestoscore.go) and the default-scheduler profile's plugins and
// plugin arguments that change scoring (schedulerprofile.go).
type KubeSchedulerConfiguration struct {
	TypeMeta
	PercentageOfNodesToScore *int32                 `json:"percentageOfNodesToScore"`
	Profiles                 []KubeSchedulerProfile `json:"profiles"`
}

// KubeSchedulerProfile is one profile of a KubeSchedulerConfiguration.
type KubeSchedulerProfile struct {
	SchedulerName            string                  `json:"schedulerName"`
	PercentageOfNodesToScore *int32                  `json:"percentageOfNodesToScore"`
	Plugins                  *SchedulerPlugins       `json:"plugins"`
	PluginConfig             []SchedulerPluginConfig `json:"pluginConfig"`
}

// defaultSchedulerName is the profile the model's pods are scheduled by
// (a profile without schedulerName is it).
const defaultSchedulerName = "default-scheduler"

// schedulerConfigRules classifies a KubeSchedulerConfiguration's other
// fields: those that change where pods go are warned about.
var schedulerConfigRules = []fieldRule{
	{"extenders", "scheduler extenders are not modelled"},
	{"podInitialBackoffSeconds", "the scheduling queue's backoff is not modelled"},
	{"podMaxBackoffSeconds", "the scheduling queue's backoff is not modelled"},
	{"parallelism", ""}, {"leaderElection", ""}, {"clientConnection", ""}, {"healthzBindAddress", ""},
	{"metricsBindAddress", ""}, {"enableProfiling", ""}, {"enableContentionProfiling", ""},
	{"delayCacheUntilActive", ""},
}

// schedulerDecl reads the input's KubeSchedulerConfiguration (at most
// one) into c, validating percentageOfNodesToScore as kube-scheduler
// does (0 to 100, 0 being its adaptive default), and the default-scheduler
// profile's plugins and arguments (profileDecl).
func schedulerDecl(objs []Object, c *model.Cluster, nodes nodeLabels, warns *[]Warning) error {
	var first *Object
	for i := range objs {
		o := &objs[i]
		cfg, ok := o.Value.(*KubeSchedulerConfiguration)
		if !ok {
			continue
		}
		if first != nil {
			return o.at().errorf(o.path(""), "a second KubeSchedulerConfiguration (the first is in %s document %d; accepted: one)", first.File, first.Doc)
		}
		first = o
		p, err := percentageOfNodesToScore(*o, "percentageOfNodesToScore", cfg.PercentageOfNodesToScore)
		if err != nil {
			return err
		}
		for j := range cfg.Profiles {
			prof := &cfg.Profiles[j]
			path := index("profiles", j)
			if prof.SchedulerName != "" && prof.SchedulerName != defaultSchedulerName {
				continue
			}
			if c.Scheduler.Profile, err = profileDecl(*o, path, prof, nodes, warns); err != nil {
				return err
			}
			if prof.PercentageOfNodesToScore == nil {
				continue
			}
			if p, err = percentageOfNodesToScore(*o, path+".percentageOfNodesToScore", prof.PercentageOfNodesToScore); err != nil {
				return err
			}
		}
		c.Scheduler.PercentageOfNodesToScore = p
	}
	return nil
}

func percentageOfNodesToScore(o Object, field string, v *int32) (int, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 0 || *v > 100 {
		return 0, o.at().errorf(o.path(field), "%d (accepted: 0 to 100; 0 is kube-scheduler's adaptive default)", *v)
	}
	return int(*v), nil
}
