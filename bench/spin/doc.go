// Command spin benchmarks Kivi's engine (package checker) against SPIN on
// the same models: the Promela models of bench/promela and their Go twins
// in bench/systems, which have exactly the same state spaces. For every
// model and size it generates pan (spin -a), compiles it once per SPIN mode
// with fixed options, runs SPIN and our engine each -repeats times, checks
// that both sides report the same number of states, and writes a Markdown
// and a JSON table (medians) to -out.
//
//	bash bench/setup.sh     # installs spin and gcc when missing
//	go run ./bench/spin     # full table (several minutes)
//	go run ./bench/spin -models philosophers -sizes 10 -repeats 3
//
// Both sides are measured the same way: each run is a child process
// (pan, or this binary with -child), its wall time is taken around
// start and wait, and its peak RSS is the Maxrss of wait4's rusage.
package main
