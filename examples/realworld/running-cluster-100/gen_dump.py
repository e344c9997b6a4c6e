#!/usr/bin/env python3
"""Writes manifests.yaml: a dump of a running 100-node cluster, as

    kubectl get deployments,statefulsets,daemonsets,jobs,hpa,pdb,pods -A -o yaml

prints it (one kind: List, status and server-set fields included), with
the pods where a scheduler spreading them would have put them. Run from
this folder: python3 gen_dump.py. The file is checked in; the test reads
it, not this script.
"""

import hashlib

ZONES = ["us-east-1a", "us-east-1b", "us-east-1c"]
WORKERS = [f"worker-{i + 1}" for i in range(100)]  # ../gen_nodes.py: zone i % 3


def zone_of(node):
    return ZONES[(int(node.split("-")[1]) - 1) % 3]


def h(*parts):
    return hashlib.sha256("/".join(parts).encode()).hexdigest()


def uid(*parts):
    x = h(*parts)
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


def suffix(*parts):
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    x = int(h(*parts), 16)
    out = ""
    for _ in range(5):
        out += alphabet[x % len(alphabet)]
        x //= len(alphabet)
    return out


def meta(kind, ns, name, labels=None, owner=None, extra=""):
    lines = ["  metadata:", f"    name: {name}", f"    namespace: {ns}", f"    uid: {uid(kind, ns, name)}",
             "    creationTimestamp: \"2026-11-02T09:14:07Z\""]
    if labels:
        lines.append("    labels:")
        lines += [f"      {k}: {v}" for k, v in labels.items()]
    if owner:
        okind, oname = owner
        api = "apps/v1" if okind in ("ReplicaSet", "StatefulSet", "DaemonSet") else "batch/v1"
        lines += ["    ownerReferences:", f"    - apiVersion: {api}", f"      kind: {okind}", f"      name: {oname}",
                  f"      uid: {uid(okind, ns, oname)}", "      controller: true", "      blockOwnerDeletion: true"]
    if kind != "Pod":
        lines += ["    managedFields:", "    - manager: kube-controller-manager", "      operation: Update",
                  "      apiVersion: v1", "      fieldsType: FieldsV1", "      fieldsV1: {f:status: {}}"]
    return lines + ([extra] if extra else [])


def container(name, image, cpu, mem, port=None, probe=True):
    lines = [f"      - name: {name}", f"        image: {image}", "        imagePullPolicy: IfNotPresent",
             "        resources:", f"          requests: {{cpu: \"{cpu}\", memory: {mem}}}",
             "        terminationMessagePolicy: File"]
    if port:
        lines += ["        ports:", f"        - {{containerPort: {port}, protocol: TCP}}"]
    if port and probe:
        lines += ["        readinessProbe:", f"          httpGet: {{path: /healthz, port: {port}, scheme: HTTP}}",
                  "          periodSeconds: 10", "          successThreshold: 1", "          failureThreshold: 3", "          timeoutSeconds: 1"]
    return lines


def pod_spec(node, containers, extra=()):
    lines = ["  spec:"]
    if node:
        lines.append(f"    nodeName: {node}")
    lines += ["    containers:"]
    for c in containers:
        lines += c
    lines += ["    restartPolicy: Always", "    schedulerName: default-scheduler", "    priority: 0", "    tolerations:",
              "    - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}",
              "    - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}"]
    lines += list(extra)
    return lines


def pod_status(phase, node=None, ip=None):
    lines = ["  status:", f"    phase: {phase}", "    qosClass: Burstable"]
    if node:
        lines += [f"    hostIP: 10.0.{int(node.split('-')[1])}.10", f"    podIP: {ip or '10.244.0.1'}",
                  "    startTime: \"2026-11-20T03:22:41Z\"", "    conditions:",
                  f"    - {{type: PodScheduled, status: \"True\"}}",
                  f"    - {{type: Ready, status: \"{'True' if phase == 'Running' else 'False'}\"}}"]
    else:
        lines += ["    conditions:", "    - type: PodScheduled", "      status: \"False\"", "      reason: Unschedulable",
                  "      message: '0/100 nodes are available: 100 Insufficient cpu.'"]
    return lines


def item(lines):
    return "- " + "\n".join(lines)[2:]


docs = []


def add(kind, api, lines):
    docs.append([f"  apiVersion: {api}", f"  kind: {kind}"] + lines)


