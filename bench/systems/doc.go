// Package systems holds the Go twins of the Promela models in
// bench/promela, for the SPIN comparison run by bench/spin. Each System
// has exactly the state space of its model: the same variables, one byte
// each, in the order the model declares them (a state's encoding is that
// byte vector), and one step per d_step of the model, with the same guard
// and the same effect. Neither side reduces anything: no symmetry, no
// partial-order reduction hook here, -DNOREDUCE for SPIN. Derived counters
// that the models keep so that their guards are plain expressions (pend,
// tot, ...) are kept here too: they are functions of the other variables,
// so they change the bytes per state but not the number of states.
//
// SPIN also stores each process's program counter; every process of the
// models is one do loop of d_steps whose first statement is the guard, so
// the counters never change and SPIN's states are in one-to-one
// correspondence with ours. The counts in systems_test.go were checked
// against SPIN 6.5.2 (-DNOREDUCE, full state storage) by the spin-tagged
// test in bench/spin.
package systems
