// Package realworld is a corpus of inputs as operators write them: Helm
// and kustomize output with the kinds the model skips mixed in, List
// documents, probes, sidecars, quotas, priorities, spread and affinity
// of every kind, StatefulSets, DaemonSets, Jobs, CronJobs, HPAs and
// disruption budgets, on clusters of 20 to 500 nodes (gen_nodes.py writes
// the node lists). Each folder holds manifests.yaml, nodes.yaml,
// intents.yaml, a README.md of what it models and warnings.txt, the
// warnings the reader gives; realworld_test.go runs every folder through
// the reader and a verification bounded by states.
package realworld
