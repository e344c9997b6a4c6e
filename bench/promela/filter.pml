/* Peterson's filter lock for N processes (N <= 8). Written for the
 * bench/spin comparison; its Go twin is bench/systems.Filter.
 *   pc[i]: 0 non-critical, 1 about to write victim, 2 waiting, 3 critical
 *   lv[i]: the level process i is at (0 when non-critical)
 *   victim[l]: the last process to enter level l (victim[0] is unused)
 * Every step is one d_step whose first statement is its guard, inside one
 * do loop per process: the program counters SPIN keeps never change, so
 * its states are exactly the (pc, lv, victim) vectors. */
#ifndef N
#define N 3
#endif

byte pc[N];
byte lv[N];
byte victim[N];

/* another process is at our level or above (indices folded into range so
 * that no out-of-bounds element is ever read) */
#define GE(k)     ((k) < N && (k) != _pid && lv[(k) % N] >= lv[_pid])
#define CONFLICT  (GE(0) || GE(1) || GE(2) || GE(3) || GE(4) || GE(5) || GE(6) || GE(7))

active [N] proctype proc()
{
end:	do
	:: d_step { pc[_pid] == 0 -> lv[_pid] = 1; pc[_pid] = 1 }
	:: d_step { pc[_pid] == 1 -> victim[lv[_pid]] = _pid; pc[_pid] = 2 }
	:: d_step { pc[_pid] == 2 && (victim[lv[_pid]] != _pid || !CONFLICT) ->
		if
		:: lv[_pid] == N - 1 -> pc[_pid] = 3
		:: else -> lv[_pid]++; pc[_pid] = 1
		fi }
	:: d_step { pc[_pid] == 3 -> lv[_pid] = 0; pc[_pid] = 0 }
	od
}
