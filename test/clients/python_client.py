# The official Kubernetes Python client (Debian's python3-kubernetes) against a Podflow apiserver: list,
# create, watch a Pod until it is Running, and a watch from a stale resourceVersion that must end in 410.
# Prints one JSON document with what it saw; test/clients/python-client.test.ts checks it.
import json
import sys

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
v1 = client.CoreV1Api()
out = {}

out["namespaces"] = sorted(ns.metadata.name for ns in v1.list_namespace().items)
out["nodes"] = sorted(n.metadata.name for n in v1.list_node().items)

cm = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="from-python", labels={"client": "python"}), data={"greeting": "hello"})
made = v1.create_namespaced_config_map("default", cm)
out["configmap"] = {"name": made.metadata.name, "uid": bool(made.metadata.uid), "data": made.data}
out["listed"] = [c.metadata.name for c in v1.list_namespaced_config_map("default", label_selector="client=python").items]

pod = client.V1Pod(
    metadata=client.V1ObjectMeta(name="py-pod", labels={"app": "py"}),
    spec=client.V1PodSpec(containers=[client.V1Container(name="nginx", image="nginx:1.25")]),
)
created = v1.create_namespaced_pod("default", pod)
out["pod"] = created.metadata.name

seen = []
w = watch.Watch()
for event in w.stream(v1.list_namespaced_pod, "default", field_selector="metadata.name=py-pod",
                      resource_version=created.metadata.resource_version, timeout_seconds=120):
    obj = event["object"]
    seen.append([event["type"], obj.status.phase, bool(obj.spec.node_name)])
    if obj.status.phase == "Running":
        w.stop()
out["watched"] = seen

try:
    stale = sys.argv[2]
    for event in watch.Watch().stream(v1.list_namespaced_config_map, "default", resource_version=stale, timeout_seconds=10):
        out.setdefault("staleEvents", []).append(event["type"])
    out["stale"] = None
except ApiException as e:
    out["stale"] = {"status": e.status, "reason": e.reason}

print(json.dumps(out))
