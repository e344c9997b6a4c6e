package manifest

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// kiviClusterConfig is Kivi's user_input/cluster_configs.json
// (Kivi's inputs and CLI §b.2).
type kiviClusterConfig struct {
	NodesTypes []struct {
		Template struct {
			CPU    QuantityText      `json:"cpu"`
			Memory QuantityText      `json:"memory"`
			Labels map[string]string `json:"labels"`
			Taint  []string          `json:"taint"`
			Status *int              `json:"status"`
		} `json:"template"`
		Num     int `json:"num"`
		MinSize int `json:"minSize"`
		MaxSize int `json:"maxSize"`
	} `json:"nodesTypes"`
	DTypes []struct {
		Name      string `json:"name"`
		Num       *int   `json:"num"`
		MinSize   int    `json:"minSize"`
		MaxSize   int    `json:"maxSize"`
		HPAFactor *int   `json:"HPAfactor"`
	} `json:"dTypes"`
	EventsAssumption []kiviEvent `json:"events_assumption"`
	MaxPodPerNode    *int        `json:"max_pod_per_node"`
	NodesScaleType   string      `json:"nodesScaleType"`
	DScaleType       string      `json:"dScaleType"`
}

// kiviHPAFactor is Kivi's default HPAfactor: in scaling setups an HPA
// ranges over replicas..2·replicas.
const kiviHPAFactor = 2

// kiviMaxPodPerNode is Kivi's default max_pod_per_node.
const kiviMaxPodPerNode = 7

func parseKiviClusterConfig(file string, data []byte) (*kiviClusterConfig, error) {
	js, err := toJSON(data)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	var cc kiviClusterConfig
	a := at{file: file}
	unknown, err := strictDecode(a, "", js, &cc)
	if err != nil {
		return nil, err
	}
	if len(unknown) > 0 {
		return nil, a.errorf(unknown[0], "unknown field (accepted: nodesTypes, dTypes, events_assumption, max_pod_per_node, nodesScaleType, dScaleType)")
	}
	return &cc, nil
}

// kiviMemory converts a node type's memory: Kivi reads a bare integer as
// GiB (its parser's convention), a string as a Kubernetes quantity.
func kiviMemory(a at, path string, t QuantityText) (int64, error) {
	if !t.NotScalar && t.Text != "" && isAllDigits(t.Text) {
		t = QuantityText{Text: t.Text + "Gi"}
	}
	return parseResource(a, path, t, memoryCapacity)
}

func isAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// kiviTaint parses Kivi's "key=value:Effect" taint strings.
func kiviTaint(a at, path, s string) (model.Taint, error) {
	kv, eff, ok := strings.Cut(s, ":")
	if !ok || !containsString(effects, eff) {
		return model.Taint{}, a.errorf(path, "%q (accepted: key=value:Effect with Effect NoSchedule, PreferNoSchedule or NoExecute)", s)
	}
	k, v, _ := strings.Cut(kv, "=")
	if k == "" {
		return model.Taint{}, a.errorf(path, "%q has no key (accepted: key=value:Effect)", s)
	}
	return model.Taint{Key: k, Value: v, Effect: model.TaintEffect(eff)}, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// applyNodeTypes sets the cluster's node types and original topology from
// Kivi's node types: type i has num nodes, named 1..N in order, and the
// scaling search ranges over minSize..maxSize of it.
func applyNodeTypes(file string, cc *kiviClusterConfig, c *model.Cluster) error {
	a := at{file: file}
	for i, nt := range cc.NodesTypes {
		p := index("nodesTypes", i)
		cpu, err := parseResource(a, p+".template.cpu", nt.Template.CPU, cpuCapacity)
		if err != nil {
			return err
		}
		mem, err := kiviMemory(a, p+".template.memory", nt.Template.Memory)
		if err != nil {
			return err
		}
		if nt.Num < 0 || nt.Num > model.MaxNodes {
			return a.errorf(p+".num", "%d (accepted: 0..%d nodes)", nt.Num, model.MaxNodes)
		}
		if nt.MinSize < 0 || nt.MaxSize < nt.MinSize || nt.MaxSize > model.MaxNodes {
			return a.errorf(p, "minSize %d, maxSize %d (accepted: 0 ≤ minSize ≤ maxSize ≤ %d)", nt.MinSize, nt.MaxSize, model.MaxNodes)
		}
		t := model.NodeType{Name: fmt.Sprintf("node type %d", i), CPU: cpu, Memory: mem, Labels: nt.Template.Labels,
			Min: nt.MinSize, Max: nt.MaxSize}
		for j, s := range nt.Template.Taint {
			taint, err := kiviTaint(a, index(p+".template.taint", j), s)
			if err != nil {
				return err
			}
			t.Taints = append(t.Taints, taint)
		}
		c.NodeTypes = append(c.NodeTypes, t)
		if nt.Num > 0 {
			c.Nodes = append(c.Nodes, model.NodeGroup{Type: t.Name, Count: nt.Num})
		}
	}
	return nil
}

// applyDTypes sets replicas and scaling bounds of the deployments named
// in dTypes.
func applyDTypes(file string, cc *kiviClusterConfig, c *model.Cluster) error {
	a := at{file: file}
	perNode := kiviMaxPodPerNode
	if cc.MaxPodPerNode != nil {
		if *cc.MaxPodPerNode < 1 || *cc.MaxPodPerNode > 250 {
			return a.errorf("max_pod_per_node", "%d (accepted: 1..250)", *cc.MaxPodPerNode)
		}
		perNode = *cc.MaxPodPerNode
	}
	for _, st := range []struct{ field, v string }{{"nodesScaleType", cc.NodesScaleType}, {"dScaleType", cc.DScaleType}} {
		if st.v != "" && st.v != "free" {
			return a.errorf(st.field, "%q is not supported (accepted: free)", st.v)
		}
	}
	for i := range c.Deployments {
		c.Deployments[i].MaxPodsPerNode = perNode
	}
	for i, dt := range cc.DTypes {
		p := index("dTypes", i)
		di := -1
		var names []string
		for j, d := range c.Deployments {
			names = append(names, d.Name)
			if d.Name == dt.Name {
				di = j
			}
		}
		if di < 0 {
			return a.errorf(p+".name", "no Deployment %q in the manifests (deployments: %s)", dt.Name, strings.Join(names, ", "))
		}
		d := &c.Deployments[di]
		if dt.Num != nil {
			if *dt.Num < 0 || *dt.Num > maxReplicas {
				return a.errorf(p+".num", "%d (accepted: 0..%d replicas)", *dt.Num, maxReplicas)
			}
			d.Replicas = *dt.Num
		}
		if dt.MinSize < 0 || dt.MaxSize < dt.MinSize || dt.MaxSize > maxReplicas {
			return a.errorf(p, "minSize %d, maxSize %d (accepted: 0 ≤ minSize ≤ maxSize ≤ %d)", dt.MinSize, dt.MaxSize, maxReplicas)
		}
		d.MinReplicas, d.MaxReplicas = dt.MinSize, dt.MaxSize
		if d.HPA != nil {
			d.HPA.Factor = kiviHPAFactor
			if dt.HPAFactor != nil {
				if *dt.HPAFactor < 1 || *dt.HPAFactor > 100 {
					return a.errorf(p+".HPAfactor", "%d (accepted: 1..100)", *dt.HPAFactor)
				}
				d.HPA.Factor = *dt.HPAFactor
			}
		}
	}
	return nil
}
