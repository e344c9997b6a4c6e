package scheddiff

import (
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// Label keys and values the generator draws from: few, so that selectors,
// affinity terms and spread constraints hit the nodes' labels often.
const (
	ZoneKey = "topology.kubernetes.io/zone"
	DiskKey = "disk"
	// InvalidValue is a label value of invalid syntax (a '!'); the API
	// server would reject an object carrying it, the in-process framework
	// and the model are handed it all the same.
	InvalidValue = "ssd!"
	maxNodes     = 6
	maxExisting  = 8
)

// nodeKeys are the node label keys that selectors and topology keys use:
// the model's hostname alias is among them on purpose.
var nodeKeys = []string{ZoneKey, DiskKey, model.HostnameKey, model.KiviHostnameKey}

// valuesOf returns the values selectors draw for node label key k.
func valuesOf(k string) []string {
	switch k {
	case ZoneKey:
		return []string{"z1", "z2", "z3"}
	case DiskKey:
		return []string{"ssd", "hdd", InvalidValue}
	default:
		var names []string
		for i := range maxNodes {
			names = append(names, NodeName(i))
		}
		return names
	}
}

// oneIn draws true with probability 1/n.
func oneIn(t *rapid.T, n int, label string) bool { return rapid.IntRange(1, n).Draw(t, label) == 1 }

// Generate draws a snapshot whose pods the API server accepts: a draw
// whose matchLabelKeys or mismatchLabelKeys it rejects (Rejections) loses
// them all. GenerateAny keeps them.
func Generate(t *rapid.T) *Snapshot {
	s := GenerateAny(t)
	if len(s.Rejections()) > 0 {
		s.dropLabelKeys()
	}
	return s
}

// GenerateAny draws a snapshot, possibly with label keys the API server
// rejects.
func GenerateAny(t *rapid.T) *Snapshot {
	s := &Snapshot{}
	nn := rapid.IntRange(1, maxNodes).Draw(t, "nodes")
	// A third of the snapshots are GPU clusters: nodes with 0 to 4
	// nvidia.com/gpu (or none listed), pods asking for 0 to 2.
	gpus := oneIn(t, 3, "gpus")
	for range nn {
		n := Node{Labels: map[string]string{},
			// Capacities of 1 to 8 cores and 1 to 8 GiB against requests
			// of at most 1 core and 1 GiB: most nodes fit the pod, a few
			// existing pods can fill a small node.
			MilliCPU: 250 * rapid.Int64Range(4, 32).Draw(t, "cpu"),
			MemMiB:   256 * rapid.Int64Range(4, 32).Draw(t, "mem"),
			MaxPods:  rapid.SampledFrom([]int{110, 1, 2, 3}).Draw(t, "maxPods"),
			Ready:    !oneIn(t, 6, "notReady"),
		}
		if !n.Ready {
			n.Down = NodeDown(rapid.IntRange(0, int(numNodeDown)-1).Draw(t, "down"))
		}
		if z := rapid.IntRange(0, 3).Draw(t, "zone"); z > 0 {
			n.Labels[ZoneKey] = valuesOf(ZoneKey)[z-1]
		}
		switch rapid.IntRange(0, 9).Draw(t, "disk") {
		case 1, 2, 3:
			n.Labels[DiskKey] = "ssd"
		case 4, 5, 6:
			n.Labels[DiskKey] = "hdd"
		case 7:
			n.Labels[DiskKey] = InvalidValue
		}
		// Most nodes have no taint: untolerated NoSchedule and
		// NoExecute taints reject the node.
		for range []int{0, 0, 0, 0, 1, 2}[rapid.IntRange(0, 5).Draw(t, "taints")] {
			n.Taints = append(n.Taints, model.Taint{
				Key:    rapid.SampledFrom([]string{"dedicated", "gpu"}).Draw(t, "taintKey"),
				Value:  rapid.SampledFrom([]string{"a", "b"}).Draw(t, "taintValue"),
				Effect: rapid.SampledFrom([]model.TaintEffect{model.NoSchedule, model.PreferNoSchedule, model.NoExecute}).Draw(t, "effect"),
			})
		}
		if gpus {
			if g := rapid.IntRange(-1, 4).Draw(t, "nodeGPUs"); g >= 0 {
				n.Scalar = map[string]int64{gpu: int64(g)}
			}
		}
		s.Nodes = append(s.Nodes, n)
	}
	incoming := map[string]string{appLabel: incomingApp, hashLabel: incomingHash}
	if tier := rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "tier"); tier != "" {
		incoming["tier"] = tier
	}
	// The pending pod's requests first: its ReplicaSet's pods share them
	// (in the model they are one template).
	pendingReq := genRequests(t, gpus)
	for range rapid.IntRange(0, maxExisting).Draw(t, "existing") {
		p := Pod{Node: rapid.IntRange(0, nn-1).Draw(t, "node"), SameRS: oneIn(t, 3, "sameRS")}
		p.Bare = !p.SameRS && oneIn(t, 5, "bare")
		if p.SameRS {
			p.Labels, p.Req = incoming, pendingReq
		} else {
			p.Req = genRequests(t, gpus)
			p.Labels = map[string]string{appLabel: rapid.SampledFrom([]string{"web", "db", incomingApp}).Draw(t, "app")}
			if tier := rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "tier"); tier != "" {
				p.Labels["tier"] = tier
			}
			p.PodAffinity, p.PodAntiAffinity = genPodAffinity(t, "existingPodAffinity", 8), genPodAffinity(t, "existingPodAntiAffinity", 8)
			p.Ports = genPorts(t, "existingPorts")
		}
		s.Existing = append(s.Existing, p)
	}
	p := &s.Pending
	p.Labels, p.Req = incoming, pendingReq
	if oneIn(t, 6, "hasNodeSelector") {
		k := rapid.SampledFrom(nodeKeys).Draw(t, "selKey")
		p.NodeSelector = map[string]string{k: rapid.SampledFrom(valuesOf(k)).Draw(t, "selValue")}
	}
	if oneIn(t, 5, "hasRequired") {
		for range rapid.IntRange(1, 2).Draw(t, "terms") {
			p.Required = append(p.Required, genTerm(t, 0))
		}
	}
	if oneIn(t, 3, "hasPreferred") {
		for range rapid.IntRange(1, 2).Draw(t, "preferred") {
			p.Preferred = append(p.Preferred, model.PreferredTerm{Weight: rapid.IntRange(1, 100).Draw(t, "weight"), Term: genTerm(t, 1)})
		}
	}
	for range rapid.IntRange(0, 2).Draw(t, "tolerations") {
		// The node lifecycle controller's keys: a pod tolerating one of
		// them (an effect, or with a value the taint does not have, which
		// keeps the DefaultTolerationSeconds toleration off) tells a node
		// that reports NotReady from one that stopped reporting.
		tol := model.Toleration{Key: rapid.SampledFrom([]string{"dedicated", "gpu", "", model.TaintNodeNotReady, model.TaintNodeUnreachable}).Draw(t, "tolKey"),
			Operator: rapid.SampledFrom([]string{"Equal", "Exists"}).Draw(t, "tolOp"),
			Effect:   rapid.SampledFrom([]model.TaintEffect{"", model.NoSchedule, model.PreferNoSchedule, model.NoExecute}).Draw(t, "tolEffect")}
		if tol.Key == "" {
			// An empty key is only valid with Exists: it tolerates every
			// taint (of the effect, if set).
			tol.Operator = "Exists"
		}
		if tol.Operator == "Equal" {
			tol.Value = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "tolValue")
		}
		p.Tolerations = append(p.Tolerations, tol)
	}
	p.PodAffinity, p.PodAntiAffinity = genPodAffinity(t, "podAffinity", 4), genPodAffinity(t, "podAntiAffinity", 4)
	p.Ports = genPorts(t, "ports")
	for range rapid.IntRange(0, 2).Draw(t, "spread") {
		c := Spread{MaxSkew: rapid.IntRange(1, 3).Draw(t, "maxSkew"),
			Key:            rapid.SampledFrom(nodeKeys).Draw(t, "topologyKey"),
			When:           rapid.SampledFrom([]model.WhenUnsatisfiable{model.DoNotSchedule, model.ScheduleAnyway}).Draw(t, "when"),
			AffinityPolicy: rapid.SampledFrom([]string{"", "Honor", "Ignore"}).Draw(t, "affinityPolicy"),
			TaintsPolicy:   rapid.SampledFrom([]string{"", "Honor", "Ignore"}).Draw(t, "taintsPolicy"),
			Selector:       genPodSelector(t),
			MatchLabelKeys: genLabelKeys(t, "spreadMatchLabelKeys"),
		}
		if c.When == model.DoNotSchedule {
			// minDomains is only valid with DoNotSchedule.
			c.MinDomains = rapid.IntRange(0, 4).Draw(t, "minDomains")
		}
		p.Spread = append(p.Spread, c)
	}
	// Half the snapshots stand for Kivi's inputs (the model's nodes get
	// the `hostname` alias), half for manifests (no alias, as on a real
	// cluster).
	s.KiviInput = rapid.Bool().Draw(t, "kiviInput")
	return s
}

