"""What the service's long-running commands share (``paiju timekeeper``, ``projector``,
``reactor``, ``serve``, ``worker``): their settings, how they show a store, how they run."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from services.cli.failures import CliError

if TYPE_CHECKING:
    from services.settings import Settings


def settings_or_fail(store: str | None = None, **overrides: Any) -> Settings:
    """The ``PAIJU_*`` settings (``--store`` wins over ``PAIJU_STORE_URL``), or one line naming
    the variable that cannot be used."""
    from services.settings import SettingsError, load_settings

    if store is not None:
        overrides["store_url"] = store
    try:
        return load_settings(**overrides)
    except SettingsError as error:
        raise CliError(str(error)) from None


def shown(url: str) -> str:
    """A store or broker URL as it may be printed: its password masked."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}{port}"))


def run_until_stopped(name: str, run: Callable[[threading.Event], object]) -> None:
    """Run a part's loop in a thread until SIGTERM or Ctrl-C (then it finishes its round)."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    thread = threading.Thread(target=run, args=(stop,), name=name, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        stop.set()
        thread.join(10)
