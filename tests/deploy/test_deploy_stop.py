"""The deployed parts, run as the manifests run them (their command lines and settings, on a
real PostgreSQL and Redis, each in a process of its own): their liveness and readiness probes
pass, and each stops on a SIGTERM sent to its main process alone, as the kubelet and docker send
it, with status 0, taking its heartbeat with it (how long each took is printed beside its grace
period).

The API is given a free port, and the metrics a free port each (one host here, not one pod
each); everything listens on 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import suppress

import httpx
import pytest
import redis
from deploy_kit import OPERATOR_SECRET, k8s_env, paiju_containers, pod_specs
from pg_reset import fresh_schema

from services.settings import PREFIX

REDIS = "redis://127.0.0.1:6379/0"
PG = "postgresql://postgres@127.0.0.1:5432/paiju_test"
STARTING = 120.0  # seconds the parts have to start on a loaded 2-core machine, at most
BOUND = 120.0  # seconds any one step (a probe, a stop) may take before the test gives up


def paiju() -> list[str]:
    import shutil
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "paiju"
    return [str(script)] if script.exists() else [shutil.which("paiju") or "paiju"]


@pytest.fixture
def deployed_env() -> Iterator[dict[str, str]]:
    prefix = f"deploy-stop-{uuid.uuid4().hex[:8]}:"
    with fresh_schema("deploy_stop") as schema:
        env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIX)}
        env.update(k8s_env(paiju_containers()["timekeeper"], OPERATOR_SECRET))
        env.update({
            "PAIJU_STORE_URL": f"{PG}?schema={schema}", "PAIJU_BROKER_URL": REDIS,
            "PAIJU_KEY_PREFIX": prefix, "PAIJU_METRICS_PORT": "0",
            "PAIJU_METRICS_HOST": "127.0.0.1", "PAIJU_HEARTBEAT_SECONDS": "1",
            "PAIJU_WEBHOOK_URL": "http://127.0.0.1:9/hook", "PAIJU_LOG_LEVEL": "WARNING",
        })  # fmt: skip
        try:
            yield env
        finally:
            client = redis.Redis.from_url(REDIS)
            for key in list(client.scan_iter(match=f"{prefix}*", count=500)):
                client.delete(key)
            client.close()


def heartbeats(prefix: str) -> dict[str, dict[str, object]]:
    client = redis.Redis.from_url(REDIS)
    try:
        keys = list(client.scan_iter(match=f"{prefix}health:*", count=500))
        if not keys:
            return {}
        values = client.mget(keys)
        return {k.decode(): json.loads(v) for k, v in zip(keys, values, strict=True) if v}
    finally:
        client.close()


def started(argv: list[str]) -> list[str]:
    """The deployed command line, with the API on a free loopback port."""
    if argv[0] == "api":
        return ["api", "--host", "127.0.0.1", "--port", "0"]
    return argv


def test_each_deployed_part_answers_its_probes_then_stops_cleanly_on_sigterm(
    deployed_env, tmp_path
) -> None:
    containers = paiju_containers()
    logs = {name: (tmp_path / f"{name}.log").open("wb") for name in containers}
    processes = {
        name: subprocess.Popen([*paiju(), *started(c["args"])], env=deployed_env,
                               stdout=subprocess.PIPE, stderr=logs[name])
        for name, c in containers.items()
    }  # fmt: skip
    prefix = deployed_env["PAIJU_KEY_PREFIX"]

    def said(name: str) -> str:  # the end of a part's log, for a failure's message
        return (tmp_path / f"{name}.log").read_text(errors="replace")[-2000:]

    try:
        first_line = processes["api"].stdout.readline().decode()  # type: ignore[union-attr]
        api = re.search(r"listening on (http://[\d.:]+)", first_line)
        assert api, (first_line, said("api"))
        parts = {"worker", "timekeeper", "projector", "reactor"}
        deadline = time.monotonic() + STARTING
        while time.monotonic() < deadline:
            beats = heartbeats(prefix)
            if {b["part"] for b in beats.values()} >= parts and len(beats) >= len(containers) - 1:
                break
            exited = [n for n, p in processes.items() if p.poll() is not None]
            assert not exited, {n: said(n) for n in exited}
            time.sleep(0.5)
        beats = heartbeats(prefix)
        assert {b["part"] for b in beats.values()} >= parts, beats

        # liveness: the API's /healthz, every other part's /metrics (from its heartbeat)
        assert httpx.get(f"{api[1]}/healthz", timeout=10).status_code == 200
        assert httpx.get(f"{api[1]}/readyz", timeout=10).status_code == 200
        for beat in beats.values():
            assert httpx.get(str(beat["detail"]["metrics"]), timeout=10).status_code == 200, beat

        # readiness: the deployed exec probes' parts, in one run of paiju health (each pod's
        # kubelet runs its own; here one process start instead of five on a shared machine)
        named_parts = [arg for c in containers.values() if "exec" in c["readinessProbe"]
                       for arg in c["readinessProbe"]["exec"]["command"][2:]]  # fmt: skip
        assert named_parts[0] == "--part"
        probe = subprocess.run([*paiju(), "health", *named_parts], env=deployed_env,
                               capture_output=True, timeout=BOUND)  # fmt: skip
        assert probe.returncode == 0, probe.stdout.decode()

        stopping = time.monotonic()
        for process in processes.values():
            process.send_signal(signal.SIGTERM)  # the main process only, as a container's PID 1
        took = {}
        for name, process in processes.items():
            assert process.wait(BOUND) == 0, (name, said(name))
            took[name] = round(time.monotonic() - stopping, 1)
        # Seconds each took to stop, beside its grace period (shown, not asserted: a loaded
        # test machine is no measure of a pod's).
        print("stopped after", {n: (t, pod_specs()[n]["terminationGracePeriodSeconds"])
                                for n, t in took.items()})  # fmt: skip
        assert heartbeats(prefix) == {}  # every part said goodbye
    finally:
        for process in processes.values():
            if process.poll() is None:
                with suppress(ProcessLookupError):
                    process.kill()
                process.wait(10)
        for log in logs.values():
            log.close()
