"""How a ``paiju`` command fails: one line on stderr naming what was wrong, and an exit status.

Status 2 is every failure of input, store or interruption; 1 is a check that failed (an
invariant in ``simulate``, a broken chain in ``replay``). A command raises ``CliError`` with its
line; ``guarded`` turns that, Ctrl-C, a closed pipe and a store's own error into the line and the
status, so that no traceback reaches a user. A command that writes catches ``KeyboardInterrupt``
itself and raises ``Interrupted`` saying what it had written by then.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import sys
from collections.abc import Callable
from typing import Any

from events.store.base import StoreError

FAILED = 2
CHECK_FAILED = 1


class CliError(Exception):
    """A failure a user can act on; the message is the one line printed after ``paiju CMD:``."""

    def __init__(self, message: str, status: int = FAILED) -> None:
        super().__init__(message)
        self.status = status


class Interrupted(CliError):
    """Ctrl-C, with what had been written when it came."""

    def __init__(self, written: str) -> None:
        super().__init__(f"interrupted (Ctrl-C); {written}")


def one_line(text: object) -> str:
    """A message of several lines (psycopg's, for one) as one line."""
    return "; ".join(part.strip() for part in str(text).splitlines() if part.strip())


def _store_errors() -> tuple[type[BaseException], ...]:
    errors: tuple[type[BaseException], ...] = (StoreError, sqlite3.Error)
    psycopg = sys.modules.get("psycopg")  # only a command that opened PostgreSQL can raise these
    return (*errors, psycopg.Error) if psycopg is not None else errors


def quiet_stdout() -> None:
    """Point stdout at /dev/null: the reader has gone (``| head``) or the output is abandoned,
    and the interpreter's last flush must neither block nor complain."""
    with contextlib.suppress(OSError, ValueError):  # stdout is no file (a test's): no flush
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def guarded(command: str, run: Callable[[], int], *, writes: bool) -> int:
    """Run a subcommand; every way it can fail ends in one line on stderr and a status."""
    try:
        status = run()
        sys.stdout.flush()  # here, so that a closed pipe is caught below, not at exit
        return status
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error of ours
        quiet_stdout()
        return 0
    except CliError as error:
        if isinstance(error, Interrupted):
            quiet_stdout()  # a blocked reader must not hold the exit; the output is cut anyway
        else:
            _flush()
        _say(command, str(error))
        return error.status
    except KeyboardInterrupt:
        quiet_stdout()
        done = "nothing was stored" if writes else f"paiju {command} writes nothing to a store"
        _say(command, f"interrupted (Ctrl-C); {done}")
        return FAILED
    except _store_errors() as error:
        _say(command, f"the store failed: {one_line(error)}; what it had committed is kept")
        return FAILED
    except OSError as error:  # the machine's answer (a port in use, a file not there): no bug
        _say(command, one_line(error))
        return FAILED
    except RecursionError:
        _say(command, "input nested too deeply to read")
        return FAILED
    except Exception as error:  # a bug of ours: still one line, the traceback on request
        if os.environ.get("PAIJU_TRACEBACK"):
            raise
        _say(
            command,
            f"internal error {type(error).__name__}: {one_line(error)} "
            "(a bug: please report it; PAIJU_TRACEBACK=1 shows where)",
        )
        return FAILED


Main = Callable[..., int]


def command(name: str, *, writes: bool) -> Callable[[Main], Main]:
    """Make a subcommand's ``main(args, out=None)`` end every failure as ``guarded`` does, so
    that it can be called from ``paiju`` and from a test alike."""

    def wrap(main: Main) -> Main:
        @functools.wraps(main)
        def run(*args: Any, **kwargs: Any) -> int:
            return guarded(name, lambda: main(*args, **kwargs), writes=writes)

        return run

    return wrap


def _flush() -> None:
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        quiet_stdout()


def _say(command: str, message: str) -> None:
    with contextlib.suppress(OSError):  # stderr closed too: nothing left to tell
        print(f"paiju {command}: {message}", file=sys.stderr, flush=True)
