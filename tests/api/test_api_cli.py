"""``paiju keys`` (create prints the key once, revoke refuses it from then on) and ``paiju api``
(listens and prints where, or says that its port is taken)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from services.api.keys import KeyStore


def _paiju(*args: str, store: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
           "PAIJU_STORE_URL": store}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "services.cli.main", *args], env=env,
                          capture_output=True, text=True, timeout=60, cwd=cwd)  # fmt: skip


def test_paiju_keys_creates_a_key_shown_once_lists_it_and_revokes_it(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path}/keys.sqlite3"
    made = _paiju("keys", "create", "--scopes", "tables,tokens", "--label", "lobby", store=store, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    key_id = re.fullmatch(r"pk_([0-9a-f]{16})\.[A-Za-z0-9_-]+", token).group(1)  # type: ignore[union-attr]
    keys = KeyStore(store)
    assert keys.verify(token) is not None
    listed = _paiju("keys", "list", store=store, cwd=tmp_path)
    assert key_id in listed.stdout and "lobby" in listed.stdout and token not in listed.stdout
    assert _paiju("keys", "revoke", key_id, store=store, cwd=tmp_path).returncode == 0
    assert keys.verify(token) is None
    unknown = _paiju("keys", "revoke", "0000000000000000", store=store, cwd=tmp_path)
    assert unknown.returncode == 2 and "no API key '0000000000000000'" in unknown.stderr
    bad = _paiju("keys", "create", "--scopes", "everything", store=store, cwd=tmp_path)
    assert bad.returncode == 2 and "scopes must be some of tables, tokens, operator" in bad.stderr


def test_paiju_api_listens_and_prints_its_address(tmp_path: Path) -> None:
    done = _paiju("api", "--port", "0", "--for", "1", store=f"sqlite:///{tmp_path}/api.sqlite3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert re.search(r"paiju api: listening on http://127\.0\.0\.1:\d+", done.stdout)
    assert "paiju api: stopped" in done.stdout


def test_paiju_api_on_a_port_in_use_says_so_and_how_to_choose_another(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _paiju("api", "--port", str(port), "--for", "1",
                      store=f"sqlite:///{tmp_path}/api.sqlite3", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    said = done.stderr.strip().splitlines()[-1]
    assert said == (f"paiju api: the API cannot listen on 127.0.0.1:{port}: the port is in use or"
                    " not ours to bind (PAIJU_API_PORT chooses another; 0: any free one)")  # fmt: skip
