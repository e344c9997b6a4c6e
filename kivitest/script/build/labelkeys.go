package build

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// SpreadMatching adds a topology spread constraint as Spread does, with
// matchLabelKeys (pod-template-hash: pods of the same ReplicaSet revision).
func (b *TemplateBuilder) SpreadMatching(maxSkew int, key string, when model.WhenUnsatisfiable, matchLabelKeys ...string) *TemplateBuilder {
	b.Spread(maxSkew, key, when)
	b.t.Spread[len(b.t.Spread)-1].MatchLabelKeys = slices.Clone(matchLabelKeys)
	return b
}
