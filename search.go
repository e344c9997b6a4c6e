package kivi

import (
	"io"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/report"
	"github.com/kivi-go/kivi/scaling"
)

// SetupVerifier is the function the scaling search (and a shard of it)
// calls for each setup of the cluster's node types: it verifies that
// topology with the cluster's intents; the setup's report travels as its
// JSON document.
func SetupVerifier(c *Cluster, opts Options) scaling.VerifyFunc {
	return compose.SetupVerifier(c, opts)
}

// SetupHeader is the run header (intents, built-in properties, events) of
// one setup of the scaling search.
func SetupHeader(c *Cluster, opts Options, s scaling.Setup) (report.Header, error) {
	return compose.SetupHeader(c, opts, s)
}

// SearchJSON is the JSON document of a scaling search (mode "search") or
// of merged shards ("merge"); input is the size of the user's own
// configuration, nil for Kivi's cases.
func SearchJSON(mode, name string, res scaling.Result, input *scaling.Setup, warnings []JSONWarning) JSONReport {
	return report.SearchJSON(mode, name, res, input, warnings)
}

// ShardJSON is the JSON document of one shard of the scaling search.
func ShardJSON(name string, r scaling.ShardResult, input *scaling.Setup, warnings []JSONWarning) JSONReport {
	return report.ShardJSON(name, r, input, warnings)
}

// ReadShard reads a shard document back for merging (also older kivi
// versions' shard files).
func ReadShard(data []byte) (report.ShardFile, error) { return report.ReadShard(data) }

// SetupReport is the report of one setup of a search document, or nil.
func SetupReport(d any) *JSONReport { return report.SetupReport(d) }

// WriteSearch writes a scaling search's result as Kivi's text; input is
// the size of the user's own configuration (nil for Kivi's cases).
func WriteSearch(w io.Writer, res scaling.Result, input *scaling.Setup) {
	report.WriteSearch(w, res, input)
}
