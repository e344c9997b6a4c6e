module github.com/kivi-go/kivi

go 1.26.0

require (
	github.com/bits-and-blooms/bitset v1.24.2 // indirect
	github.com/bits-and-blooms/bloom/v3 v3.7.1 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
	sigs.k8s.io/json v0.0.0-20260909141634-11ed52e25bc5 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)
