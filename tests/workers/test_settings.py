"""The workers' settings from ``PAIJU_*`` variables, the app built from them, ``paiju worker``'s
refusals: every bad value refused with the variable's name."""

from __future__ import annotations

import pytest
from celery.exceptions import QueueNotFound

from services.cli.main import main
from services.settings import SettingsError, load_settings
from workers.app import create_app
from workers.queues import QueueNames


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("PAIJU_CONCURRENCY", "many"),
        ("PAIJU_CONCURRENCY", "0"),
        ("PAIJU_VISIBILITY_TIMEOUT", "1"),
        ("PAIJU_TURN_SECONDS", "0"),
        ("PAIJU_RECONNECT_GRACE_SECONDS", "99999"),
        ("PAIJU_LOG_FORMAT", "xml"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError, match=variable):
        load_settings()


def test_a_short_snapshot_key_is_refused_without_being_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PAIJU_SNAPSHOT_KEY", "hunter2")
    with pytest.raises(SettingsError, match="PAIJU_SNAPSHOT_KEY") as refused:
        load_settings()
    assert "hunter2" not in str(refused.value)


def test_the_store_is_named_as_the_other_paiju_commands_name_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PAIJU_STORE_URL", raising=False)
    monkeypatch.setenv("PAIJU_STORE", "sqlite:///elsewhere.sqlite3")
    assert load_settings().store_url == "sqlite:///elsewhere.sqlite3"


def test_the_platforms_default_waits_are_given_by_the_tables_timing_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PAIJU_TURN_SECONDS", "20")
    monkeypatch.setenv("PAIJU_AUTOPLAY_WINDOW_SECONDS", "5")
    assert load_settings().default_timing() == {"turn": 20, "autoplay_window": 5}


def test_a_task_bound_for_a_queue_no_worker_declares_is_refused_not_lost() -> None:
    app = create_app(load_settings(broker_url="memory://"))
    with pytest.raises(QueueNotFound):
        app.send_task("paiju.commands.handle", kwargs={}, queue="celery")
    assert app.amqp.router.route({}, "paiju.commands.handle")["queue"].name == QueueNames.commands


def test_paiju_worker_on_the_in_memory_broker_says_no_other_process_can_reach_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PAIJU_BROKER_URL", raising=False)
    assert main(["worker"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "PAIJU_BROKER_URL" in err and "paiju serve" in err


def test_paiju_worker_with_a_bad_setting_names_the_variable_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PAIJU_BROKER_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("PAIJU_TABLE_CACHE", "-3")
    assert main(["worker"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "PAIJU_TABLE_CACHE" in err


def test_a_bad_webhook_secret_is_refused_without_being_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PAIJU_WEBHOOK_SECRET", "{not-text}")
    monkeypatch.setenv("PAIJU_WEBHOOK_MAX_ATTEMPTS", "0")
    with pytest.raises(SettingsError, match="PAIJU_WEBHOOK_MAX_ATTEMPTS") as refused:
        load_settings(webhook_secret=["a", "list"])
    assert "list" not in str(refused.value) and "PAIJU_WEBHOOK_SECRET" in str(refused.value)
