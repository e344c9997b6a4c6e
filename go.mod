module github.com/kivi-go/kivi

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/zeebo/xxh3 v1.1.0
	go.yaml.in/yaml/v2 v2.4.2
	go.yaml.in/yaml/v3 v3.0.4
	pgregory.net/rapid v1.3.0
	sigs.k8s.io/json v0.0.0-20260909141634-11ed52e25bc5
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	golang.org/x/sys v0.30.0 // indirect
)
