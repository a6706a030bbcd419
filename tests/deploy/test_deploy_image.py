"""deploy/Dockerfile builds what pyproject.toml installs, as the user the manifests name, with
``paiju`` as its entry point; Redis is configured alike in compose and in Kubernetes. (No
container engine here: the Dockerfile is read, not built.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from deploy_kit import DEPLOY, compose, interpolate, paiju_containers, pod_specs

ROOT = DEPLOY.parent
DOCKERFILE = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text())  # lines joined


def instructions(name: str) -> list[str]:
    return re.findall(rf"^{name}\s+(.+)$", DOCKERFILE, flags=re.MULTILINE)


def test_the_image_is_python_3_11_slim_installing_the_project_with_pip() -> None:
    assert instructions("FROM")[0].split()[0] == "python:3.11-slim"
    assert any(re.search(r"\bpip install \.(\s|$)", run) for run in instructions("RUN"))


def test_the_image_copies_every_package_and_file_the_install_needs() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = {Path(c.split()[0]).name for c in instructions("COPY")}
    copied |= {w for c in instructions("COPY") for w in c.split()[:-1]}
    assert packages | {"pyproject.toml", project["project"]["readme"]} <= copied
    allowed = {line[1:] for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
               if line.startswith("!")}  # fmt: skip
    assert packages | {"pyproject.toml", project["project"]["readme"]} <= allowed


def test_the_image_runs_paiju_as_the_non_root_user_the_manifests_name() -> None:
    (user_add,) = [r for r in instructions("RUN") if "useradd" in r]
    uid = int(re.search(r"--uid (\d+)", user_add)[1])  # type: ignore[index]
    users = instructions("USER")
    assert users[0] == users[-1] == "paiju"  # each stage ends as paiju (flower installs as root)
    assert instructions("ENTRYPOINT")[0] == '["paiju"]'
    assert instructions("STOPSIGNAL") == ["SIGTERM"]
    for name in paiju_containers():
        assert pod_specs()[name]["securityContext"]["runAsUser"] == uid, name


def test_flower_is_built_from_the_paiju_image_on_its_app() -> None:
    assert "paiju AS flower" in instructions("FROM")[1]
    assert instructions("ENTRYPOINT")[1] == '["celery", "--app", "workers.app", "flower"]'
    build = compose()["services"]["flower"]["build"]
    assert build["target"] == "flower" and build["dockerfile"] == "deploy/Dockerfile"


def test_redis_is_configured_alike_in_compose_and_in_kubernetes() -> None:
    words = [interpolate(str(w), {}) for w in compose()["services"]["redis"]["command"][1:]]
    (redis,) = pod_specs()["redis"]["containers"]
    assert words == redis["args"]
