//go:build !race

package checker

// raceEnabled: see race_on.go.
const raceEnabled = false
