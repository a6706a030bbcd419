"""Tables in several stores (partitions), as deployed: compose's `partitions` profiles and the
Kubernetes overlay deploy/k8s-partitions. Each table store named by PAIJU_TABLE_STORES has a
timekeeper, a projector and a reactor reading it (``--partition N``, a number the setting
names), every part reads the same PAIJU_TABLE_STORES (the API and the workers route each
table's commands to its store themselves), the readers of table stores run only where the
setting names them, and the overlay's Deployments are the base's readers in all but their
name, labels and partition.

The overlay is read as kustomize reads it (``deploy_kit.overlay_documents``); where kubectl
is installed, its own ``kubectl kustomize`` is compared with that reading."""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
from typing import Any

import kubernetes_validate
import pytest
import yaml
from deploy_kit import (
    DEPLOY,
    K8S,
    K8S_PARTITIONS,
    OPERATOR_ENV,
    OPERATOR_SECRET,
    OPERATOR_TABLE_STORES,
    compose,
    compose_env,
    interpolate,
    k8s_documents,
    k8s_env,
    kinds,
    kustomization,
    named,
    overlay_documents,
    paiju_containers,
    paiju_services,
)

from services.cli.failures import CliError
from services.cli.main import build_parser
from services.cli.partition_opt import partition_of
from services.settings import PREFIX, SettingsError, load_settings
from services.tables.partitions import parse_table_stores

READERS = ("timekeeper", "projector", "reactor")  # what reads one partition's log
KUBERNETES = "1.33.0"


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    import os

    for variable in [v for v in os.environ if v.startswith(PREFIX)]:
        monkeypatch.delenv(variable)
    return monkeypatch


def settings_of(patch: pytest.MonkeyPatch, env: dict[str, str]) -> Any:
    with patch.context() as scoped:
        for variable, value in env.items():
            scoped.setenv(variable, value)
        return load_settings()


def partition_argument(argv: list[str]) -> int | None:
    """The ``--partition N`` of a command line, as the paiju CLI reads it (None: not given)."""
    if "--partition" not in argv:
        return None
    args = build_parser().parse_args(argv)
    assert args.command == argv[0]
    return int(args.partition)


# -- compose ---------------------------------------------------------------------------------
def compose_readers() -> dict[str, dict[str, Any]]:
    """The compose services that read a table store: the ones given ``--partition``."""
    return {n: s for n, s in paiju_services().items()
            if partition_argument([str(w) for w in s.get("command", [])]) is not None}  # fmt: skip


def example_table_stores() -> str:
    """example.env's PAIJU_TABLE_STORES (commented out there), as compose reads deploy/.env:
    interpolated with the operator's other variables."""
    lines = (DEPLOY / "example.env").read_text().splitlines()
    (line,) = [ln for ln in lines if re.match(r"#\s*PAIJU_TABLE_STORES=", ln)]
    return interpolate(line.split("=", 1)[1], OPERATOR_ENV)


def example_profiles() -> list[str]:
    lines = (DEPLOY / "example.env").read_text().splitlines()
    (line,) = [ln for ln in lines if re.match(r"#\s*COMPOSE_PROFILES=", ln)]
    return line.split("=", 1)[1].split()[0].split(",")


def active(service: dict[str, Any], profiles: set[str]) -> bool:
    """Whether compose starts the service under these profiles: a service with profiles runs
    when any one of them is active."""
    return "profiles" not in service or bool(set(service["profiles"]) & profiles)


def test_each_table_store_of_compose_has_a_timekeeper_a_projector_and_a_reactor() -> None:
    numbers = set(parse_table_stores(example_table_stores()))
    assert numbers == {1, 2}
    found = {(str(s["command"][0]), partition_argument(s["command"])) for s in compose_readers().values()}
    assert found == {(part, n) for part in READERS for n in numbers}
    for name, service in compose_readers().items():
        part, number = service["command"][0], partition_argument(service["command"])
        assert name == f"{part}-{number}"
        assert service["command"] == [part, "--partition", str(number)], name


def test_compose_s_partition_readers_read_the_shared_settings_with_the_table_stores() -> None:
    document = compose()
    shared = document["x-paiju-env"]
    assert shared["PAIJU_TABLE_STORES"] == "${PAIJU_TABLE_STORES:-}"  # optional, empty by default
    with_stores = {**OPERATOR_ENV, "PAIJU_TABLE_STORES": example_table_stores()}
    api = compose_env(paiju_services(document)["api"], with_stores)
    for name, service in compose_readers().items():
        assert service["environment"] == shared, name  # the anchor itself, nothing added
        assert compose_env(service, with_stores) == api, name
        assert service["healthcheck"] == document["services"]["timekeeper"]["healthcheck"], name
        base = document["services"][service["command"][0]]
        assert {k: v for k, v in service.items() if k not in ("command", "profiles")} == {
            k: v for k, v in base.items() if k not in ("command", "profiles")}, name  # fmt: skip


