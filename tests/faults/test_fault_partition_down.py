"""One table store's PostgreSQL stopped for a while (30 s under ``make faults``): the other
store's tables keep moving, the stopped one's commands wait and then go through with nothing
lost or doubled, and the read models catch up on every partition without a rebuild.

The stopped server is a private one (``PrivatePostgres``); the home store and the other table
store are schemas of the machine's server, which is never stopped."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_scale import sized

from readmodels import catalog, operations
from readmodels.compare import compare_with_rebuild
from services.cluster.checks import count_log
from services.cluster.servers import PrivatePostgres
from services.rules.table.commands import StartHand
from services.settings import load_settings
from services.tables import Accepted
from services.tables.partitions import partition_for
from workers.parts import Parts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from games import Bots, opened  # noqa: E402

OUTAGE = sized(8, 30)  # seconds the table store's server is down


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[tuple[Parts, PrivatePostgres]]:
    """Table store 1 on a private server of its own, the one stopped; the home store and table
    store 2 as schemas of a second private server (the machine's shared one is never loaded
    with a fault test's connections)."""
    down, kept = PrivatePostgres(tmp_path / "down"), PrivatePostgres(tmp_path / "kept")
    try:
        down.start()
        kept.start()
        settings = load_settings(store_url=f"{kept.url}?schema=home", snapshot_key="k" * 32,
                                 table_stores=f"1={down.url} 2={kept.url}?schema=tables2")  # fmt: skip
        parts = Parts(settings)
        try:
            yield parts, down
        finally:
            parts.close()
    finally:
        down.stop()
        kept.stop()


def tables_in(partition: int, count: int) -> list[str]:
    found = (f"down-{n}" for n in range(10_000) if partition_for(f"down-{n}", (1, 2)) == partition)
    return [next(found) for _ in range(count)]


class Mover(threading.Thread):
    """Bots moving a table on, each command sent again under its id until it goes through (a
    client retrying); the moves acknowledged, by command id, and when."""

    def __init__(self, parts: Parts, table: str, stop: threading.Event) -> None:
        super().__init__(daemon=True, name=f"mover-{table}")
        self.parts, self.table, self.stop = parts, table, stop
        self.acknowledged: dict[str, float] = {}
        self.failure: BaseException | None = None  # what ended it, if not the stop

    def run(self) -> None:
        try:
            self._moves()
        except BaseException as error:  # said by the test, not lost with the thread
            self.failure = error

    def _moves(self) -> None:
        service = self.parts.table_service()
        bots = Bots(service, self.table, seed=len(self.table))
        state = service.load(self.table)
        for move in range(1, 100_000):
            if self.stop.is_set():
                return
            command = StartHand() if state.hand_over else bots.next_command(state)
            command_id = f"{self.table}/m{move}"
            while not self.stop.is_set():
                try:
                    done = service.handle(self.table, command, command_id=command_id)
                    if isinstance(done, Accepted):
                        self.acknowledged[command_id] = time.monotonic()
                        state = service.load(self.table)
                        break
                    raise AssertionError(f"{self.table} {command_id}: {done}")
                except AssertionError:
                    raise
                except Exception:  # the store is away (or was): the same command again, later
                    time.sleep(0.2)
            time.sleep(0.02)


def test_a_table_store_down_stops_only_its_own_tables_and_loses_nothing(
    stores: tuple[Parts, PrivatePostgres],
) -> None:
    parts, server = stores
    service = parts.table_service()
    down, up = tables_in(1, 2), tables_in(2, 2)
    for table in [*down, *up]:
        opened(service, table)
    stop, projecting = threading.Event(), threading.Event()
    projectors = [parts.projector(partition=p) for p in sorted(parts.logs())]
    threads = [threading.Thread(target=p.run, args=(projecting,), daemon=True) for p in projectors]
    movers = [Mover(parts, table, stop) for table in [*down, *up]]
    for thread in [*threads, *movers]:
        thread.start()
    try:
        check_the_outage(parts, server, movers, down, up, stop)
    finally:  # no thread of this test left logging into another test's output
        stop.set()
        projecting.set()
        for thread in [*threads, *movers]:
            thread.join(30)
        for projector in projectors:
            projector.close()


def check_the_outage(parts: Parts, server: PrivatePostgres, movers: list[Mover], down: list[str],
                     up: list[str], stop: threading.Event) -> None:  # fmt: skip
    """Stop table store 1's server, start it again, and check what each side did."""
    time.sleep(2)
    live = {p.name: operations.status(parts.read_models(), parts.store(), [p])[0].live for p in catalog.ALL}

    server.crash()  # the table store of partition 1 gone, as a power cut would
    went_down = time.monotonic()
    time.sleep(OUTAGE)
    restarting = time.monotonic()  # the server answers before start() returns: moves may too
    server.start()
    came_back = time.monotonic()
    deadline = came_back + 60  # the pool reconnects with a back-off grown through the outage
    while time.monotonic() < deadline and not all(
        any(at > came_back + 1 for at in m.acknowledged.values()) for m in movers):
        time.sleep(0.5)
    stop.set()
    for mover in movers:
        mover.join(60)

    during = {m.table: sum(went_down + 1 < at < restarting for at in m.acknowledged.values())
              for m in movers}  # fmt: skip
    assert all(during[t] > 10 for t in up), during  # partition 2 kept moving
    assert all(during[t] == 0 for t in down), during  # partition 1 waited
    assert [m.failure for m in movers] == [None] * len(movers)
    assert all(any(at > came_back for at in m.acknowledged.values()) for m in movers), {
        m.table: max(m.acknowledged.values(), default=0) - came_back for m in movers}  # fmt: skip

    store = parts.store()
    log = count_log(store, [*down, *up])
    assert not (log.version_gaps or log.doubled_command_ids or log.not_replaying), log
    for mover in movers:  # every acknowledged move in the store
        recorded = {e.command_id for e in store.read_stream(mover.table)}
        assert set(mover.acknowledged) <= recorded

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the projectors catch up by themselves
        found = operations.status(parts.read_models(), store, catalog.ALL, parts.logs())
        if all(s.lag == 0 for s in found):
            break
        time.sleep(0.5)
    assert all(s.lag == 0 and s.state == "live" for s in found), [s.line() for s in found]
    assert {s.name: s.live.build for s in found if s.live} == {
        n: b.build for n, b in live.items() if b}  # no rebuild
    compared = compare_with_rebuild(store, parts.read_models(), logs=parts.logs())
    assert compared.differing == []