// genRequests draws a container's requests, zero in a quarter of the cases
// per resource, and with gpus 0 to 2 nvidia.com/gpu.
func genRequests(t *rapid.T, gpus bool) Requests {
	r := Requests{MilliCPU: 100 * rapid.Int64Range(0, 10).Draw(t, "reqCPU"), MemMiB: 128 * rapid.Int64Range(0, 8).Draw(t, "reqMem")}
	if oneIn(t, 4, "zeroCPU") {
		r.MilliCPU = 0
	}
	if oneIn(t, 4, "zeroMem") {
		r.MemMiB = 0
	}
	if r.MilliCPU == 0 || r.MemMiB == 0 {
		r.ExplicitZero = oneIn(t, 2, "explicitZero")
	}
	if gpus {
		if g := rapid.IntRange(0, 2).Draw(t, "reqGPUs"); g > 0 {
			r.Scalar = map[string]int64{gpu: int64(g)}
		}
	}
	return r
}

// genTerm draws a node selector term of at least min expressions (empty
// required terms stay in the draws: they match no node, on both sides).
func genTerm(t *rapid.T, min int) model.Selector {
	var s model.Selector
	for range rapid.IntRange(min, 2).Draw(t, "expressions") {
		k := rapid.SampledFrom(nodeKeys).Draw(t, "key")
		r := model.Requirement{Key: k, Operator: rapid.SampledFrom([]model.Operator{model.OpIn, model.OpNotIn, model.OpExists, model.OpDoesNotExist}).Draw(t, "op")}
		if r.Operator == model.OpIn || r.Operator == model.OpNotIn {
			r.Values = rapid.SliceOfNDistinct(rapid.SampledFrom(valuesOf(k)), 1, 2, rapid.ID[string]).Draw(t, "values")
		}
		s.MatchExpressions = append(s.MatchExpressions, r)
	}
	if oneIn(t, 4, "matchFields") {
		// A node's name, as matchFields read it: In or NotIn one name.
		s.MatchExpressions = append(s.MatchExpressions, model.Requirement{Key: model.NodeNameField,
			Operator: rapid.SampledFrom([]model.Operator{model.OpIn, model.OpNotIn}).Draw(t, "fieldOp"),
			Values:   []string{rapid.SampledFrom(valuesOf(model.HostnameKey)).Draw(t, "fieldName")}})
	}
	return s
}

