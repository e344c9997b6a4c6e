/* Dining philosophers, left fork first (deadlocks when all hold their left
 * fork). Written for the bench/spin comparison; its Go twin is
 * bench/systems.Philosophers. ph[i]: 0 thinking, 1 holds fork i (its left),
 * 2 eating (holds forks i and i+1 mod N). A fork's holder is implied by its
 * neighbours, so the state is ph[] alone. Each process body is one do loop
 * of d_steps whose first statement is the guard: the program counter never
 * leaves the loop head, so SPIN's states are exactly the ph[] vectors. */
#ifndef N
#define N 5
#endif

#define LEFTOF(f)  (((f) + N - 1) % N)
#define FREE(f)    (ph[f] == 0 && ph[LEFTOF(f)] != 2)

byte ph[N];

active [N] proctype phil()
{
end:	do
	:: d_step { ph[_pid] == 0 && FREE(_pid) -> ph[_pid] = 1 }
	:: d_step { ph[_pid] == 1 && FREE((_pid + 1) % N) -> ph[_pid] = 2 }
	:: d_step { ph[_pid] == 2 -> ph[_pid] = 0 }
	od
}
