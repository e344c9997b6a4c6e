// Package report is the outcome of a verification as data (Report,
// IntentResult, Trace with per-step cluster snapshots) and its
// renderings: Kivi-shaped text (WriteFailures, Header.Write), the
// versioned JSON document (docs/json.md, schema docs/report.schema.json)
// for a verification, a scaling search, a shard or a merge, and the
// self-contained HTML trace explorer.
package report
