#!/usr/bin/env python3
"""Writes the nodes.yaml of each example from the table below.

Run from examples/realworld: python3 gen_nodes.py. The files are checked
in; the test reads them, not this script.
"""

# name: (workers, zones, options)
CLUSTERS = {
    "helm-webapp-20": (17, 3, dict(control_planes=3, cpu="4", mem="16Gi")),
    "kustomize-shop-list-50": (47, 3, dict(control_planes=3, cpu="8", mem="32Gi", region="eu-west-1")),
    "gpu-inference-20": (16, 2, dict(control_planes=1, cpu="16", mem="64Gi", gpus=4, gpu_taint=True)),
    "statefulset-db-drain-50": (50, 3, dict(cpu="4", mem="16Gi")),
    "daemonsets-logging-100": (97, 3, dict(control_planes=3, cpu="3920m", mem="15Gi", eph="100Gi")),
    "batch-indexed-jobs-20": (20, 2, dict(cpu="8", mem="32Gi")),
    "priority-preemption-20": (20, 2, dict(cpu="2", mem="8Gi")),
    "spread-mindomains-50": (48, 3, dict(control_planes=2, cpu="4", mem="16Gi", tainted_workers=3)),
    "affinity-namespaces-20": (20, 3, dict(cpu="4", mem="16Gi")),
    "toleration-seconds-20": (20, 2, dict(cpu="4", mem="16Gi")),
    "descheduler-profiles-50": (50, 3, dict(cpu="4", mem="16Gi")),
    "quota-limitrange-20": (20, 2, dict(cpu="4", mem="16Gi")),
    "operator-crds-20": (17, 3, dict(control_planes=3, cpu="4", mem="16Gi")),
    "cordoned-notready-50": (50, 3, dict(cpu="4", mem="16Gi", cordoned=[3, 17, 31], notready=[5, 22])),
    "web-hpa-200": (200, 3, dict(cpu="7910m", mem="29Gi")),
    "platform-500": (497, 3, dict(control_planes=3, cpu="15890m", mem="61Gi", eph="200Gi")),
    "ephemeral-storage-20": (20, 2, dict(cpu="4", mem="16Gi", eph_ki="52428800Ki")),
    "rollout-apply-50": (50, 3, dict(cpu="4", mem="16Gi")),
    "hpa-v2-behavior-20": (20, 2, dict(cpu="4", mem="16Gi")),
    "mixed-units-20": (20, 2, dict(mixed_units=True)),
    "maintenance-pdb-100": (100, 4, dict(cpu="8", mem="32Gi")),
    "kube-system-addons-20": (17, 3, dict(control_planes=3, cpu="2", mem="8Gi")),
    "cronjobs-helm-list-200": (200, 3, dict(cpu="8", mem="32Gi", as_list=True)),
    "sidecars-probes-50": (50, 3, dict(cpu="2", mem="8Gi")),
    "zone-outage-100": (100, 3, dict(cpu="4", mem="16Gi")),
    "running-cluster-100": (100, 3, dict(cpu="8", mem="32Gi")),
}

MIXED = [("4", "16Gi"), ("4000m", "16384Mi"), ("3.5", "15728640Ki"), ("8", "33554432000")]


def node(name, zone, region, cpu, mem, pods="110", labels=(), taints=(), extra=None, unschedulable=False, ready=True):
    lines = ["apiVersion: v1", "kind: Node", "metadata:", f"  name: {name}", "  labels:",
             f"    kubernetes.io/hostname: {name}", "    kubernetes.io/os: linux",
             f"    topology.kubernetes.io/zone: {zone}", f"    topology.kubernetes.io/region: {region}"]
    lines += [f"    {k}: \"{v}\"" for k, v in labels]
    spec = []
    if unschedulable:
        spec.append("  unschedulable: true")
    if taints:
        spec.append("  taints:")
        for k, v, e in taints:
            spec.append(f"  - key: {k}")
            if v:
                spec.append(f"    value: \"{v}\"")
            spec.append(f"    effect: {e}")
    if spec:
        lines += ["spec:"] + spec
    lines += ["status:", "  allocatable:", f"    cpu: \"{cpu}\"", f"    memory: {mem}", f"    pods: \"{pods}\""]
    for k, v in (extra or {}).items():
        lines.append(f"    {k}: \"{v}\"")
    if not ready:
        lines += ["  conditions:", "  - type: Ready", "    status: \"False\"", "    reason: KubeletNotReady"]
    elif unschedulable:
        lines += ["  conditions:", "  - type: Ready", "    status: \"True\""]
    return lines


def cluster(workers, zones, o):
    region = o.get("region", "us-east-1")
    zone_names = [f"{region}{chr(ord('a') + i)}" for i in range(zones)]
    docs = []
    for i in range(o.get("control_planes", 0)):
        z = zone_names[i % zones]
        docs.append(node(f"cp-{i + 1}", z, region, "2", "7Gi", extra={"ephemeral-storage": "40Gi"} if "eph" in o else None,
                         labels=[("node-role.kubernetes.io/control-plane", "")],
                         taints=[("node-role.kubernetes.io/control-plane", "", "NoSchedule")]))
    for i in range(workers):
        z = zone_names[i % zones]
        cpu, mem = o.get("cpu", "4"), o.get("mem", "16Gi")
        if o.get("mixed_units"):
            cpu, mem = MIXED[i % len(MIXED)]
        extra = {}
        if "eph" in o:
            extra["ephemeral-storage"] = o["eph"]
        if "eph_ki" in o:
            extra["ephemeral-storage"] = o["eph_ki"]
        labels, taints = [("node.kubernetes.io/instance-type", "m6i.xlarge")], []
        if i < o.get("gpus", 0):
            extra["nvidia.com/gpu"] = "4"
            labels = [("node.kubernetes.io/instance-type", "g5.12xlarge"), ("nvidia.com/gpu.present", "true")]
            if o.get("gpu_taint"):
                taints.append(("nvidia.com/gpu", "present", "NoSchedule"))
        if i < o.get("tainted_workers", 0):
            taints.append(("dedicated", "ingress", "NoSchedule"))
            labels.append(("dedicated", "ingress"))
        docs.append(node(f"worker-{i + 1}", z, region, cpu, mem, labels=labels, taints=taints, extra=extra,
                         unschedulable=(i + 1) in o.get("cordoned", []), ready=(i + 1) not in o.get("notready", [])))
    return docs


def main():
    import os
    for name, (workers, zones, o) in CLUSTERS.items():
        docs = cluster(workers, zones, o)
        os.makedirs(name, exist_ok=True)
        with open(os.path.join(name, "nodes.yaml"), "w") as f:
            f.write(f"# {len(docs)} nodes in {zones} zones, written by ../gen_nodes.py.\n")
            if o.get("as_list"):
                f.write("apiVersion: v1\nkind: List\nitems:\n")
                for d in docs:
                    f.write("- " + "\n  ".join(d) + "\n")
            else:
                f.write("\n---\n".join("\n".join(d) for d in docs) + "\n")


if __name__ == "__main__":
    main()
