"""The rules engine imports nothing that does I/O: it is a pure core."""

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "services" / "rules"
FORBIDDEN = {
    "celery",
    "kombu",
    "redis",
    "psycopg",
    "psycopg_pool",
    "structlog",
    "socket",
    "sqlite3",
    "requests",
    "httpx",
    "subprocess",
}
ENGINE_EVENT_MODULES = (  # the event log's modules the engine stands on (its payloads are in RULES)
    "events.base",
    "events.registry",
    "events.envelope",
    "events.limits",
)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize(
    "path", sorted(RULES.rglob("*.py")), ids=lambda p: str(p.relative_to(RULES))
)
def test_rules_module_imports_no_io_library(path: Path) -> None:
    roots = {name.split(".")[0] for name in _imports(path)}
    assert not roots & FORBIDDEN, f"{path.name} imports {sorted(roots & FORBIDDEN)}"


def test_the_event_modules_the_engine_uses_import_no_io_library() -> None:
    root = RULES.parents[1]
    for module in ENGINE_EVENT_MODULES:
        path = root / (module.replace(".", "/") + ".py")
        roots = {name.split(".")[0] for name in _imports(path)}
        assert not roots & FORBIDDEN, f"{module} imports {sorted(roots & FORBIDDEN)}"


def test_importing_the_engine_loads_no_io_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import services.rules.table, services.rules.variants as v; "
        "[v.variant_of(i) for i in v.VARIANTS]; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in %r); print(','.join(bad))"
        % (FORBIDDEN - {"subprocess", "socket"})
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"importing the engine loaded {out}"
