"""Issue 25, item 4: the OpenAPI document and the TypeScript types a platform builds from are
checked in (``clients/``), and are what the code makes now: a route changed without
``make client-types`` fails here, naming what to run."""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path

import pytest

from services.cli.main import main as paiju

ROOT = Path(__file__).resolve().parents[2]
TYPES = ROOT / "clients" / "typescript"
BIN = TYPES / "node_modules" / ".bin"
AGAIN = "run `make client-types` and commit clients/"


@pytest.fixture(scope="module")
def live_document(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What ``paiju api --openapi`` prints now."""
    path = tmp_path_factory.mktemp("openapi") / "openapi.json"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert paiju(["api", "--openapi"]) == 0
    path.write_text(printed.getvalue())
    return path


def node_tool(name: str) -> Path:
    tool = BIN / name
    assert tool.exists(), f"{tool} is missing: `make test` installs it (npm ci --prefix {TYPES})"
    return tool


def test_the_checked_in_openapi_document_is_the_one_the_api_serves(live_document: Path) -> None:
    checked_in = (ROOT / "clients" / "openapi.json").read_text()
    assert live_document.read_text().strip() == checked_in.strip(), AGAIN


def test_the_typescript_types_are_what_openapi_typescript_makes_of_the_live_document(
    live_document: Path, tmp_path: Path
) -> None:
    made = tmp_path / "paiju-api.d.ts"
    subprocess.run([node_tool("openapi-typescript"), live_document, "-o", made],
                   check=True, capture_output=True, timeout=120)  # fmt: skip
    assert made.read_text() == (TYPES / "paiju-api.d.ts").read_text(), AGAIN


def test_a_typescript_client_of_the_types_compiles_under_strict(tmp_path: Path) -> None:
    done = subprocess.run([node_tool("tsc"), "--noEmit", "--strict", "--lib", "es2022,dom",
                           "--target", "es2022", "--module", "es2022", "--moduleResolution",
                           "bundler", TYPES / "example.ts"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