# Workloads: (namespace, name, kind, replicas, cpu, memory, port, template spec lines)
SPREAD = ["      topologySpreadConstraints:",
          "      - maxSkew: 1",
          "        topologyKey: topology.kubernetes.io/zone",
          "        whenUnsatisfiable: DoNotSchedule",
          "        labelSelector: {matchLabels: {app: frontend}}",
          "      - maxSkew: 1",
          "        topologyKey: kubernetes.io/hostname",
          "        whenUnsatisfiable: ScheduleAnyway",
          "        labelSelector: {matchLabels: {app: frontend}}"]
ANTI = ["      affinity:",
        "        podAntiAffinity:",
        "          requiredDuringSchedulingIgnoredDuringExecution:",
        "          - labelSelector: {matchLabels: {app: redis}}",
        "            topologyKey: kubernetes.io/hostname"]


def deployment(ns, name, replicas, cpu, mem, port, spec_extra=()):
    d = meta("Deployment", ns, name, {"app": name}, extra="    annotations: {deployment.kubernetes.io/revision: \"3\"}")
    d += ["  spec:", f"    replicas: {replicas}", "    revisionHistoryLimit: 10", "    progressDeadlineSeconds: 600",
          "    selector: {matchLabels: {app: " + name + "}}",
          "    strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}",
          "    template:", "      metadata:", f"        labels: {{app: {name}}}", "      spec:", "        containers:"]
    d += ["  " + l for l in container(name, f"registry.example.com/{name}:2.4.1", cpu, mem, port)]
    d += list(spec_extra)
    d += ["  status:", f"    replicas: {replicas}", f"    readyReplicas: {replicas}", f"    availableReplicas: {replicas}",
          f"    updatedReplicas: {replicas}", "    observedGeneration: 3"]
    add("Deployment", "apps/v1", d)


deployment("shop", "frontend", 30, "1", "1Gi", 8080, ["  " + l for l in SPREAD])
deployment("shop", "api", 40, "2", "2Gi", 9090)
deployment("kube-system", "coredns", 2, "100m", "70Mi", 53)

sts = meta("StatefulSet", "shop", "redis", {"app": "redis"})
sts += ["  spec:", "    replicas: 3", "    serviceName: redis", "    podManagementPolicy: OrderedReady",
        "    selector: {matchLabels: {app: redis}}", "    updateStrategy: {type: RollingUpdate}",
        "    template:", "      metadata:", "        labels: {app: redis}", "      spec:", "        containers:"]
sts += ["  " + l for l in container("redis", "redis:7.2", "2", "4Gi", 6379)]
sts += ["  " + l for l in ANTI]
sts += ["  status: {replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3}"]
add("StatefulSet", "apps/v1", sts)

ds = meta("DaemonSet", "monitoring", "node-exporter", {"app": "node-exporter"})
ds += ["  spec:", "    selector: {matchLabels: {app: node-exporter}}", "    template:", "      metadata:",
       "        labels: {app: node-exporter}", "      spec:", "        containers:"]
ds += ["  " + l for l in container("node-exporter", "prom/node-exporter:v1.8.2", "100m", "64Mi")]
ds += ["        tolerations: [{operator: Exists}]",
       "  status: {desiredNumberScheduled: 100, currentNumberScheduled: 100, numberReady: 100}"]
add("DaemonSet", "apps/v1", ds)

job = meta("Job", "shop", "migrate-schema", {"app": "migrate-schema"})
job += ["  spec:", "    completions: 1", "    parallelism: 1", "    backoffLimit: 2", "    template:", "      metadata:",
        "        labels: {app: migrate-schema}", "      spec:", "        restartPolicy: Never", "        containers:"]
job += ["  " + l for l in container("migrate", "registry.example.com/migrate:2.4.1", "500m", "256Mi")]
job += ["  status: {succeeded: 1, completionTime: \"2026-11-02T09:16:40Z\"}"]
add("Job", "batch/v1", job)

hpa = meta("HorizontalPodAutoscaler", "shop", "frontend")
hpa += ["  spec:", "    scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: frontend}", "    minReplicas: 30",
        "    maxReplicas: 45", "    metrics:", "    - type: Resource",
        "      resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}",
        "  status:", "    currentReplicas: 30", "    desiredReplicas: 30", "    currentMetrics:", "    - type: Resource",
        "      resource: {name: cpu, current: {averageUtilization: 62, averageValue: 620m}}"]
add("HorizontalPodAutoscaler", "autoscaling/v2", hpa)

