// Package scaling is Kivi's incremental scaling search:
// it turns a model.Cluster's node types and deployments, with their
// Min/Max bounds, into every small concrete topology (a Setup), sorts them
// in Kivi's order (by total nodes, then total replicas), and verifies them
// one by one until the first one that violates an intent — the minimal
// violating setup.
//
// The package never verifies anything itself: Search receives "build and
// check this setup" as a VerifyFunc from its caller (package compose), so
// it stays testable on toy verdict functions. Search runs independent
// setups on several goroutines but returns exactly the answer of Kivi's
// sequential loop: setups after a known failure are cancelled and
// reported as not run, setups before it are always verified.
//
// Sharding (Shard, RunShard, Merge) splits one setup list over several
// processes — e.g. a Kubernetes Indexed Job, see docs/distributed.md —
// and merges their JSON results into the Result a single run gives.
//
// Files: setup.go (Setup and its text), bounds.go (bounds and their
// validation), enumerate.go (Kivi's enumeration and order), build.go
// (materialising a setup, Kivi's scaling search), search.go (the parallel
// search), result.go (the summary), shard.go (slices of the list),
// shardfile.go (the JSON shard format and Merge), listhash.go (the
// fingerprint of a setup list).
package scaling
