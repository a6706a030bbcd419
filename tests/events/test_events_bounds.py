"""Both stores refuse the same ids and texts with the same clear errors, before the database sees
them, and name the event of a row that cannot be read back."""

from __future__ import annotations

import pytest
from store_kit import RULES, StoreSpec, discard

from events.envelope import Actor, InvalidIdError, NewEvent
from events.store.base import CorruptRowError, EventStore, InvalidEventError

BAD_IDS = {
    "a mebibyte": "x" * (1 << 20),
    "a NUL": "table\x00one",
    "a lone surrogate": "table\ud800",
    "a space": "table one",
    "a newline": "table\n",
    "nothing": "",
}


@pytest.mark.parametrize("bad", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_an_unkeepable_stream_id_is_refused_naming_the_field(store: EventStore, bad: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        store.append(bad, 0, [discard()])
    assert caught.value.field == "stream_id" and str(caught.value).startswith("stream_id: ")
    for read in (store.read_stream, store.stream_version, store.load_snapshot):
        with pytest.raises(InvalidIdError):
            read(bad)
    with pytest.raises(InvalidIdError):
        store.load_seed(bad, 1)
    assert store.read_all() == []


@pytest.mark.parametrize("bad", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_an_unkeepable_command_id_is_refused_naming_the_field(store: EventStore, bad: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        store.append("t", 0, [discard()], command_id=bad, command={"tile": "5m"})
    assert caught.value.field == "command_id"
    with pytest.raises(InvalidIdError):
        store.find_command(bad, "t", {"tile": "5m"})
    assert store.read_all() == []


def test_an_id_at_the_bound_is_kept(store: EventStore) -> None:
    longest = "牌" * 128
    store.append(longest, 0, [discard()], command_id=longest, command={"tile": "5m"})
    assert [e.stream_id for e in store.read_stream(longest)] == [longest]


def _event(payload: dict[str, object]) -> NewEvent:
    return NewEvent(type="tile_discarded", payload=payload, actor=Actor.system(), rules_version=RULES)


def test_a_payload_that_is_not_utf8_is_refused_and_nothing_is_written(store: EventStore) -> None:
    with pytest.raises(InvalidEventError, match="not UTF-8"):
        store.append("t", 0, [discard(), _event({"seat": 0, "tile": "\udcff"})])
    with pytest.raises(InvalidEventError):
        store.append("t", 0, [discard()], command_id="c", command={"name": "\ud800"})
    assert store.read_stream("t") == [] and store.find_command("c", "t", None) is None


def test_a_nul_inside_a_payload_is_kept_as_text(store: EventStore) -> None:
    (recorded,) = store.append("t", 0, [_event({"seat": 0, "tile": "a\x00b"})])
    assert store.read_stream("t")[0].payload == {"seat": 0, "tile": "a\x00b"} == recorded.payload


def test_a_payload_that_is_not_an_object_is_named_by_its_version(
    spec: StoreSpec, store: EventStore
) -> None:
    store.append("t", 0, [discard(), discard()])
    cast = "" if spec.kind == "sqlite" else "::json"
    spec.execute(f"UPDATE events SET payload = '[1, 2]'{cast} WHERE version = 2")
    with pytest.raises(CorruptRowError, match="stream 't' version 2"):
        store.read_stream("t")


def test_a_row_that_is_not_json_is_named_by_its_version(tmp_path: object) -> None:
    spec = StoreSpec("sqlite", f"{tmp_path}/corrupt.sqlite3")
    store = spec.open()
    try:
        store.append("t", 0, [discard(), discard()], command_id="c", command={"tile": "5m"})
        spec.execute("UPDATE events SET payload = '{not json' WHERE version = 2")
        with pytest.raises(CorruptRowError, match="stream 't' version 2: the stored payload"):
            store.read_stream("t")
        spec.execute("UPDATE events SET payload = '{}', command = 'nor this' WHERE version = 2")
        with pytest.raises(CorruptRowError, match="version 2: the stored command is not JSON"):
            store.read_stream("t")
    finally:
        store.close()
