"""``paiju export`` says what it holds, and ``paiju import`` takes only a whole export."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest
from clirun import StoredTable, one_line, run

from events.store import open_store
from services.tables import TableService
from services.tables.transfer import export_lines, import_table, parse_export
from services.tables.verify import verify_table


@pytest.fixture(scope="module")
def export_text(stored: StoredTable) -> str:
    with closing(open_store(stored.url)) as store:
        return "".join(line + "\n" for line in export_lines(store.read_stream(stored.table_id)))


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def stored_events(url: str, table_id: str) -> int:
    with closing(open_store(url)) as store:
        return store.stream_version(table_id)


def test_an_export_opens_with_a_header_and_closes_with_the_count_and_the_heads_hash(
    stored: StoredTable, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "export", stored.table_id, "--store", stored.url)
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    with closing(open_store(stored.url)) as store:
        events = store.read_stream(stored.table_id)
    assert lines[0] == {"format": "paiju table export", "version": 1, "table": stored.table_id}
    assert lines[1:-1] == [e.to_dict() for e in events]
    assert lines[-1] == {"end": "paiju table export", "events": len(events), "head": events[-1].hash}


def test_an_export_imports_into_another_store_hashes_intact(
    stored: StoredTable, export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/other.sqlite3"
    status, out, _ = run(capsys, "import", str(write(tmp_path / "t.jsonl", export_text)), "--store", url)
    assert status == 0
    with closing(open_store(url)) as theirs, closing(open_store(stored.url)) as ours:
        imported = theirs.read_stream(stored.table_id)
        assert [e.hash for e in imported] == [e.hash for e in ours.read_stream(stored.table_id)]
    assert out == f"imported table {stored.table_id}: {len(imported)} events\n"
    assert verify_table(imported).ok


def test_every_truncation_at_a_line_boundary_is_refused_and_nothing_is_stored(
    export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = export_text.splitlines(keepends=True)
    url = f"sqlite:///{tmp_path}/never.sqlite3"
    for kept in range(len(lines)):  # every prefix short of the whole file
        path = write(tmp_path / "cut.jsonl", "".join(lines[:kept]))
        status, out, err = run(capsys, "import", str(path), "--store", url)
        assert status == 2 and out == "", kept
        line = one_line(err)
        assert line.endswith("nothing was imported"), line
        assert ("empty" if kept == 0 else "without its closing line") in line
        assert not (tmp_path / "never.sqlite3").exists()


def test_a_cut_inside_the_last_line_is_refused(export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "cut.jsonl", export_text[: len(export_text) - 20])
    status, _, err = run(capsys, "import", str(path), "--store", f"sqlite:///{tmp_path}/s.sqlite3")
    assert status == 2 and "not JSON" in one_line(err)


def test_a_line_cut_inside_a_string_is_named_without_a_doubled_word(
    export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, *_ = export_text.splitlines()
    path = write(tmp_path / "string.jsonl", first[: first.index('"table"') + 4])
    status, _, err = run(capsys, "import", str(path), "--store", f"sqlite:///{tmp_path}/s.sqlite3")
    said = one_line(err)
    assert status == 2 and "line 1: not JSON (Unterminated string starting at: column " in said
    assert " at at " not in said


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda lines: lines[:5] + lines[6:], "the closing line counts"),  # an event dropped
        (lambda lines: lines[:5] + lines[6:-1] + [_recount(lines[-1], -1)], "hash chain is broken"),
        (lambda lines: lines[:-2] + [_recount(lines[-1], -1)], "is not the closing line's head"),
        (lambda lines: [lines[0].replace('"version": 1', '"version": 2')] + lines[1:], "version 2"),
        (lambda lines: lines[1:], "not the header of a paiju table export"),
        (lambda lines: [*lines, lines[1]], "more after the closing line"),
        (lambda lines: [lines[0].replace('"table": "', '"table": "x'), *lines[1:]], "in the export of"),
    ],
)
def test_a_file_that_is_not_a_whole_export_is_refused(
    edit: object, named: str, export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = edit(export_text.splitlines(keepends=True))  # type: ignore[operator]
    path = write(tmp_path / "edited.jsonl", "".join(lines))
    status, _, err = run(capsys, "import", str(path), "--store", f"sqlite:///{tmp_path}/s.sqlite3")
    assert status == 2 and named in one_line(err)
    assert not (tmp_path / "s.sqlite3").exists()


def _recount(closing_line: str, by: int) -> str:
    value = json.loads(closing_line)
    value["events"] += by
    return json.dumps(value) + "\n"


def test_a_file_that_is_not_utf8_names_the_line_and_byte(
    export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = export_text.encode("utf-8").split(b"\n")
    data[2] = data[2][:10] + b"\xff" + data[2][10:]
    path = write(tmp_path / "latin.jsonl", b"\n".join(data))
    status, _, err = run(capsys, "import", str(path), "--store", f"sqlite:///{tmp_path}/s.sqlite3")
    assert status == 2
    assert "line 3: not UTF-8 (byte 0xff at column 11)" in one_line(err)


def test_a_deeply_nested_line_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n")
    status, _, err = run(capsys, "import", str(path), "--store", f"sqlite:///{tmp_path}/s.sqlite3")
    assert status == 2 and "line 1: JSON nested too deeply" in one_line(err)


def test_an_import_stopped_between_batches_keeps_a_whole_prefix_and_the_same_import_completes_it(
    stored: StoredTable, export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = parse_export(export_text.splitlines())
    url = f"sqlite:///{tmp_path}/half.sqlite3"

    def interrupt_at_version_40(version: int) -> None:  # as Ctrl-C between two batches
        if version >= 40:
            raise KeyboardInterrupt

    with closing(open_store(url)) as store, pytest.raises(KeyboardInterrupt):
        import_table(store, table, interrupt_at_version_40)
    held = stored_events(url, table.table_id)
    assert 40 <= held < len(table.events)
    path = write(tmp_path / "t.jsonl", export_text)
    status, out, _ = run(capsys, "import", str(path), "--store", url)
    assert status == 0
    assert out == (
        f"imported table {table.table_id}: {len(table.events) - held} events added to the "
        f"{held} a previous import had stored\n"
    )
    with closing(open_store(url)) as store:
        assert [e.hash for e in store.read_stream(table.table_id)] == [e.hash for e in table.events]
    assert run(capsys, "import", str(path), "--store", url)[1] == (
        f"table {table.table_id} was already imported whole: {len(table.events)} events\n"
    )


def test_an_import_over_another_table_of_the_same_id_is_refused_and_changes_nothing(
    export_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = parse_export(export_text.splitlines())
    url = f"sqlite:///{tmp_path}/taken.sqlite3"
    with closing(open_store(url)) as store:
        TableService(store).open_table(
            table.table_id, "tanggu", ("a", "b", "c", "d"), command_id="another-table"
        )
        before = store.read_stream(table.table_id)
    path = write(tmp_path / "t.jsonl", export_text)
    status, _, err = run(capsys, "import", str(path), "--store", url)
    assert status == 2
    assert f"table {table.table_id} already exists in this store with other events" in one_line(err)
    with closing(open_store(url)) as store:
        assert store.read_stream(table.table_id) == before


def test_a_hand_in_play_is_named_when_exported_and_when_replayed_where_its_seed_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from services.bots.runner import PLAYERS
    from services.rules.table.commands import StartHand

    url = f"sqlite:///{tmp_path}/live.sqlite3"
    with closing(open_store(url)) as store:
        service = TableService(store)
        service.open_table("live-table", "harbin", PLAYERS, command_id="live/open")
        service.handle("live-table", StartHand(), command_id="live/deal")  # dealt, seed sealed
    status, out, err = run(capsys, "export", "live-table", "--store", url)
    assert status == 0
    assert one_line(err) == (
        "paiju export: note: hand 1 is in play; its seed stays sealed in this store, "
        "so replay elsewhere stops at hand 1"
    )
    elsewhere = f"sqlite:///{tmp_path}/elsewhere.sqlite3"
    path = write(tmp_path / "live.jsonl", out)
    assert run(capsys, "import", str(path), "--store", elsewhere)[0] == 0
    assert run(capsys, "replay", "live-table", "--store", url)[0] == 0  # where the seed is
    status, _, err = run(capsys, "replay", "live-table", "--store", elsewhere)
    assert status == 2
    assert one_line(err) == (
        f"paiju replay: hand 1 is in play, and its seed is sealed in the store it is played in, "
        f"not in {elsewhere} (an export carries no sealed seed): replay it there, or once it ends"
    )


def test_an_export_piped_into_an_import_needs_no_file_argument(stored: StoredTable, tmp_path: Path) -> None:
    """README's ``paiju export T | paiju import --store X``, as two processes and a pipe."""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path}/piped.sqlite3"
    paiju = [sys.executable, "-m", "services.cli.main"]
    exported = subprocess.Popen([*paiju, "export", stored.table_id, "--store", stored.url],
                                stdout=subprocess.PIPE)  # fmt: skip
    imported = subprocess.run([*paiju, "import", "--store", url], stdin=exported.stdout,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
    assert exported.wait(timeout=60) == 0
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith(f"imported table {stored.table_id}: ")
    assert stored_events(url, stored.table_id) == stored_events(stored.url, stored.table_id)
