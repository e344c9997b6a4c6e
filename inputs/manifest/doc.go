// Package manifest reads real inputs into a model.Cluster: Kubernetes
// manifests (Deployment, HorizontalPodAutoscaler, Node, DeschedulerPolicy;
// multi-document YAML, JSON and List kinds), Kivi's configuration
// directory (yaml/ + user_input/) and Kivi's log directory of a running
// cluster (kubectl get -o json dumps, kubectl top and get hpa tables).
//
// Decoding follows the API server's path: YAML is converted with
// sigs.k8s.io/yaml (duplicate keys are errors) and decoded with
// sigs.k8s.io/json, which is case-sensitive and reports unknown fields
// while still decoding. The types are thin copies of the Kubernetes fields
// the model uses; every other field is classified (fields.go): fields that
// can change scheduling or scaling give a Warning, fields that cannot
// (ports, probes, env, ...) are ignored quietly, and fields Kubernetes
// does not know at all (typos) give a Warning naming the field. The API
// server's defaults are applied (defaults.go).
//
// Units (units.go): CPU is in millicores, memory in MiB (requests rounded
// up, capacities rounded down), so that a pod's usage fits the model's
// int32 and Kubernetes' own integer arithmetic on millicores (HPA
// utilisation, scheduler fit) is exact.
//
// Every bad input is one *Error naming the file, the 1-based document
// index, the field path and what is accepted; it wraps ErrInput so that a
// CLI can exit with status 2. Nothing here panics on any input (see the
// fuzz targets).
package manifest
