/* A compact C3: one deployment with two hard topology-spread constraints
 * (maxSkew 1 by hostname and by zone), an HPA that adds a replica while
 * most nodes with running pods are busy and removes one while none is,
 * CPU-change events that flip the load of the pods on one node between
 * normal and busy, the ReplicaSet controller, the scheduler and each node's kubelet. At odd NN zone 0 has one node more
 * than zone 1 can balance, so at high replica counts a pod can stay
 * Pending for good (C3's pod_always_schedulable violation).
 *
 * Pods are slots, as in Kivi: st[p] is 0 (no pod), 1 (Pending), 2 (bound,
 * not running) or 3 (Running); nd[p] is its node (0 unless bound). The
 * ReplicaSet fills the lowest free slot and deletes a pending pod first,
 * else the highest running pod of the node chosen; the scheduler binds the
 * lowest pending pod; a kubelet starts the lowest pod bound to its node.
 * pend, tot, nrun, mn, zc[], bnd[] and rng[] are functions of st[] and
 * nd[] (kept so that guards are plain expressions): they do not change
 * the number of states.
 *
 * Written for the bench/spin comparison; its Go twin is
 * bench/systems.Spread, which has the same variables in the same order and
 * one step per d_step below. Each process is one do loop of d_steps whose
 * first statement is the guard, so SPIN's program counters never change. */
#ifndef NN
#define NN 3
#endif
#define P     (NN + 1)     /* pod slots = HPA maxReplicas */
#define CAP   2            /* pods per node */
#define MINR  NN           /* HPA minReplicas */
#define MAXR  P            /* HPA maxReplicas */
#define ZONE(j)  ((j) % 2)   /* even nodes in zone 0, odd in zone 1 */
#define ZMIN     (zc[0] < zc[1] -> zc[0] : zc[1])
#define ON(j)    (bnd[j] + rng[j])

byte rep = MINR; /* deployment replicas (the HPA writes it) */
byte st[P];     /* pod slot status */
byte nd[P];     /* pod slot node */
byte pend;      /* pods with st 1 */
byte tot;       /* pods with st != 0 */
byte nrun;      /* pods with st 3 */
byte mn;        /* min over nodes of ON(j) */
byte zc[2];     /* pods bound or running per zone */
byte bnd[NN];   /* pods with st 2 per node */
byte rng[NN];   /* pods with st 3 per node */
bit  busy[NN];  /* the pods on node j use more CPU than the HPA target (0 when none runs) */
byte nbusy;     /* nodes with busy set */
byte nact;      /* nodes with running pods */

/* scratch for the loops inside d_steps; every d_step that uses them
 * resets them to 0, so they are constant in every stored state (SPIN's
 * multi-core mode refuses hidden variables) */
byte k, m;

#define RECOMPUTE_MN \
	m = 255; k = 0; \
	do \
	:: k < NN -> if :: ON(k) < m -> m = ON(k) :: else -> skip fi; k++ \
	:: else -> break \
	od; \
	mn = m; m = 0; k = 0

/* k = the lowest slot with status s (on node j when s > 1) */
#define LOWEST(s, j) \
	k = 0; \
	do \
	:: k < P && !(st[k] == (s) && ((s) < 2 || nd[k] == (j))) -> k++ \
	:: else -> break \
	od

/* k = the highest running slot on node j */
#define HIGHEST_RUNNING(j) \
	k = P - 1; \
	do \
	:: !(st[k] == 3 && nd[k] == (j)) -> k-- \
	:: else -> break \
	od

/* process j is node j's share of the cluster: the scheduler binding the
 * lowest pending pod there, its kubelet starting a pod, the ReplicaSet
 * deleting a running pod there, and the CPU-change event of its pods */
active [NN] proctype node()
{
end:	do
	:: d_step { pend > 0 && ON(_pid) < CAP && ON(_pid) <= mn && zc[ZONE(_pid)] <= ZMIN ->
		LOWEST(1, 0); st[k] = 2; nd[k] = _pid; k = 0;
		pend--; bnd[_pid]++; zc[ZONE(_pid)]++; RECOMPUTE_MN }
	:: d_step { bnd[_pid] > 0 ->
		LOWEST(2, _pid); st[k] = 3; k = 0;
		bnd[_pid]--; rng[_pid]++; nrun++; nact = nact + (rng[_pid] == 1 -> 1 : 0) }
	:: d_step { tot > rep && pend == 0 && rng[_pid] > 0 ->
		HIGHEST_RUNNING(_pid); st[k] = 0; nd[k] = 0; k = 0;
		rng[_pid]--; nrun--; tot--; zc[ZONE(_pid)]--; RECOMPUTE_MN;
		if
		:: rng[_pid] == 0 -> nact--; nbusy = nbusy - busy[_pid]; busy[_pid] = 0
		:: else -> skip
		fi }
	:: d_step { rng[_pid] > 0 -> nbusy = nbusy + 1 - 2 * busy[_pid]; busy[_pid] = 1 - busy[_pid] }  /* CPU change event */
	od
}

active proctype control()
{
end:	do
	:: d_step { tot < rep -> LOWEST(0, 0); st[k] = 1; k = 0; pend++; tot++ }        /* ReplicaSet creates */
	:: d_step { tot > rep && pend > 0 -> LOWEST(1, 0); st[k] = 0; k = 0; pend--; tot-- } /* ReplicaSet deletes a pending pod */
	:: d_step { 2 * nbusy > nact && nrun == rep && rep < MAXR -> rep++ }      /* HPA scales up */
	:: d_step { nbusy == 0 && nrun == rep && rep > MINR -> rep-- }            /* HPA scales down */
	od
}