def test_every_compose_part_loads_the_table_stores_and_each_reader_s_partition_is_named(
    clean_environment,
) -> None:
    with_stores = {**OPERATOR_ENV, "PAIJU_TABLE_STORES": example_table_stores()}
    for name, service in paiju_services().items():
        if name == "flower":
            continue
        settings = settings_of(clean_environment, compose_env(service, with_stores))
        urls = settings.table_store_urls()
        assert sorted(urls) == [1, 2], name
        home = settings.store_url
        for url in urls.values():  # schemas of compose's own PostgreSQL, beside the home store
            assert url.split("?")[0] == home and url != home, name
        argv = [str(w) for w in service["command"]]
        if argv[0] in READERS:
            args = build_parser().parse_args(argv)
            assert partition_of(args, settings) == (partition_argument(argv) or 0), name


def test_without_table_stores_every_part_loads_and_no_partition_reader_would_start(
    clean_environment,
) -> None:
    for name, service in paiju_services().items():
        if name == "flower":
            continue
        settings = settings_of(clean_environment, compose_env(service))
        assert settings.table_store_urls() == {}, name
        if name in compose_readers():
            args = build_parser().parse_args([str(w) for w in service["command"]])
            with pytest.raises(CliError, match="PAIJU_TABLE_STORES names no table store"):
                partition_of(args, settings)


def test_compose_runs_the_partition_readers_only_with_their_profiles() -> None:
    services = compose()["services"]
    readers = compose_readers()
    default = {n for n, s in services.items() if active(s, set())}
    assert not default & set(readers)
    for profiles, wanted in (
        ({"partitions"}, {"timekeeper", "projector"}),
        ({"webhooks"}, set()),  # compose's profiles are "any of": the reactors have their own
        ({"partitions", "webhooks", "partitions-webhooks"}, set(READERS)),
    ):
        running = {s["command"][0] for s in readers.values() if active(s, profiles)}
        assert running == wanted, profiles
    assert example_profiles() == ["partitions"]


# -- Kubernetes ------------------------------------------------------------------------------
def overlay_deployments() -> dict[str, dict[str, Any]]:
    """The overlay's own Deployments (not the base's), by name."""
    base = {d["metadata"]["name"] for d in kinds("Deployment")}
    return {d["metadata"]["name"]: d for d in kinds("Deployment", overlay_documents())
            if d["metadata"]["name"] not in base}  # fmt: skip


def overlay_secret_stores() -> dict[int, str]:
    secret = named("Secret", "paiju-secrets", overlay_documents())
    return parse_table_stores(secret["stringData"]["PAIJU_TABLE_STORES"])


def test_the_overlay_is_the_base_and_every_manifest_of_its_folder() -> None:
    overlay = kustomization(K8S_PARTITIONS)
    assert overlay["resources"][0] == "../k8s" and (K8S_PARTITIONS / "../k8s").resolve() == K8S
    patches = [p["path"] for p in overlay["patches"]]
    on_disk = sorted(p.name for p in K8S_PARTITIONS.glob("*.yaml") if p.name != "kustomization.yaml")
    assert sorted(overlay["resources"][1:] + patches) == on_disk
    # the base's images: apply to the base's objects only; the overlay names the same
    base_images = {i["name"]: i for i in kustomization(K8S)["images"]}
    for image in overlay["images"]:
        assert image == base_images[image["name"]]


def test_each_table_store_of_the_overlay_has_a_timekeeper_a_projector_and_a_reactor() -> None:
    numbers = set(overlay_secret_stores())
    assert numbers == {1, 2}
    found = {}
    for name, deployment in overlay_deployments().items():
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        number = partition_argument(container["args"])
        assert number in numbers, name  # --partition N for a number the overlay's secret names
        part = container["args"][0]
        assert container["args"] == [part, "--partition", str(number)], name
        assert name == f"{part}-p{number}", name
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert labels["paiju-partition"] == str(number), name
        assert labels["app.kubernetes.io/component"] == part, name
        found[(part, number)] = name
    assert set(found) == {(part, n) for part in READERS for n in numbers}


def test_the_overlay_s_deployments_are_the_base_s_readers_but_for_name_labels_and_partition() -> None:
    def shape(deployment: dict[str, Any]) -> dict[str, Any]:
        kept = copy.deepcopy(deployment)
        del kept["metadata"]["labels"], kept["spec"]["selector"]
        del kept["spec"]["template"]["metadata"]["labels"], kept["metadata"]["name"]
        for container in kept["spec"]["template"]["spec"]["containers"]:
            container["args"] = container["args"][:1]
            ready = container["readinessProbe"]["exec"]["command"]  # its own partition's readers
            container["readinessProbe"]["exec"]["command"] = ready[:4]
        return kept

    for name, deployment in overlay_deployments().items():
        container = deployment["spec"]["template"]["spec"]["containers"][0]
        part, partition = container["args"][0], container["args"][2]
        assert container["readinessProbe"]["exec"]["command"] == [
            "paiju", "health", "--part", part, "--partition", partition], name  # fmt: skip
        base = named("Deployment", part)
        # probes, securityContext, resources, replicas, volumes, envFrom, grace: the same
        assert shape(deployment) == shape(base), name
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert labels["app.kubernetes.io/part-of"] == "paiju", name
        assert deployment["metadata"]["labels"] == labels, name


