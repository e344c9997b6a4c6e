/* A compact C5: the descheduler's RemoveDuplicates plugin evicts a pod
 * from a node that runs two or more pods of the deployment when another
 * node could take it, the ReplicaSet controller recreates it, and the
 * scheduler may put it back on the same node: an eviction loop. Node 0 is
 * big (room for every replica); the others have room for one pod, as in
 * C5's nearly full nodes. The scheduler's scoring is abstracted to a
 * nondeterministic choice among the nodes with room (a superset of what
 * any scoring picks).
 *
 * Pods are slots, as in Kivi: st[p] is 0 (no pod), 1 (Pending), 2 (bound,
 * not running) or 3 (Running); nd[p] is its node (0 unless bound). The
 * ReplicaSet fills the lowest free slot; the scheduler binds the lowest
 * pending pod; a kubelet starts the lowest pod bound to its node; the
 * descheduler evicts the highest running pod of the node. pend, tot,
 * nroom, bnd[] and rng[] are functions of st[] and nd[] (kept so that
 * guards are plain expressions): they do not change the number of states.
 *
 * Written for the bench/spin comparison; its Go twin is
 * bench/systems.Dedup, which has the same variables in the same order and
 * one step per d_step below. Each process is one do loop of d_steps whose
 * first statement is the guard, so SPIN's program counters never change. */
#ifndef NN
#define NN 3
#endif
#define D        NN                     /* replicas = pod slots */
#define CAP(j)   ((j) == 0 -> D : 1)    /* pods a node has room for */
#define ON(j)    (bnd[j] + rng[j])

byte st[D];     /* pod slot status */
byte nd[D];     /* pod slot node */
byte pend;      /* pods with st 1 */
byte tot;       /* pods with st != 0 */
byte nroom = NN; /* nodes with ON(j) < CAP(j) */
byte bnd[NN];   /* pods with st 2 per node */
byte rng[NN];   /* pods with st 3 per node */

/* scratch for the loops inside d_steps; every d_step that uses it
 * resets it to 0, so it is constant in every stored state (SPIN's
 * multi-core mode refuses hidden variables) */
byte k;

/* k = the lowest slot with status s (on node j when s > 1) */
#define LOWEST(s, j) \
	k = 0; \
	do \
	:: k < D && !(st[k] == (s) && ((s) < 2 || nd[k] == (j))) -> k++ \
	:: else -> break \
	od

/* k = the highest running slot on node j */
#define HIGHEST_RUNNING(j) \
	k = D - 1; \
	do \
	:: !(st[k] == 3 && nd[k] == (j)) -> k-- \
	:: else -> break \
	od

/* process j is node j's share of the cluster: the scheduler binding the
 * lowest pending pod there, its kubelet starting a pod, and the
 * descheduler evicting a duplicate from it */
active [NN] proctype node()
{
end:	do
	:: d_step { pend > 0 && ON(_pid) < CAP(_pid) ->
		LOWEST(1, 0); st[k] = 2; nd[k] = _pid; k = 0;
		pend--; bnd[_pid]++;
		nroom = nroom - (ON(_pid) == CAP(_pid) -> 1 : 0) }
	:: d_step { bnd[_pid] > 0 ->
		LOWEST(2, _pid); st[k] = 3; k = 0;
		bnd[_pid]--; rng[_pid]++ }
	:: d_step { rng[_pid] >= 2 && nroom > (ON(_pid) < CAP(_pid) -> 1 : 0) ->
		HIGHEST_RUNNING(_pid); st[k] = 0; nd[k] = 0; k = 0;
		nroom = nroom + (ON(_pid) == CAP(_pid) -> 1 : 0);
		rng[_pid]--; tot-- }
	od
}

active proctype control()
{
end:	do
	:: d_step { tot < D -> LOWEST(0, 0); st[k] = 1; k = 0; pend++; tot++ }   /* ReplicaSet creates */
	od
}
