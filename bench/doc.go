// Package bench holds the end-to-end benchmarks of Kivi for Go: the
// built-in cases at their original topology, the scaling search, and the
// model at growing scale. Run them with
//
//	go test -run XXX -bench . -benchtime 3x ./bench/
//
// Figures live in docs/performance.md, as ratios against baselines
// measured in the same run (the machines are noisy).
package bench