pdb = meta("PodDisruptionBudget", "shop", "redis")
pdb += ["  spec:", "    maxUnavailable: 1", "    selector: {matchLabels: {app: redis}}",
        "  status: {currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 1, expectedPods: 3}"]
add("PodDisruptionBudget", "policy/v1", pdb)

# Pods, where a spreading scheduler put them: frontend one per node
# round the zones, api two per node from the other end, redis on three
# nodes of three zones, coredns on two.
ip = [0]


def pod(ns, name, owner, labels, node, cname, image, cpu, mem, port=None, phase="Running", extra=()):
    ip[0] += 1
    p = meta("Pod", ns, name, labels, owner)
    p += pod_spec(node, [container(cname, image, cpu, mem, port, probe=False)], extra)
    p += pod_status(phase, node, f"10.244.{ip[0] // 250}.{ip[0] % 250 + 1}")
    add("Pod", "v1", p)


def rs_pods(ns, name, count, nodes, cpu, mem, port, template_hash, extra=()):
    for i in range(count):
        pod(ns, f"{name}-{template_hash}-{suffix(name, str(i))}", ("ReplicaSet", f"{name}-{template_hash}"),
            {"app": name, "pod-template-hash": template_hash}, nodes[i], name, f"registry.example.com/{name}:2.4.1",
            cpu, mem, port, extra=extra)


rs_pods("shop", "frontend", 30, WORKERS[:30], "1", "1Gi", 8080, "7c9d5f6b8d",
        ["    topologySpreadConstraints:",
         "    - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: frontend}}}",
         "    - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: frontend}}}"])
api_nodes = [WORKERS[99 - i // 2] for i in range(39)]
rs_pods("shop", "api", 39, api_nodes, "2", "2Gi", 9090, "5b8f7c4d9f")
# The fortieth api pod waits: the scheduler has not bound it yet.
pod("shop", "api-5b8f7c4d9f-" + suffix("api", "39"), ("ReplicaSet", "api-5b8f7c4d9f"),
    {"app": "api", "pod-template-hash": "5b8f7c4d9f"}, None, "api", "registry.example.com/api:2.4.1", "2", "2Gi", 9090,
    phase="Pending")
for i, n in enumerate(["worker-31", "worker-32", "worker-33"]):
    pod("shop", f"redis-{i}", ("StatefulSet", "redis"), {"app": "redis", "statefulset.kubernetes.io/pod-name": f"redis-{i}"},
        n, "redis", "redis:7.2", "2", "4Gi", 6379)
for i, n in enumerate(["worker-34", "worker-35"]):
    pod("kube-system", f"coredns-6d4b75cb6d-{suffix('coredns', str(i))}", ("ReplicaSet", "coredns-6d4b75cb6d"),
        {"app": "coredns", "pod-template-hash": "6d4b75cb6d"}, n, "coredns", "registry.k8s.io/coredns/coredns:v1.11.3",
        "100m", "70Mi", 53)
for n in WORKERS:
    pod("monitoring", f"node-exporter-{suffix('node-exporter', n)}", ("DaemonSet", "node-exporter"),
        {"app": "node-exporter"}, n, "node-exporter", "prom/node-exporter:v1.8.2", "100m", "64Mi")
# The schema migration ran once and finished.
pod("shop", f"migrate-schema-{suffix('migrate', '0')}", ("Job", "migrate-schema"), {"app": "migrate-schema"},
    "worker-36", "migrate", "registry.example.com/migrate:2.4.1", "500m", "256Mi", phase="Succeeded")
# Someone's debugging pod (kubectl run), and a pod of an operator's
# custom resource: no workload of the dump owns them.
pod("default", "debug-shell", None, {"run": "debug-shell"}, "worker-37", "shell", "busybox:1.36", "1", "512Mi")
pod("data", "pg-cluster-1", ("Cluster", "pg-cluster"), {"cnpg.io/cluster": "pg-cluster"}, "worker-38", "postgres",
    "ghcr.io/cloudnative-pg/postgresql:16", "4", "8Gi", 5432)

with open("manifests.yaml", "w") as f:
    f.write("# A dump of a running cluster (kubectl get deployments,statefulsets,daemonsets,jobs,hpa,pdb,pods -A -o yaml),\n")
    f.write("# written by gen_dump.py; read with --current-placement.\n")
    f.write("apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\"}\nitems:\n")
    for d in docs:
        f.write(item(d) + "\n")
