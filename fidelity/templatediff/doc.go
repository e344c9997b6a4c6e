// Package templatediff is a differential test of the manifest reader's
// pod-template comparison (inputs/manifest StoredPodTemplate: is a
// kubectl apply of this template a new ReplicaSet, or a new StatefulSet
// revision?) against the API server's decoding and defaulting
// (k8s.io/kubernetes v1.36.3 pkg/apis/apps/v1 SetObjectDefaults_Deployment
// and SetObjectDefaults_StatefulSet, which run the core/v1 pod defaults)
// and the controllers' own comparisons: the Deployment controller's
// EqualIgnoreHash (semantic equality, the pod-template-hash label left
// out) and the StatefulSet controller's revision equality (the
// ControllerRevision newRevision builds, compared by history
// EqualRevision: the bytes of the stored template).
//
// Pairs of templates are generated (rapid) from one pod written two ways:
// each field absent, null, empty or its default spelt out, quantities in
// other notations (0.5 and 500m, 1Gi, 1024Mi and 1073741824, a number or
// a string), keys in any order; and, one pair in four, the second pod
// changed in one field (another value, a default of a pointer field made
// explicit where it is not defaulted). Each side says whether the two
// are the same template; every disagreement fails the test.
package templatediff
