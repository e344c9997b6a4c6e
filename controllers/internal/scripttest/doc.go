// Package scripttest drives the workload controllers (deployment,
// kubelet, nodelifecycle, hpa) from data-driven golden scripts run through
// modeltest.RunScript, with a first-fit stand-in for the scheduler so that
// the controllers can be exercised end to end without the scheduler
// package. It is test support only.
//
// Script commands (ids in queues are raw indices, as model.Describe
// prints them; pods, nodes and deployments elsewhere are 1-based):
//
//	nodes count=3 [cpu=64] [mem=64] [taint=key=value:Effect] [label=k=v]
//	template name=app cpu=8 mem=8 [nodename=N] [tolerate=key=value:Effect] [pattern=cpu@at,...]
//	deployment name=web template=app replicas=3 [strategy=recreate] [surge=N|N%] [unavailable=N|N%]
//	           [hpa=min,max,target] [avg=true] [mem=true] [tol=10] [inactive]
//	config name=v2 template=app2 [strategy=recreate] [surge=..] [unavailable=..]
//	run dep=web node=N [cpu=C]        a Running pod
//	pending dep=web [node=N]          a Pending pod (unbound without node)
//	slots n=8
//	build                             compiles; prints model.Describe
//	load file=F.yaml                  instead of the declarations: builds the case file F
//	                                  (inputs/casefile) next to the script; prints Describe
//	terminate pod=P [was-running]     marks pod P Terminating (no queue change)
//	node n=N status=NotReady|Ready|Unhealthy
//	cpu pod=P value=V                 sets pod P's CPU usage
//	cpu pods=P1,P2 value=V            sets their usage and queues their deployments for
//	                                  the HPA, as a CPU event does
//	apply dep=web config=v2           switches the deployment's config, enqueues it
//	scale dep=web replicas=R          sets spec replicas, enqueues the deployment
//	enqueue q=kubelet|scheduler|deployment|hpa|nodecontroller|taintmanager id=I
//	step proc=NAME                    one step (if enabled); prints trace and Describe
//	settle procs=a,b,c [max=N]        steps the first enabled process of the list until
//	                                  none is enabled; prints trace, step count, Describe
//	describe
package scripttest
