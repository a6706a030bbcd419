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


def kinds(kind: str) -> list[dict[str, Any]]:
    return [d for _, d in k8s_documents() if d["kind"] == kind]


def named(kind: str, name: str) -> dict[str, Any]:
    matches = [d for d in kinds(kind) if d["metadata"]["name"] == name]
    assert len(matches) == 1, f"{len(matches)} {kind} named {name}"
    return matches[0]


def pod_specs() -> dict[str, dict[str, Any]]:
    """The pod template of every Deployment and StatefulSet, by its name."""
    return {d["metadata"]["name"]: d["spec"]["template"]["spec"]
            for d in kinds("Deployment") + kinds("StatefulSet")}  # fmt: skip


def paiju_containers() -> dict[str, dict[str, Any]]:
    """The containers that run Paiju's image, by their Deployment's name."""
    found = {}
    for name, spec in pod_specs().items():
        for container in spec["containers"]:
            if container["image"].split(":")[0] in (OUR_IMAGE, PREVIOUS_IMAGE):
                found[name] = container
    return found


def k8s_env(container: dict[str, Any], replace: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a container gets: its ConfigMaps and Secrets (``replace`` standing for
    the operator's values of the Secret), then its own ``env``."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            env.update(named("ConfigMap", source["configMapRef"]["name"])["data"])
        if "secretRef" in source:
            secret = named("Secret", source["secretRef"]["name"])
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
