"""What the deploy tests share: the compose file and the Kubernetes manifests of ``deploy/``,
read as data, with compose's ``${VAR}`` filled in and each part's environment and command line
picked out the way docker compose and the kubelet would."""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Any

import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
K8S = DEPLOY / "k8s"
# The overlay of tables in several stores: a sibling of the base, as kustomize refuses an
# overlay inside the directory of its own base.
K8S_PARTITIONS = DEPLOY / "k8s-partitions"
OUR_IMAGE = "paiju"
PREVIOUS_IMAGE = "paiju-previous"  # the release before, during a rules upgrade

# What an operator puts in deploy/.env: values Paiju accepts, as example.env asks for them.
OPERATOR_ENV = {
    "POSTGRES_PASSWORD": "a-strong-password",
    "PAIJU_SNAPSHOT_KEY": "s" * 24,
    "PAIJU_API_TOKEN_SECRET": "t" * 40,
    "PAIJU_API_KEY_PEPPER": "p" * 24,
    "PAIJU_WEBHOOK_URL": "https://platform.example.invalid/hook",
    "PAIJU_WEBHOOK_SECRET": "w" * 24,
}
# What an operator puts in the Secret, in place of its placeholders.
OPERATOR_SECRET = {
    "PAIJU_STORE_URL": "postgresql://paiju:a-strong-password@db.internal:5432/paiju",
    "PAIJU_SNAPSHOT_KEY": OPERATOR_ENV["PAIJU_SNAPSHOT_KEY"],
    "PAIJU_API_TOKEN_SECRET": OPERATOR_ENV["PAIJU_API_TOKEN_SECRET"],
    "PAIJU_API_KEY_PEPPER": OPERATOR_ENV["PAIJU_API_KEY_PEPPER"],
    "PAIJU_WEBHOOK_SECRET": OPERATOR_ENV["PAIJU_WEBHOOK_SECRET"],
}
# What an operator puts in the overlay's PAIJU_TABLE_STORES, in place of its placeholders.
OPERATOR_TABLE_STORES = (
    "1=postgresql://paiju:a-strong-password@db.internal:5432/paiju?schema=tables1"
    " 2=postgresql://paiju:another-password@db2.internal:5432/paiju"
)
Document = tuple[str, dict[str, Any]]
_VARIABLE = re.compile(r"\$\{(?P<name>[A-Z0-9_]+)(?:(?P<op>:\?|:-)(?P<word>[^}]*))?\}")


Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def _parsed(path: Path) -> list[Any]:
    return list(yaml.load_all(path.read_text(), Loader=Loader))


