"""``PAIJU_RULES_QUEUES_ONLY``: a worker serving ``commands`` keeps only the hand-back queues
of its rules versions, so the previous release's workers, kept through a rolling upgrade,
take only the commands of their version's tables."""

from __future__ import annotations

from services.rules import RULES_VERSION
from services.settings import load_settings
from workers.app import create_app, serve_rules_queues_only
from workers.queues import rules_queue


def consumed(rules_only: bool) -> set[str]:
    app = create_app(load_settings(rules_queues_only=rules_only))
    app.amqp.queues.select(["commands", rules_queue(RULES_VERSION)])  # as `paiju worker` asks
    if app.settings.rules_queues_only:
        serve_rules_queues_only(app)
    return set(app.amqp.queues.consume_from)


def test_a_rules_only_worker_serves_its_versions_queue_and_not_commands() -> None:
    assert consumed(rules_only=True) == {"commands.rules.paiju-rules-1"}


def test_by_default_a_worker_serves_commands_and_its_versions_queue() -> None:
    assert consumed(rules_only=False) == {"commands", "commands.rules.paiju-rules-1"}


def test_the_setting_is_read_from_the_environment(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PAIJU_RULES_QUEUES_ONLY", "true")
    assert load_settings().rules_queues_only is True
