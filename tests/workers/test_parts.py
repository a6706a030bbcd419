"""The composition root (``workers.parts``): a process's parts are made once and shared (one
store, one cache of folds whoever folds), a task finds its app's parts, a forked child makes
its own, and closing closes what was made."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.rules.table.commands import OpenTable
from services.settings import load_settings
from workers.app import create_app
from workers.parts import Parts, parts_of

PLAYERS = ("a", "b", "c", "d")


@pytest.fixture
def parts(tmp_path: Path) -> Parts:
    made = Parts(load_settings(store_url=f"sqlite:///{tmp_path}/parts.sqlite3"))
    yield made
    made.close()


def test_every_part_is_made_once_on_the_one_store(parts: Parts) -> None:
    assert parts.store() is parts.store()
    assert parts.table_service() is parts.table_service()
    assert parts.table_service().store is parts.store()
    assert parts.table_folds().store is parts.store()
    assert parts.app is parts.app and parts.app.parts is parts


def test_a_table_the_service_decided_on_is_read_from_the_same_kept_fold(parts: Parts) -> None:
    service, folds = parts.table_service(), parts.table_folds()
    assert folds.kept is parts.kept_folds()
    service.handle("t1", OpenTable(table_id="t1", variant="harbin", players=PLAYERS),
                   command_id="open-t1")  # fmt: skip
    kept = parts.kept_folds().get("t1")
    assert kept is not None and kept.state.opened
    assert folds.load("t1") is kept.state  # no second fold: the service's own


def test_a_task_finds_the_parts_its_app_was_made_with(parts: Parts, tmp_path: Path) -> None:
    assert parts_of(parts.app) is parts
    bare = create_app(load_settings(store_url=f"sqlite:///{tmp_path}/bare.sqlite3"))
    made = parts_of(bare)  # ``celery -A workers.app``: an app no root made
    assert made is parts_of(bare) and made.settings is bare.settings
    made.close()


def test_a_forked_child_makes_parts_of_its_own_and_leaves_the_parents_open(parts: Parts) -> None:
    parent_store = parts.store()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a store of its own, and closing it leaves the parent's alone
        try:
            ok = parts.store() is not parent_store
            parts.close()
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    assert answer == b"1"
    assert parts.store() is parent_store
    assert parent_store.stream_version("nothing") == 0  # still open


def test_closing_closes_what_was_made_and_a_part_asked_again_is_made_again(parts: Parts) -> None:
    first, outbox = parts.store(), parts.outbox()
    closed: list[str] = []
    for name, part in (("store", first), ("outbox", outbox)):
        real = part.close
        part.close = lambda name=name, real=real: (closed.append(name), real())  # type: ignore[method-assign]
    parts.close()
    assert sorted(closed) == ["outbox", "store"]
    assert parts.store() is not first
