// Package casefile reads and writes case files: a model.Cluster as YAML
// (or JSON), the format of examples/cases/.
//
// Reading is strict, as kubectl's is: the YAML is converted with
// sigs.k8s.io/yaml (duplicate keys are errors) and decoded with
// sigs.k8s.io/json (case-sensitive, no unknown or duplicate fields), then
// the cluster is built once (model.Cluster.Build) so that every reference
// (node type, template, deployment, node name) is checked. Every error
// names the file, the field path and the accepted values, and wraps
// ErrBadCase so that a CLI can tell a bad input (exit 2) from a failure.
//
// The field names are the json tags of model.Cluster. The nested types of
// package model that carry no json tags (Taint, Toleration, Selector,
// Requirement, PreferredTerm, UsagePoint, Descheduler, DeschedulerProfile)
// are spelt in lowerCamelCase, Kubernetes' convention (key, value, effect,
// matchLabels, ...), and the descheduler's enums by name
// (balance: [RemoveDuplicates]; constraints: [DoNotSchedule,
// ScheduleAnyway]). schema.go holds that mapping; it is derived from the
// Go types by reflection, so new model fields appear in the format
// without change here.
//
// Marshal writes the fields in declaration order and map keys sorted, and
// leaves out empty optional fields, so a file is stable and reads like a
// hand-written one; Parse(Marshal(c)) gives c back.
package casefile