// genPodSelector draws a spread constraint's pod selector: the pending
// pod's own app, another app, a set, a key, the empty selector (matches
// every pod, but upstream counts none) or none at all (matches nothing).
func genPodSelector(t *rapid.T) *model.Selector {
	switch rapid.IntRange(0, 6).Draw(t, "podSelector") {
	case 0, 1:
		return &model.Selector{MatchLabels: map[string]string{appLabel: incomingApp}}
	case 2:
		return &model.Selector{MatchLabels: map[string]string{appLabel: "web"}}
	case 3:
		return &model.Selector{MatchExpressions: []model.Requirement{{Key: appLabel, Operator: model.OpIn, Values: []string{incomingApp, "web"}}}}
	case 4:
		return &model.Selector{MatchExpressions: []model.Requirement{{Key: "tier", Operator: model.OpExists}}}
	case 5:
		return &model.Selector{}
	}
	return nil
}

// labelKeyChoices are the keys matchLabelKeys and mismatchLabelKeys draw:
// the ReplicaSet revision's, the app (which selectors name too: the API
// server rejects a matchLabelKeys key a selector has, and so does the
// model), an optional label and one no pod carries.
var labelKeyChoices = []string{hashLabel, appLabel, "tier", "track"}

// genLabelKeys draws matchLabelKeys or mismatchLabelKeys: none in most
// draws, else one or two distinct keys.
func genLabelKeys(t *rapid.T, label string) []string {
	if !oneIn(t, 4, label) {
		return nil
	}
	return rapid.SliceOfNDistinct(rapid.SampledFrom(labelKeyChoices), 1, 2, rapid.ID[string]).Draw(t, label)
}

// Rejections are the API server's validation errors about the label keys
// of the snapshot's pods, as it creates them (admit, then Validate).
func (s *Snapshot) Rejections() []string {
	_, pods, pending := s.ToAPI()
	var out []string
	for _, p := range append(pods, pending) {
		out = append(out, labelKeysErrors(p)...)
	}
	return out
}

// dropLabelKeys removes every matchLabelKeys and mismatchLabelKeys.
func (s *Snapshot) dropLabelKeys() {
	drop := func(d *model.PodAffinityDecl) {
		if d == nil {
			return
		}
		for i := range d.Required {
			d.Required[i].MatchLabelKeys, d.Required[i].MismatchLabelKeys = nil, nil
		}
		for i := range d.Preferred {
			d.Preferred[i].Term.MatchLabelKeys, d.Preferred[i].Term.MismatchLabelKeys = nil, nil
		}
	}
	for i := range s.Existing {
		drop(s.Existing[i].PodAffinity)
		drop(s.Existing[i].PodAntiAffinity)
	}
	drop(s.Pending.PodAffinity)
	drop(s.Pending.PodAntiAffinity)
	for i := range s.Pending.Spread {
		s.Pending.Spread[i].MatchLabelKeys = nil
	}
}
