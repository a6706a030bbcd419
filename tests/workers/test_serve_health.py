"""The embedded default's parts are threads of one process: each writes its heartbeat there,
so the API's readiness (and the dashboard) judge them as they judge separate processes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from ops.health import LocalBoard
from services.serve import Embedded
from services.settings import load_settings


def parts_ready(address: str, timeout: float = 20.0) -> dict[str, Any]:
    """The readiness answer once every part of it has beaten (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = httpx.get(f"{address}/readyz", timeout=5).json()
        parts: dict[str, Any] = answer.get("parts", {})
        if {"worker", "timekeeper", "projector"} <= parts.keys() or time.monotonic() > deadline:
            return parts
        time.sleep(0.1)


def test_the_embedded_worker_timekeeper_and_projector_report_their_heartbeats(
    tmp_path: Path,
) -> None:
    settings = load_settings(store_url=f"sqlite:///{tmp_path}/health.sqlite3", api_port=0,
                             broker_url="memory://", webhook_url=None)  # fmt: skip
    embedded = Embedded(settings)
    embedded.start()
    try:
        assert embedded.api is not None
        parts = parts_ready(embedded.api.address)
    finally:
        embedded.close()
    assert {"worker", "timekeeper", "projector"} <= parts.keys(), parts
    for name in ("worker", "timekeeper", "projector"):
        assert parts[name]["healthy"], parts[name]["problems"]
    mine = [b for b in LocalBoard().read() if b.part in ("worker", "timekeeper", "projector")]
    assert mine == []  # a clean stop takes its heartbeats away