def test_no_deployment_selects_another_s_pods() -> None:
    deployments = kinds("Deployment", overlay_documents())
    for one in deployments:
        selector = one["spec"]["selector"]["matchLabels"]
        for other in deployments:
            labels = other["spec"]["template"]["metadata"]["labels"]
            selected = selector.items() <= labels.items()
            assert selected == (one is other), (one["metadata"]["name"], other["metadata"]["name"])


def test_the_overlay_s_manifests_are_valid_under_the_kubernetes_schemas() -> None:
    checked = [d for d in overlay_deployments().values()] + [named("Secret", "paiju-secrets",
                                                                   overlay_documents())]  # fmt: skip
    refused = {}
    for document in checked:
        try:
            kubernetes_validate.validate(document, KUBERNETES, strict=True)
        except kubernetes_validate.ValidationError as error:
            refused[document["metadata"]["name"]] = f"{error.path}: {error.message}"
    assert refused == {}


def test_the_overlay_s_probes_and_command_lines_are_ones_the_paiju_cli_accepts() -> None:
    parser = build_parser()
    for name, container in paiju_containers(overlay_documents()).items():
        if name not in overlay_deployments():
            continue
        part = container["args"][0]
        assert parser.parse_args(container["args"]).command == part, name
        argv = container["readinessProbe"]["exec"]["command"]
        args = parser.parse_args(argv[1:])
        assert argv[0] == "paiju" and args.command == "health" and args.part == [part], name
        assert container["livenessProbe"]["httpGet"]["path"] == "/metrics", name


def test_the_overlay_s_table_stores_are_placeholders_in_the_secret_every_part_reads(
    clean_environment,
) -> None:
    documents = overlay_documents()
    secret = named("Secret", "paiju-secrets", documents)
    placeholder = secret["stringData"]["PAIJU_TABLE_STORES"]
    assert all("CHANGE-ME" in url for url in parse_table_stores(placeholder).values())
    assert "PAIJU_TABLE_STORES" not in named("ConfigMap", "paiju-settings", documents)["data"]
    operator = {**OPERATOR_SECRET, "PAIJU_TABLE_STORES": OPERATOR_TABLE_STORES}
    for name, container in paiju_containers(documents).items():
        env = k8s_env(container, documents=documents)
        assert env["PAIJU_TABLE_STORES"] == placeholder, name  # every part, not the readers only
        with pytest.raises(SettingsError):  # nothing starts on the placeholders
            settings_of(clean_environment, env)
        settings = settings_of(clean_environment, k8s_env(container, operator, documents))
        assert sorted(settings.table_store_urls()) == sorted(overlay_secret_stores()), name
        if container["args"][0] in READERS:
            args = build_parser().parse_args(container["args"])
            assert partition_of(args, settings) == (partition_argument(container["args"]) or 0)


def test_the_base_alone_names_no_table_store() -> None:
    for name, container in paiju_containers().items():
        assert "PAIJU_TABLE_STORES" not in k8s_env(container), name
        assert partition_argument(container["args"]) is None, name
    assert not any("k8s-partitions" in where for where, _ in k8s_documents())


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_kustomize_renders_the_overlay_as_these_tests_read_it() -> None:
    rendered = subprocess.run(["kubectl", "kustomize", str(K8S_PARTITIONS)], check=True,
                              capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    theirs = [d for d in yaml.safe_load_all(rendered) if d]
    ours = [d for _, d in overlay_documents()]

    def key(d: dict[str, Any]) -> tuple[str, str]:
        return d["kind"], d["metadata"]["name"]

    assert sorted(map(key, theirs)) == sorted(map(key, ours))
    by_key = {key(d): d for d in theirs}
    secret = by_key[("Secret", "paiju-secrets")]["stringData"]
    assert secret == named("Secret", "paiju-secrets", overlay_documents())["stringData"]
    for name, deployment in overlay_deployments().items():
        theirs_one = by_key[("Deployment", name)]
        (container,) = theirs_one["spec"]["template"]["spec"]["containers"]
        (mine,) = deployment["spec"]["template"]["spec"]["containers"]
        assert container["args"] == mine["args"], name
        assert container["image"].startswith("registry.example.invalid/paiju:"), name
        assert theirs_one["spec"]["template"]["metadata"]["labels"] == (
            deployment["spec"]["template"]["metadata"]["labels"]), name  # fmt: skip