def compose() -> dict[str, Any]:
    """A fresh copy each time (a test may change it)."""
    document: dict[str, Any] = copy.deepcopy(_parsed(DEPLOY / "compose.yaml")[0])
    return document


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` (an unset or empty
    required one is an error, as compose says it)."""

    def one(match: re.Match[str]) -> str:
        name, op, word = match["name"], match["op"], match["word"]
        given = env.get(name, "")
        if given:
            return given
        if op == ":?":
            raise KeyError(f"{name}: {word}")
        return word if op == ":-" else ""

    return _VARIABLE.sub(one, value)


def paiju_services(document: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The compose services that run Paiju's own image (Flower's image is built from it)."""
    services = (document or compose())["services"]
    return {name: s for name, s in services.items() if name not in ("postgres", "redis")}


def compose_env(service: dict[str, Any], env: dict[str, str] | None = None) -> dict[str, str]:
    given = OPERATOR_ENV if env is None else env
    return {k: interpolate(str(v), given) for k, v in service["environment"].items()}


def k8s_documents() -> list[tuple[str, dict[str, Any]]]:
    """Every Kubernetes object of deploy/k8s, with the file it is in (not the Kustomization)."""
    found = []
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for document in copy.deepcopy(_parsed(path)):
            if document:
                found.append((path.name, document))
    return found


def kustomization(folder: Path) -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((folder / "kustomization.yaml").read_text())
    return document


def _merged(base: Any, patch: Any) -> Any:
    """A strategic-merge patch as kustomize applies it to maps (lists are replaced whole)."""
    if not isinstance(base, dict) or not isinstance(patch, dict):
        return copy.deepcopy(patch)
    merged = dict(base)
    for key, value in patch.items():
        merged[key] = _merged(base[key], value) if key in base else copy.deepcopy(value)
    return merged


def overlay_documents() -> list[Document]:
    """What ``kubectl apply -k deploy/k8s-partitions`` applies, read here as kustomize reads it
    (no kustomize needed): the base's objects and the overlay's own, with the overlay's
    patches merged into the objects they name (kind, name and namespace)."""
    overlay = kustomization(K8S_PARTITIONS)
    found: list[Document] = []
    for resource in overlay["resources"]:
        if (K8S_PARTITIONS / resource).resolve() == K8S:
            found += k8s_documents()
            continue
        for document in copy.deepcopy(_parsed(K8S_PARTITIONS / resource)):
            if document:
                found.append((f"k8s-partitions/{resource}", document))
    for entry in overlay.get("patches", []):
        (patch,) = copy.deepcopy(_parsed(K8S_PARTITIONS / entry["path"]))
        key = (patch["kind"], patch["metadata"]["name"], patch["metadata"].get("namespace"))
        targets = [i for i, (_, d) in enumerate(found)
                   if (d["kind"], d["metadata"]["name"], d["metadata"].get("namespace")) == key]  # fmt: skip
        assert len(targets) == 1, f"the patch {entry['path']} names {len(targets)} objects"
        where, document = found[targets[0]]
        found[targets[0]] = (where, _merged(document, patch))
    return found


def kinds(kind: str, documents: list[Document] | None = None) -> list[dict[str, Any]]:
    return [d for _, d in (k8s_documents() if documents is None else documents) if d["kind"] == kind]


def named(kind: str, name: str, documents: list[Document] | None = None) -> dict[str, Any]:
    matches = [d for d in kinds(kind, documents) if d["metadata"]["name"] == name]
    assert len(matches) == 1, f"{len(matches)} {kind} named {name}"
    return matches[0]


def pod_specs(documents: list[Document] | None = None) -> dict[str, dict[str, Any]]:
    """The pod template of every Deployment and StatefulSet, by its name."""
    return {d["metadata"]["name"]: d["spec"]["template"]["spec"]
            for d in kinds("Deployment", documents) + kinds("StatefulSet", documents)}  # fmt: skip


def paiju_containers(documents: list[Document] | None = None) -> dict[str, dict[str, Any]]:
    """The containers that run Paiju's image, by their Deployment's name."""
    found = {}
    for name, spec in pod_specs(documents).items():
        for container in spec["containers"]:
            if container["image"].split(":")[0] in (OUR_IMAGE, PREVIOUS_IMAGE):
                found[name] = container
    return found


def k8s_env(container: dict[str, Any], replace: dict[str, str] | None = None,
            documents: list[Document] | None = None) -> dict[str, str]:  # fmt: skip
    """The environment a container gets: its ConfigMaps and Secrets (``replace`` standing for
    the operator's values of the Secret), then its own ``env``."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            env.update(named("ConfigMap", source["configMapRef"]["name"], documents)["data"])
        if "secretRef" in source:
            secret = named("Secret", source["secretRef"]["name"], documents)
            env.update(secret.get("stringData", {}))
            env.update({k: v for k, v in (replace or {}).items() if k in env})
    env.update({e["name"]: e["value"] for e in container.get("env", []) if "value" in e})
    return env


def seconds(duration: str | int) -> float:
    """A compose duration (``45s``, ``1m30s``) in seconds."""
    if isinstance(duration, int):
        return float(duration)
    total = 0.0
    for amount, unit in re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", duration):
        total += float(amount) * {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6}[unit]
    return total
