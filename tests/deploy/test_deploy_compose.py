"""deploy/compose.yaml: valid under the compose specification's own schema, and what the
service needs of it (a durable Redis that never evicts, health before start, a graceful stop).

The schema is the compose-spec one that check-jsonschema ships (its
``builtin_schemas/vendor/compose-spec.json``, with the compose-spec project's licence beside
it in that package): no container engine runs on this machine, so docker compose itself cannot
be asked."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest
from deploy_kit import compose, compose_env, interpolate, paiju_services, seconds


@pytest.fixture(scope="module")
def compose_spec() -> jsonschema.protocols.Validator:
    text = (resources.files("check_jsonschema") / "builtin_schemas/vendor/compose-spec.json").read_text()
    schema = json.loads(text)
    return jsonschema.validators.validator_for(schema)(schema)


def errors(validator: jsonschema.protocols.Validator, document: dict[str, Any]) -> list[str]:
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(document)]


def test_the_compose_file_is_valid_under_the_compose_spec_schema(compose_spec) -> None:
    assert errors(compose_spec, compose()) == []


def test_the_schema_refuses_a_misspelled_service_key_so_the_check_can_fail(compose_spec) -> None:
    document = copy.deepcopy(compose())
    document["services"]["api"]["stop_grace_periode"] = "45s"
    document["services"]["redis"]["healthcheck"]["interval"] = 5
    found = errors(compose_spec, document)
    assert any("stop_grace_periode" in e for e in found), found
    assert any("interval" in e for e in found), found


def test_redis_keeps_an_append_only_file_on_a_volume_and_refuses_writes_rather_than_evict() -> None:
    redis = compose()["services"]["redis"]
    command = [interpolate(str(word), {}) for word in redis["command"]]
    options = dict(zip(command[1::2], command[2::2], strict=True))
    assert command[0] == "redis-server"
    assert options["--appendonly"] == "yes"
    assert options["--appendfsync"] == "everysec"
    assert options["--maxmemory-policy"] == "noeviction"
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    assert redis["volumes"][0].split(":")[0] in compose()["volumes"]


def test_postgres_keeps_its_data_in_a_named_volume() -> None:
    document = compose()
    volumes = document["services"]["postgres"]["volumes"]
    assert "pgdata:/var/lib/postgresql/data" in volumes
    assert "pgdata" in document["volumes"]


def test_every_part_starts_only_once_postgres_and_redis_are_healthy() -> None:
    for name, service in paiju_services().items():
        wanted = {"redis"} if name == "flower" else {"postgres", "redis"}
        conditions = {dep: spec["condition"] for dep, spec in service["depends_on"].items()}
        assert conditions == dict.fromkeys(wanted, "service_healthy"), name
    for name in ("postgres", "redis"):
        assert compose()["services"][name]["healthcheck"]["test"][0] == "CMD"


def test_every_part_has_a_healthcheck_and_is_restarted_when_it_exits() -> None:
    for name, service in compose()["services"].items():
        assert service.get("healthcheck") or name == "flower", name
        assert service["restart"] == "unless-stopped", name


def test_every_part_stops_on_sigterm_with_longer_than_a_webhook_post_to_finish() -> None:
    for name, service in paiju_services().items():
        if name == "flower":
            continue
        timeout = float(compose_env(service)["PAIJU_WEBHOOK_TIMEOUT"])
        # one post waits at most that long to connect, to write, to read and for the pool
        assert service["stop_signal"] == "SIGTERM", name
        assert seconds(service["stop_grace_period"]) > 4 * timeout, name


def test_every_part_reads_the_same_settings() -> None:
    """Only the previous release's workers add one: they serve only the version queues."""
    environments = {name: compose_env(s) for name, s in paiju_services().items()}
    previous = environments.pop("worker-previous-rules")
    first = next(iter(environments.values()))
    assert all(env == first for env in environments.values())
    assert previous == {**first, "PAIJU_RULES_QUEUES_ONLY": "true"}


def test_the_previous_release_s_workers_run_only_in_their_profile_on_their_own_image() -> None:
    previous = compose()["services"]["worker-previous-rules"]
    assert previous["profiles"] == ["previous-rules"]
    assert previous["image"].startswith("${PAIJU_PREVIOUS_IMAGE:-")
    assert previous["command"][:3] == ["worker", "--queues", "commands"]


def test_the_secrets_must_be_given_compose_refuses_to_start_without_them() -> None:
    api = paiju_services()["api"]
    with pytest.raises(KeyError, match="PAIJU_API_TOKEN_SECRET"):
        compose_env(api, {"POSTGRES_PASSWORD": "x", "PAIJU_SNAPSHOT_KEY": "y" * 16})


def test_flower_and_the_reactor_run_only_in_their_profiles() -> None:
    services = compose()["services"]
    assert services["flower"]["profiles"] == ["ops"]
    assert services["reactor"]["profiles"] == ["webhooks"]
    always = [n for n, s in services.items() if "profiles" not in s]
    assert sorted(always) == sorted(["postgres", "redis", "api", "worker-commands",
                                     "worker-effects", "timekeeper", "projector"])  # fmt: skip


def test_only_the_api_is_published_beyond_the_host_and_flower_only_on_loopback() -> None:
    services = compose()["services"]
    published = {n for n, s in services.items() if s.get("ports")}
    assert published == {"api", "flower"}
    assert interpolate(services["flower"]["ports"][0], {}).startswith("127.0.0.1:")
