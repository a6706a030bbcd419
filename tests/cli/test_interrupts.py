"""Ctrl-C and a reader that stops early, in real processes: one line (or none), never a traceback,
and what was stored is kept."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import subprocess
import termios
from contextlib import closing
from pathlib import Path

import pytest
from clirun import ROOT, StoredTable, one_line, paiju_command, store_table

from events.store import open_store
from services.tables.transfer import ImportError_, parse_export
from services.tables.verify import verify_table

WAIT = 120  # seconds before a test gives up on a process: a guard against hanging, not a measure


def as_at_a_terminal() -> None:
    """In the child, Ctrl-C as a terminal's foreground job gets it: a test runner started in the
    background passes SIGINT on ignored, and Python then installs no KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def read_until(fd: int, wanted: bytes) -> bytes:
    """Read a terminal's output until ``wanted`` appears (or the process closed it)."""
    seen = b""
    for _ in range(100_000):  # each read returns at least a byte, or ends the loop
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        seen += chunk
        if wanted in seen:
            break
    return seen


def read_all(fd: int) -> bytes:
    return read_until(fd, b"\0never\0")


def test_ctrl_c_in_simulate_says_what_was_stored_and_the_store_keeps_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/sim.sqlite3"
    terminal, their_end = pty.openpty()  # stderr a terminal: the progress line is drawn there
    process = subprocess.Popen(
        paiju_command("simulate", "--variant", "all", "--games", "500", "--store", url),
        stdout=subprocess.PIPE,
        stderr=their_end,
        cwd=ROOT,
        preexec_fn=as_at_a_terminal,
    )
    os.close(their_end)
    try:
        progress = read_until(terminal, b" 2/2500 hands")  # two hands are settled and stored
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=WAIT)
        err = (progress + read_all(terminal)).decode().replace("\r\n", "\n")  # a tty's newlines
    finally:
        os.close(terminal)
    assert process.returncode == 2 and out == b""
    assert "\rpaiju simulate: harbin 1/2500 hands" in err  # redrawn in place after each hand
    last = one_line(err.rsplit("\r", 1)[-1].replace("\x1b[K", ""))
    assert last.startswith("paiju simulate: interrupted (Ctrl-C); ")
    assert f"of 2500 hands played; stored in {url}: table sim-harbin-" in last
    table_id = last.split("table ")[1].split(" ")[0]
    settled = int(last.split("(")[-1].split(" ")[0])
    with closing(open_store(url)) as store:
        events = store.read_stream(table_id)
    assert settled >= 2 and sum(e.type == "hand_settled" for e in events) == settled
    assert verify_table(events).ok


def test_simulate_draws_no_progress_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    done = subprocess.run(
        paiju_command("simulate", "--games", "2", "--store", f"sqlite:///{tmp_path}/s.sqlite3"),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=WAIT,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "harbin stored as table: sim-harbin-" in done.stdout


@pytest.fixture(scope="module")
def big_table(tmp_path_factory: pytest.TempPathFactory) -> StoredTable:
    """A table whose export is far larger than a pipe holds (64 KiB), so a writer must block."""
    table = store_table(tmp_path_factory.mktemp("big") / "big.sqlite3", "shandong", hands=5)
    with closing(open_store(table.url)) as store:
        assert sum(len(str(e.to_dict())) for e in store.read_stream(table.table_id)) > 2 * 65536
    return table


def test_ctrl_c_in_export_says_how_much_was_written_and_the_cut_file_is_refused(
    big_table: StoredTable,
) -> None:
    process = subprocess.Popen(
        paiju_command("export", big_table.table_id, "--store", big_table.url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=as_at_a_terminal,
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()  # it is writing, and cannot finish while we do not read
    process.send_signal(signal.SIGINT)
    rest = process.stdout.read()  # through the same buffer as the first line
    err = process.stderr.read()
    assert process.wait(timeout=WAIT) == 2
    line = one_line(err.decode())
    assert line.startswith("paiju export: interrupted (Ctrl-C); ")
    assert "lines; without its closing line paiju import refuses what was written" in line
    with pytest.raises(ImportError_):  # cut at a line's end or inside one: refused either way
        parse_export((first + rest).splitlines())


def small_pipe() -> tuple[int, int]:
    """A pipe that holds one page (4 KiB), so that any output past 8 KiB must wait for us."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    return read_end, write_end


@pytest.mark.parametrize("command", ["export", "replay"])
def test_a_reader_that_stops_early_ends_the_command_quietly(
    command: str, big_table: StoredTable
) -> None:
    read_end, write_end = small_pipe()
    process = subprocess.Popen(
        paiju_command(command, big_table.table_id, "--store", big_table.url),
        stdout=write_end,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        reader.readline()  # as `| head -1`: one line, then the pipe is closed unread
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 0
    assert err == b""


def test_ctrl_c_in_import_says_how_far_it_got_and_the_same_import_completes_the_table(
    big_table: StoredTable, tmp_path: Path
) -> None:
    export = tmp_path / "big.jsonl"
    with export.open("wb") as file:
        subprocess.run(
            paiju_command("export", big_table.table_id, "--store", big_table.url),
            stdout=file, cwd=ROOT, check=True, timeout=WAIT,
        )
    url = f"sqlite:///{tmp_path}/imported.sqlite3"
    terminal, their_end = pty.openpty()
    process = subprocess.Popen(
        paiju_command("import", str(export), "--store", url),
        stdout=subprocess.PIPE,
        stderr=their_end,
        cwd=ROOT,
        preexec_fn=as_at_a_terminal,
    )
    try:
        seen = read_until(terminal, b" events of ")  # a batch is stored: the progress line says so
        termios.tcflow(their_end, termios.TCOOFF)  # the terminal stops: its next line must wait
        process.send_signal(signal.SIGINT)
        termios.tcflow(their_end, termios.TCOON)
        os.close(their_end)
        out, _ = process.communicate(timeout=WAIT)
        err = (seen + read_all(terminal)).decode().replace("\r\n", "\n")
    finally:
        os.close(terminal)
    assert process.returncode == 2 and out == b""
    last = one_line(err.rsplit("\r", 1)[-1].replace("\x1b[K", ""))
    with closing(open_store(url)) as store:
        held = store.stream_version(big_table.table_id)
    total = len(parse_export(export.read_bytes().splitlines()).events)
    assert 1 <= held < total
    assert last == (
        f"paiju import: interrupted (Ctrl-C); table {big_table.table_id} holds its first {held} "
        f"of {total} events in {url}; run the same import again to add the rest"
    )
    again = subprocess.run(
        paiju_command("import", str(export), "--store", url),
        capture_output=True, text=True, cwd=ROOT, check=False, timeout=WAIT,
    )
    assert again.returncode == 0 and again.stderr == ""
    assert f"{total - held} events added to the {held} a previous import had stored" in again.stdout
    with closing(open_store(url)) as store, closing(open_store(big_table.url)) as source:
        assert [e.hash for e in store.read_stream(big_table.table_id)] == [
            e.hash for e in source.read_stream(big_table.table_id)
        ]
