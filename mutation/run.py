"""``make mutate``: cosmic-ray sessions, one per module, run by one http-worker per core.

cosmic-ray writes each mutant into the module's file on disk and runs the tests, so every worker
has its own copy of the tree (``mutation/work/trees/N``, synced from the working tree at each
start: a file a killed run left mutated is put back); the working tree itself is never written.
A session (``mutation/work/sessions/<module>.sqlite``) is created only when absent or when its
module's source changed; otherwise the run resumes where it stopped, running only the mutants
with no result. ``--retry survivors`` runs a session's survivors again (after new tests).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from mutation import ledger, select
from mutation.config import (
    PY,
    ROOT,
    SESSIONS,
    WORK,
    TestsMap,
    annotation_spans,
    annotations_inert,
    body_digest,
    operator_kept,
    slug,
    source_digest,
    test_command,
)

TREES = WORK / "trees"
CONFIGS = WORK / "configs"
LOGS = WORK / "logs"
SYNCED = ["services", "events", "workers", "tests", "docs", "mutation", "pyproject.toml"]


def sync_tree(dest: Path) -> None:
    """``dest`` made a copy of the working tree's code, tests and docs (a mutant left in it by an
    interrupted run is overwritten; a file deleted here is deleted there)."""
    dest.mkdir(parents=True, exist_ok=True)
    caches = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc")

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = set(caches(folder, names))
        return skipped | ({"work"} if Path(folder) == ROOT / "mutation" else set())

    for name in SYNCED:
        src, out = ROOT / name, dest / name
        if out.is_dir():
            shutil.rmtree(out)
        if src.is_dir():
            shutil.copytree(src, out, ignore=ignore)
        else:
            shutil.copy2(src, out)


def _free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def workers(jobs: int) -> Iterator[list[str]]:
    """``jobs`` cosmic-ray http-workers on 127.0.0.1, each in its own tree; stopped on exit."""
    LOGS.mkdir(parents=True, exist_ok=True)
    procs: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        for n in range(jobs):
            tree = TREES / str(n)
            sync_tree(tree)
            port = _free_port()
            env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
            log = (LOGS / f"worker-{n}.log").open("ab")
            procs.append(
                subprocess.Popen(
                    [PY, "-m", "mutation.cr", "worker", str(port)],
                    cwd=tree,
                    env=env,
                    stdout=log,
                    stderr=log,
                )  # fmt: skip
            )
            urls.append(f"http://127.0.0.1:{port}")
        for url, proc in zip(urls, procs, strict=True):
            _wait_listening(int(url.rsplit(":", 1)[1]), proc)
        yield urls
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _wait_listening(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"an http-worker exited at start: see {LOGS}")
        with closing(socket.socket()) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"no http-worker on port {port} after 30 s: see {LOGS}")


def _meta_path(module: str) -> Path:
    return SESSIONS / f"{slug(module)}.json"


def read_meta(module: str) -> dict[str, object]:
    path = _meta_path(module)
    return json.loads(path.read_text()) if path.exists() else {}


def _write_meta(module: str, meta: dict[str, object]) -> None:
    _meta_path(module).write_text(json.dumps(meta, indent=1, sort_keys=True))


def _config(module: str, command: str, timeout: float, urls: list[str]) -> Path:
    CONFIGS.mkdir(parents=True, exist_ok=True)
    path = CONFIGS / f"{slug(module)}.toml"
    path.write_text(
        "[cosmic-ray]\n"
        f"module-path = {json.dumps(module)}\n"
        f"timeout = {timeout:.1f}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(command)}\n"
        '[cosmic-ray.distributor]\nname = "http"\n'
        f"[cosmic-ray.distributor.http]\nworker-urls = {json.dumps(urls)}\n"
    )
    return path


def _skip(db: Path, job_ids: list[str], why: str) -> None:
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.executemany(
            "INSERT OR REPLACE INTO work_results (worker_outcome, output, test_outcome, diff,"
            " job_id) VALUES ('SKIPPED', ?, NULL, '', ?)",
            [(why, j) for j in job_ids],
        )


def init_session(module: str, config: Path, db: Path) -> int:
    """A new session of every mutant of ``module``, less the operators and places left out."""
    if db.exists():
        db.unlink()
    subprocess.run([PY, "-m", "mutation.cr", "init", str(config), str(db)], cwd=ROOT, check=True)
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute(
            "SELECT job_id, operator_name, start_pos_row, start_pos_col FROM mutation_specs"
        ).fetchall()
    _skip(db, [r[0] for r in rows if not operator_kept(r[1])], "operator left out")
    if annotations_inert(module):
        spans = annotation_spans(module)
        inside = [
            r[0]
            for r in rows
            if operator_kept(r[1]) and any(a <= (r[2], r[3]) < b for a, b in spans)
        ]
        _skip(db, inside, "in an annotation")
    return len(rows)


def counts(db: Path) -> dict[str, int]:
    with closing(sqlite3.connect(db)) as conn:
        total = conn.execute("SELECT count(*) FROM work_items").fetchone()[0]
        done = dict(
            conn.execute(
                "SELECT coalesce(test_outcome, worker_outcome), count(*) FROM work_results"
                " GROUP BY 1"
            ).fetchall()
        )
    done["pending"] = total - sum(done.values())
    return done


def baseline(module: str, args: list[str], tests_map: Path) -> float:
    """The module's tests on the unmutated tree, timed, under coverage: which tests run each
    line (``mutation/select.py``); a run on failing tests means nothing."""
    start = time.monotonic()
    result = select.build(module, args, TREES / "0", tests_map)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        raise BaselineFailed(
            f"{module}: its tests fail before any mutation, so it is not run"
            f" ({' '.join(args)}):\n" + result.stdout[-3000:]
        )
    return seconds


class BaselineFailed(Exception):
    pass


def run_module(
    module: str,
    urls: list[str],
    retry: str | None,
    tests: TestsMap,
    rerun: bool = False,
    shared: dict[str, float] | None = None,
) -> None:
    SESSIONS.mkdir(parents=True, exist_ok=True)
    db = SESSIONS / f"{slug(module)}.sqlite"
    if _kept(module, db, rerun):
        print(
            f"{module}: its kept results ({ledger.path(module).name}) match its source; RERUN=1 runs it again"
        )
        return
    if not db.exists() and _has_no_mutants(module):
        _keep_empty(module, len(urls))
        return
    args = tests.for_module(module)
    tests_map = SESSIONS / f"{slug(module)}.tests.json"
    command = test_command(args, tests_map)
    meta = read_meta(module)
    base = (shared or {}).get(module) or baseline(module, args, tests_map)
    timeout = max(30.0, 4 * base + 15)
    config = _config(module, command, timeout, urls)
    digest = source_digest(module)
    if not db.exists() or meta.get("source") != digest:
        why = "new session" if not db.exists() else "the module changed: a new session"
        n = init_session(module, config, db)
        print(f"{module}: {why}, {n} mutants")
        meta = {
            "source": digest,
            "body": body_digest(module),
            "elapsed_seconds": 0.0,
            "mutants_run": 0,
        }
    if retry == "survivors":
        with closing(sqlite3.connect(db)) as conn, conn:
            conn.execute(
                "DELETE FROM work_results WHERE test_outcome = 'SURVIVED'"
                " OR worker_outcome = 'ABNORMAL'"
            )
    before = counts(db)
    print(
        f"{module}: {before}; tests: {' '.join(args)} (baseline {base:.1f} s, timeout {timeout:.0f} s)"
    )
    meta.update(tests=args, baseline_seconds=round(base, 2), timeout=timeout, workers=len(urls))
    _write_meta(module, meta)
    start = time.monotonic()
    try:
        subprocess.run(
            [PY, "-m", "mutation.cr", "exec", str(config), str(db)], cwd=ROOT, check=True
        )
    finally:
        after = counts(db)
        meta["elapsed_seconds"] = round(
            float(meta["elapsed_seconds"]) + time.monotonic() - start, 1
        )  # type: ignore[arg-type]
        meta["mutants_run"] = int(meta["mutants_run"]) + before["pending"] - after["pending"]  # type: ignore[call-overload]
        _write_meta(module, meta)
        print(f"{module}: {after}")


def _kept(module: str, db: Path, rerun: bool) -> bool:
    return not db.exists() and ledger.fresh(module) and not rerun


def shared_baselines(modules: list[str], tests: TestsMap, rerun: bool) -> dict[str, float]:
    """One coverage run for the modules to be run that share their tests (the table's twenty),
    timed as each one's baseline; a module alone in its group makes its own in ``run_module``."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for module in modules:
        db = SESSIONS / f"{slug(module)}.sqlite"
        if _kept(module, db, rerun) or (not db.exists() and _has_no_mutants(module)):
            continue
        groups.setdefault(tuple(tests.for_module(module)), []).append(module)
    seconds: dict[str, float] = {}
    for args, group in groups.items():
        if len(group) < 2:
            continue
        SESSIONS.mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        outs = {m: SESSIONS / f"{slug(m)}.tests.json" for m in group}
        result = select.build_many(outs, list(args), TREES / "0")
        if result.returncode != 0:
            continue  # each module then makes its own, and reports its failing tests
        took = time.monotonic() - start
        print(f"one baseline for {len(group)} modules ({' '.join(args)}): {took:.1f} s")
        seconds.update(dict.fromkeys(group, took))
    return seconds


def _has_no_mutants(module: str) -> bool:
    from mutation.report import scope_counts

    return scope_counts()[module] == 0


def _keep_empty(module: str, jobs: int) -> None:
    """A module no operator changes (only imports, or only annotations) is kept as run: no
    baseline, which for the table's modules costs minutes of tests for nothing to kill."""
    from mutation.report import Session

    meta = {
        "source": source_digest(module),
        "body": body_digest(module),
        "elapsed_seconds": 0.0,
        "mutants_run": 0,
    }
    ledger.save(Session(module, meta={**meta, "workers": jobs}))
    print(f"{module}: no mutants (nothing an operator changes); kept as run")


def main(modules: list[str], jobs: int, retry: str | None, rerun: bool = False) -> None:
    tests = TestsMap.load()
    failed = []
    with workers(jobs) as urls:
        shared = shared_baselines(modules, tests, rerun)
        for module in modules:
            try:
                run_module(module, urls, retry, tests, rerun, shared)
            except BaselineFailed as e:
                print(e, file=sys.stderr)
                failed.append(module)
    if failed:
        raise SystemExit(f"not run, their tests failing unmutated: {', '.join(failed)}")
