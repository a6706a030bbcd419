"""deploy/ agrees with the code it deploys: the settings it sets exist and load, every process
of the service is deployed and every queue served, the command lines and exec probes are ones
the paiju CLI accepts, the HTTP probes name routes the API serves, and KEDA counts the very
Redis list Celery puts the commands in."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import redis
from deploy_kit import (
    OPERATOR_ENV,
    OPERATOR_SECRET,
    compose,
    compose_env,
    k8s_env,
    kinds,
    named,
    paiju_containers,
    paiju_services,
)

from ops import metrics_serve
from ops.health import PARTS
from services.api.app import create_api
from services.api.context import ApiContext
from services.cli.main import build_parser
from services.serve import parts
from services.settings import PREFIX, Settings, load_settings
from workers.app import create_app
from workers.client import submit
from workers.queues import QueueNames

REDIS = "redis://127.0.0.1:6379/0"


def setting_variables() -> set[str]:
    """Every variable ``services.settings`` reads: ``PAIJU_<FIELD>`` and the aliases."""
    names = set()
    for field, info in Settings.model_fields.items():
        names.add(PREFIX + field.upper())
        choices = getattr(info.validation_alias, "choices", [])
        names.update(c for c in choices if isinstance(c, str) and c.startswith(PREFIX))
    return names


def compose_parts() -> dict[str, dict[str, Any]]:
    """The compose services that run a part of Paiju (Flower is Celery's, not a part)."""
    return {n: s for n, s in paiju_services().items() if n != "flower"}


def command_lines() -> dict[str, list[str]]:
    """Every ``paiju`` command line deployed: compose's and Kubernetes', by where it is."""
    found = {f"compose {n}": [str(w) for w in s["command"]] for n, s in compose_parts().items()}
    found.update({f"k8s {n}": c["args"] for n, c in paiju_containers().items()})
    return found


def all_paiju_variables() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for name, service in paiju_services().items():
        found[f"compose {name}"] = {v for v in service["environment"] if v.startswith(PREFIX)}
    for name, container in paiju_containers().items():
        found[f"k8s {name}"] = {v for v in k8s_env(container) if v.startswith(PREFIX)}
    return found


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    import os

    for variable in [v for v in os.environ if v.startswith(PREFIX)]:
        monkeypatch.delenv(variable)
    return monkeypatch


def test_every_paiju_variable_set_in_compose_or_kubernetes_is_a_real_setting() -> None:
    known = setting_variables()
    unknown = {where: sorted(v - known) for where, v in all_paiju_variables().items() if v - known}
    assert unknown == {}
    assert "PAIJU_STORE_URL" in known and "PAIJU_BROKER_URL" in known  # the check sees them


def test_each_part_s_settings_load_once_the_operator_fills_in_the_secrets(clean_environment) -> None:
    environments = {f"compose {n}": compose_env(s) for n, s in compose_parts().items()}
    environments.update({f"k8s {n}": k8s_env(c, OPERATOR_SECRET)
                         for n, c in paiju_containers().items()})  # fmt: skip
    for where, env in environments.items():
        with clean_environment.context() as patch:
            for variable, value in env.items():
                patch.setenv(variable, value)
            settings = load_settings()
        assert settings.broker_url.startswith("redis://"), where
        assert settings.store_url.startswith("postgresql://"), where
        assert settings.metrics_port is not None and settings.metrics_host == "0.0.0.0", where
        if "reactor" in where:
            assert settings.webhook_url, where  # paiju reactor refuses to start without one


def test_every_process_of_the_service_is_deployed_in_compose_and_in_kubernetes() -> None:
    service = parts(workers=1, timekeepers=1, reactors=1, with_reactor=True, api_ports=[8080])
    processes = {part.argv[3] for part in service}  # [python, -m, services.cli.main, NAME]
    assert processes == {"api", *PARTS}
    for where in ("compose", "k8s"):
        deployed = {argv[0] for w, argv in command_lines().items() if w.startswith(where)}
        assert deployed == processes, where


def rules_only(where: str) -> bool:
    """The previous release's workers (PAIJU_RULES_QUEUES_ONLY): they serve no ``commands``."""
    kind, name = where.split(" ", 1)
    env = compose_env(compose_parts()[name]) if kind == "compose" else k8s_env(paiju_containers()[name])
    return env.get("PAIJU_RULES_QUEUES_ONLY") == "true"


def test_every_queue_is_served_by_a_worker_and_commands_by_workers_of_their_own() -> None:
    for where in ("compose", "k8s"):
        served: dict[str, list[str]] = {}
        for name, argv in command_lines().items():
            if name.startswith(where) and argv[0] == "worker" and not rules_only(name):
                queues = argv[argv.index("--queues") + 1].split(",")
                served[name] = queues
        assert {q for qs in served.values() for q in qs} == {q.value for q in QueueNames}, where
        with_commands = [qs for qs in served.values() if QueueNames.commands in qs]
        assert with_commands == [[QueueNames.commands.value]], where


def test_the_previous_release_s_workers_serve_only_the_rules_version_queues() -> None:
    found = {w for w, argv in command_lines().items() if argv[0] == "worker" and rules_only(w)}
    assert found == {"compose worker-previous-rules", "k8s worker-previous-rules"}
    for where in found:
        argv = command_lines()[where]
        assert argv[argv.index("--queues") + 1] == QueueNames.commands.value, where


def test_every_deployed_command_line_is_one_the_paiju_cli_accepts() -> None:
    parser = build_parser()
    for where, argv in command_lines().items():
        args = parser.parse_args(argv)
        assert args.command == argv[0], where


def probes() -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    for name, container in paiju_containers().items():
        for kind in ("startupProbe", "livenessProbe", "readinessProbe"):
            if kind in container:
                yield name, kind, container[kind], container


def test_every_exec_probe_is_paiju_health_for_a_part_it_knows() -> None:
    parser = build_parser()
    execs = [(n, k, p) for n, k, p, _ in probes() if "exec" in p]
    assert execs
    for name, kind, probe in execs:
        argv = probe["exec"]["command"]
        assert argv[0] == "paiju", (name, kind)
        args = parser.parse_args(argv[1:])
        assert args.command == "health" and args.part and set(args.part) <= set(PARTS), name
        part = "worker" if name.startswith("worker-") else name  # worker-commands, -effects
        assert args.part == [part], name


@pytest.fixture(scope="module")
def api_paths(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    store = tmp_path_factory.mktemp("deploy-api") / "store.sqlite3"
    ctx = ApiContext.open(load_settings(store_url=f"sqlite:///{store}", broker_url="memory://"))
    try:
        return set(create_api(ctx).openapi()["paths"])
    finally:
        ctx.close()


def test_the_api_s_http_probes_name_routes_of_its_openapi_document(api_paths) -> None:
    container = paiju_containers()["api"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    argv = container["args"]
    http = [(k, p["httpGet"]) for n, k, p, _ in probes() if n == "api" and "httpGet" in p]
    assert {k for k, _ in http} == {"startupProbe", "livenessProbe", "readinessProbe"}
    for kind, get in http:
        assert get["path"] in api_paths, kind
        assert ports[get["port"]] == int(argv[argv.index("--port") + 1]), kind
    assert {"/healthz", "/readyz"} <= api_paths


def test_compose_s_api_healthcheck_asks_a_route_of_the_openapi_document_on_its_port(api_paths) -> None:
    api = compose()["services"]["api"]
    url = re.search(r"http://127\.0\.0\.1:(\d+)(/\w+)", " ".join(api["healthcheck"]["test"]))
    assert url is not None
    assert url[2] in api_paths
    assert url[1] == api["command"][api["command"].index("--port") + 1]


def test_the_other_parts_liveness_asks_metrics_on_the_port_their_settings_serve() -> None:
    for name, _kind, probe, container in probes():
        if name == "api" or "httpGet" not in probe:
            continue
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        assert probe["httpGet"]["path"] == "/metrics", name
        assert ports[probe["httpGet"]["port"]] == int(k8s_env(container)["PAIJU_METRICS_PORT"])
    for name, service in compose_parts().items():
        if name == "api":
            continue
        check = " ".join(service["healthcheck"]["test"])
        port = compose_env(service)["PAIJU_METRICS_PORT"]
        assert f"http://127.0.0.1:{port}/metrics" in check, name


def test_a_part_s_metrics_server_answers_the_liveness_probe_s_path() -> None:
    server = metrics_serve.serve_metrics(load_settings(metrics_port=0, metrics_host="127.0.0.1"))
    assert server is not None
    try:
        answer = httpx.get(server.address.removesuffix("/metrics") + "/metrics", timeout=5)
    finally:
        server.stop()
    assert answer.status_code == 200 and b"# HELP" in answer.content


def test_keda_counts_the_list_named_by_the_key_prefix_and_the_commands_queue() -> None:
    (scaled,) = kinds("ScaledObject")
    (trigger,) = scaled["spec"]["triggers"]
    prefix = named("ConfigMap", "paiju-settings")["data"]["PAIJU_KEY_PREFIX"]
    assert trigger["type"] == "redis"
    assert trigger["metadata"]["listName"] == f"{prefix}{QueueNames.commands.value}"
    assert scaled["spec"]["scaleTargetRef"]["name"] == "worker-commands"


def test_the_list_keda_counts_is_the_redis_key_celery_puts_a_command_in() -> None:
    (scaled,) = kinds("ScaledObject")
    prefix = named("ConfigMap", "paiju-settings")["data"]["PAIJU_KEY_PREFIX"]
    list_name = scaled["spec"]["triggers"][0]["metadata"]["listName"]
    ours = f"deploy-test-{uuid.uuid4().hex[:8]}:"  # the same shape, under a prefix of our own
    app = create_app(load_settings(broker_url=REDIS, key_prefix=ours))
    client = redis.Redis.from_url(REDIS)
    try:
        submit(app, "t-keda", {"command": "discard_tile", "seat": 0, "tile": "5m"},
               command_id="c-keda")  # fmt: skip
        lists = {k.decode(): client.llen(k) for k in client.scan_iter(match=f"{ours}*", count=500)
                 if client.type(k) == b"list"}  # fmt: skip
    finally:
        for key in list(client.scan_iter(match=f"{ours}*", count=500)):
            client.delete(key)
        app.close()
        client.close()
    assert lists == {ours + list_name.removeprefix(prefix): 1}


def test_the_keda_trigger_reads_the_redis_and_database_of_the_broker_url() -> None:
    (scaled,) = kinds("ScaledObject")
    metadata = scaled["spec"]["triggers"][0]["metadata"]
    broker = urlsplit(named("ConfigMap", "paiju-settings")["data"]["PAIJU_BROKER_URL"])
    assert metadata["address"] == f"{broker.hostname}:{broker.port}"
    assert metadata["databaseIndex"] == broker.path.strip("/")
    redis_service = named("Service", "redis")
    assert broker.hostname.startswith(f"redis.{redis_service['metadata']['namespace']}.svc")


def test_the_readme_names_every_setting_deploy_sets() -> None:
    readme = (Path(__file__).resolve().parents[2] / "deploy" / "README.md").read_text()
    used = set().union(*all_paiju_variables().values())
    assert sorted(v for v in used if v not in readme) == []


def test_without_a_webhook_compose_s_parts_load_and_health_expects_no_reactor(
    clean_environment,
) -> None:
    from ops.health import expected_parts

    no_webhook = {k: v for k, v in OPERATOR_ENV.items() if not k.startswith("PAIJU_WEBHOOK_")}
    for variable, value in compose_env(compose_parts()["worker-effects"], no_webhook).items():
        clean_environment.setenv(variable, value)
    settings = load_settings()
    assert not settings.webhook_url
    assert expected_parts(settings) == [p for p in PARTS if p != "reactor"]
