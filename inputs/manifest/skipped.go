package manifest

import (
	"fmt"
	"sort"
	"strings"
)

// skippedWarning sums up, in one line, the objects of an input that were
// skipped because their kinds cannot change where pods run, how many
// there are or whether they may be evicted (harmlessKinds: Services,
// ConfigMaps, RBAC, CRDs, webhooks, …). Rendered install manifests are
// mostly such objects; naming each would bury the warnings that matter,
// and saying nothing would leave the reader wondering whether they were
// read at all. A Deployment's ReplicaSets (decode counts only those) are
// modelled through the Deployment; a running cluster's dump reads them
// (readsReplicaSets; replicasets.go).
func (n objectCounts) skippedWarning(readsReplicaSets bool) (Warning, bool) {
	type kindCount struct {
		kind  string
		count int
	}
	var kinds []kindCount
	total := 0
	for k, c := range n {
		if harmlessKinds[k] || k == "ReplicaSet" && !readsReplicaSets {
			kinds = append(kinds, kindCount{k, c})
			total += c
		}
	}
	if total == 0 {
		return Warning{}, false
	}
	sort.Slice(kinds, func(i, j int) bool {
		if kinds[i].count != kinds[j].count {
			return kinds[i].count > kinds[j].count
		}
		return kinds[i].kind < kinds[j].kind
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", k.count, k.kind)
	}
	objects := "objects"
	if total == 1 {
		objects = "object"
	}
	return Warning{Msg: fmt.Sprintf("%d %s skipped, of kinds that do not affect the verdict: %s", total, objects, strings.Join(parts, ", "))}, true
}
