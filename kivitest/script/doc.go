// Package script is the one interaction environment of Kivi for Go's
// golden tests, in the style of etcd-io/raft's rafttest InteractionEnv: a
// script (testdata/*.txt) declares a small cluster, builds it, changes its
// state, steps named processes (every controller, every event, and the
// user's own) and prints traces and states; Run compares each output with
// the one written below the command, and `go test -rewrite` rewrites them
// (read the diff before committing). docs/testing.md shows how to write a
// script test for your own controller.
//
//	# comment
//	command operand key=value flag
//	----
//	expected output, up to the first blank line
//
// Nodes are named (unnamed nodes by their 1-based index), pods are their
// 1-based slot as describe prints them ("pod 3:", "pod#3" in traces),
// queue ids are the raw indices describe prints. Names follow Kubernetes
// (labels k=v, taints k=v:Effect as kubectl writes them), event kinds and
// queue names the model's.
//
// Declarations (before build):
//
//	node [name=N] [count=1] [cpu=64] [memory=64] [reserved-cpu=0] [reserved-memory=0] [max-pods=0] [labels=k=v,..] [taints=k=v:Effect,..] [scalar=resource=amount,..] [reserved-host-ports=[PROTOCOL/][HOSTIP:]PORT,..]
//	template name=T [cpu=0] [memory=0] [scalar=resource=amount,..] [labels=k=v,..] [node-selector=k=v,..] [node-name=N] [tolerations=k=v:Effect|k:Effect|:Effect[@seconds],..] [spread=topologyKey:maxSkew:DoNotSchedule|ScheduleAnyway[:matchLabelKey+..],..] [preferred=weight:k=v,..] [pattern=cpu@at,..] [required=k=v,..] [anti-affinity=topologyKey:k=v,..] [priority=N] [preemption-policy=PreemptLowerPriority|Never] [critical] [guaranteed] [readiness-probe] [min-ready-seconds=N] [limit-memory=M] [host-ports=[PROTOCOL/][HOSTIP:]PORT,..]
//	deployment name=D template=T [replicas=1] [strategy=RollingUpdate|Recreate] [max-surge=25%] [max-unavailable=25%] [hpa=min:max:targetCPUPercent] [inactive] [paused [rolled-out]]   paused: spec.paused, no ReplicaSet unless rolled-out
//	statefulset name=S template=T [replicas=1] [pod-management=OrderedReady|Parallel] [strategy=RollingUpdate|OnDelete] [partition=0] [max-unavailable=N] [ordinals-start=0] [hpa=min:max:targetCPUPercent] [inactive]   a StatefulSet (its config named S)
//	job name=J template=T [parallelism=1] [completions=N|unset] [backoff-limit=6] [suspend] [inactive]   a Job (completions default 1)
//	cronjob name=C runs=J[,J2] [policy=Allow|Forbid|Replace] [suspend]   a CronJob whose runs are the jobs named (made inactive)
//	config name=C template=T [strategy=..] [max-surge=..] [max-unavailable=..]   another spec for apply (each deployment's own config is named after it)
//	deployment-template name=X config=C [hpa=-1] [replicas=R] [paused=true|false]   a manifest the apply and create events submit
//	event kind=K [slot=main|first|afterStable] [deployment=D] [node=N] [deployment-template=X] [parallel=P] [max-deployment=M] [max-delta=δ] [delta-unit=u] [nodes=N,…] [timeout-retries=R] [disable-eviction] [force] [uncordon] [order=written|any] [recovers=true|false] [out-of-service] [drain]
//	descheduler-profile name=P plugins=RemoveDuplicates,RemovePodsViolatingTopologySpreadConstraint,LowNodeUtilization,HighNodeUtilization [constraints=hard|soft|all] [node-fit=false] [topology-balance-node-fit=true] [evict-system-critical-pods=false]
//	    [low-thresholds=cpu:20,memory:20,pods:20 low-targets=… [low-deviation=false] [low-number-of-nodes=0] [low-node-limit=N]]   LowNodeUtilization's args
//	    [high-thresholds=… [high-number-of-nodes=0] [high-only-thresholding=false]]                                           HighNodeUtilization's args
//	                                       [deschedule=RemovePodsViolatingNodeTaints,RemovePodsViolatingNodeAffinity,RemovePodsViolatingInterPodAntiAffinity] [include-prefer-no-schedule=false] [excluded-taints=k|k=v,..] [included-taints=..] [node-affinity-type=requiredDuringSchedulingIgnoredDuringExecution,preferredDuringSchedulingIgnoredDuringExecution]
//	                                       [deschedule=RemoveFailedPods,PodLifeTime] [failed-reasons=R,..] [failed-exit-codes=N,..] [failed-exclude-owner-kinds=K,..] [failed-min-age=S]
//	                                       [lifetime-max-age=S] [lifetime-states=S,..] [lifetime-conditions=N] [lifetime-exit-codes=N,..] [lifetime-include-owner-kinds=K,..] [lifetime-exclude-owner-kinds=K,..] [evict-failed-bare-pods=false]
//	                                       [deschedule=RemovePodsHavingTooManyRestarts] [restarts-threshold=1] [restarts-including-init=false] [restarts-states=Running,CrashLoopBackOff]
//	descheduler-limits [per-node=N] [per-namespace=N] [total=N]     left out: no limit; 0: no eviction at all
//	pod-slots count=N                      pod slots (default: the pods declared plus 4)
//	pdb name=B [selector=k=v,..] [min-available=N|N%] [max-unavailable=N|N%] [unhealthy-pod-eviction-policy=IfHealthyBudget|AlwaysAllow]   a PodDisruptionBudget (no selector: every pod)
//	build [tie-break=branch|lowest] [lifecycle=kubernetes|kivi] [verbose|quiet] [kernel-panic-assert] [merge-old-revisions]   compiles; prints the state
//
// Whole clusters (replace the current one, at any time):
//
//	load FILE [marshal]                    a case file next to the script (inputs/casefile); prints the state, after the file as written back with marshal
//	case ID [scale=3] [no-violation]       a built-in case (inputs/cases): its summary, then the state
//	reset                                  an empty environment
//
// Changes of the state (after build; pod also before):
//
//	pod deployment=D [phase=Running|Pending] [node=N] [cpu=C] [count=1]   new pods, unbound without node
//	set-pod pod=P [phase=Free|Pending|Running|Terminating|Failed] [was-running] [preempted] [cpu=C] [memory=M] [replicaset=0|1] [nominated=N|none] [readiness=NotReady|Ready|Available] [restarts=N]
//	node-status node=N status=Ready|NotReady|Unhealthy
//	enqueue queue=scheduler|kubelet|deployment|hpa|nodecontroller|taintmanager id=I
//	clear-queue queue=Q
//	apply deployment=D config=C            kubectl apply: the deployment's spec becomes config C; queues it
//	scale deployment=D replicas=R [no-enqueue]   kubectl scale; queues the deployment unless no-enqueue
//	init-phase phase=first|main|stable     Kivi's start-up phase
//	descheduling                           a descheduling request is pending
//
// Processes: scheduler, descheduler, deployment, kubelet, evictionmanager, readiness, nodecontroller,
// taintmanager, hpa, podgc, first-fit (FirstFit, a stand-in scheduler), init,
// cpu-pattern (with a template pattern), job-completion (with a Job: a
// Running Job pod succeeds at rest), cronjob-schedule (with a CronJob:
// its schedule fires at rest), event-1.. (the events in
// declaration order), podgc-orphaned-N (the pod garbage collector of the
// pods of node N, which a deleteNode event deletes), and those
// registered with WithProcess.
//
//	step P [choices=i,..]                   one step (the first successor, or the one the choices pick): trace lines and state, or "(not enabled)" and state
//	successors P [pick=0]                  every successor's choices and trace lines; continues with successor pick
//	settle P1 P2 .. [max=100]              steps the first enabled process of the list until none is; trace, step count, state
//	enabled [P]                            "enabled" or "not enabled"; without P every event process, its guard and valid end
//
// Views:
//
//	describe                               the state (model.Describe; after build verbose also ReplicaSets, init phase, event memory)
//	explain scheduler pod=P                the scheduler's filters and scores for pod P
//	explain descheduler                    the descheduler's next cycle
//	classes                                the node symmetry classes
//	permute order=p1,p2,..                 node i moves to position p_i; prints the state
//	canonical                              the canonical state under node symmetry
//	disruption                             every PodDisruptionBudget's status and the Eviction API's answer for the Running pods they select
//	enumerate-setups node-types=lo..hi,.. deployments=lo..hi/maxPodsPerNode,.. [fast-find=0] [from=1] [to=last]   the scaling search's order
//
// Clusters for unit tests are built with the same builder, package
// kivitest/script/build.
package script
