"""Re-verify a recorded table: its hash chain, its seed commitments, and its decisions.

``verify_table`` (1) checks the hash chain, naming the first event altered, removed or
reordered; (2) checks each revealed seed against its deal's commitment; (3) folds the stream
from nothing and, batch by batch, re-runs ``decide`` on the recorded command (its sealed seed
restored from the reveal) and compares what follows with what was recorded. A rule changed
since the hand was played shows up in (3) as the first batch that decides otherwise.

A tampered stream can break the fold anywhere (a seat 7, a deal after its discards, a
command with a field no command has): whatever the fold raises there, the report names the
event that could not be read or applied, and stops folding. ``head`` is a hash published
outside the store (``events.hashchain.Head``): the stream must still hold it.

The commands are re-decided under the table's own rules version (its ``table_opened``), not
this process's newest; a version this process does not have is said so (``rules_unavailable``)
and nothing is re-decided, rather than re-deciding under other rules. A recorded event is
compared as read (upcast, its absent optional fields at their defaults), so a stream written
before a field was added still reads as the same facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby

from pydantic import ValidationError

from events.envelope import RecordedEvent
from events.fairness import check_seed
from events.hashchain import Head, find_break
from services.rules.events.hand import HandStarted, TableOpened
from services.rules.table import CommandRejected, TableState, decide, evolve
from services.rules.table.state import patch
from services.rules.variants.versions import known, knows
from services.tables.codec import command_from_record, decode
from services.tables.loader import revealed_seeds, with_given_seed


@dataclass
class Verification:
    events: int = 0
    chain_break: str | None = None
    seeds_checked: int = 0
    seed_problems: list[str] = field(default_factory=list)
    batches_replayed: int = 0
    first_divergence: str | None = None
    unrevealed_hands: list[int] = field(default_factory=list)
    unreadable: str | None = None
    head: Head | None = None
    rules_version: str | None = None  # the table's, from its table_opened
    rules_unavailable: str | None = None  # the table's version is not one this process has

    @property
    def ok(self) -> bool:
        return (
            self.chain_break is None
            and not self.seed_problems
            and self.first_divergence is None
            and self.unreadable is None
            and self.rules_unavailable is None
        )

    def lines(self) -> list[str]:
        out = [f"events: {self.events}"]
        if self.chain_break is not None:
            out.append(f"hash chain: BROKEN: {self.chain_break}")
        elif self.head is not None:
            out.append(f"hash chain: intact, and holds the published head {self.head.hash}")
        else:
            out.append(
                "hash chain: intact (no published head given: a cut tail or a chain"
                " rewritten from its start would not show)"
            )
        if self.unreadable is not None:
            out.append(f"UNREADABLE: {self.unreadable}")
        if self.rules_version is not None:
            out.append(f"rules version: {self.rules_version}")
        if self.rules_unavailable is not None:
            out.append(f"NOT RE-DECIDED: {self.rules_unavailable}")
        seeds = (
            "all match their commitments"
            if not self.seed_problems
            else "; ".join(self.seed_problems)
        )
        out.append(f"seeds: {self.seeds_checked} revealed, {seeds}")
        if self.unrevealed_hands:
            out.append(
                f"hands still sealed (in play): {', '.join(map(str, self.unrevealed_hands))}"
            )
        verdict = (
            "the same events follow"
            if self.first_divergence is None
            else "DIVERGES: " + self.first_divergence
        )
        out.append(f"re-decided {self.batches_replayed} commands: {verdict}")
        return out


def _describe(error: Exception) -> str:
    """One line: pydantic's first complaint with its field, else the error's first line."""
    if isinstance(error, ValidationError) and error.errors():
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0]}" if text else type(error).__name__


def _unreadable(recorded: RecordedEvent, what: str, error: Exception) -> str:
    return f"version {recorded.version} ({recorded.type}): {what}: {_describe(error)}"


def _check_seeds(events: list[RecordedEvent], seeds: dict[int, str], report: Verification) -> None:
    for recorded in events:
        if recorded.type != "hand_started":
            continue
        try:
            deal = decode(recorded)
        except Exception:  # named where the fold reaches it
            continue
        assert isinstance(deal, HandStarted)
        if deal.seed_commitment is None:
            continue
        seed = seeds.get(deal.hand_number)
        if seed is None:
            report.unrevealed_hands.append(deal.hand_number)
        elif check_seed(seed, deal.seed_commitment):
            report.seeds_checked += 1
        else:
            report.seed_problems.append(
                f"hand {deal.hand_number}: revealed seed does not match the commitment"
            )


def _batches(events: list[RecordedEvent]) -> list[list[RecordedEvent]]:
    """Events appended together share their command; consecutive ones form a batch."""
    return [
        list(group) for _, group in groupby(events, key=lambda e: (e.command_id, repr(e.command)))
    ]


def _strip(payload: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in payload.items() if k != "seed"}


def verify_table(
    events: list[RecordedEvent],
    sealed: dict[int, str] | None = None,
    head: Head | None = None,
) -> Verification:
    """Check a table's stream; ``sealed`` supplies seeds of hands not yet revealed (operators),
    ``head`` a hash published outside the store that the stream must still hold."""
    report = Verification(events=len(events), head=head)
    broken = find_break(events, head=head)
    report.chain_break = str(broken) if broken else None
    seeds = {**(sealed or {}), **revealed_seeds(events)}
    _check_seeds(events, seeds, report)
    state = TableState()
    for batch in _batches(events):
        first = batch[0]
        if first.type == "table_opened" and not state.opened:
            state = _under_recorded_rules(state, first, report)
            if report.rules_unavailable is not None:
                return report
        if first.command is not None and report.first_divergence is None:
            hand = state.series.hands_played + 1
            report.first_divergence = _redecide(state, first, batch, seeds.get(hand))
            report.batches_replayed += 1
        for recorded in batch:
            try:
                event = decode(recorded)
            except Exception as error:  # tampered beyond what the registry reads
                report.unreadable = _unreadable(recorded, "cannot be read", error)
                return report
            dealt = with_given_seed(event, seeds)
            if dealt is None:
                return report  # a hand still sealed: nothing after its deal can be re-dealt
            event = dealt
            try:
                state = evolve(state, event)
            except Exception as error:  # a fact the table cannot take where it stands
                report.unreadable = _unreadable(recorded, "cannot be applied", error)
                return report
    return report


def _under_recorded_rules(
    state: TableState, opened: RecordedEvent, report: Verification
) -> TableState:
    """The unopened table, to re-decide its opening under the version it recorded."""
    try:
        event = decode(opened)
    except Exception:  # unreadable: named where the fold reaches it
        return state
    assert isinstance(event, TableOpened)
    report.rules_version = event.rules_version
    if not knows(event.rules_version):
        report.rules_unavailable = (
            f"the table's rules version {event.rules_version!r} is not one this process has"
            f" ({', '.join(known())}): verify it where that version is installed"
        )
        return state
    return patch(state, rules_version=event.rules_version)


def _as_read(recorded: RecordedEvent) -> dict[str, object]:
    """A recorded payload as the registry reads it (upcast, defaults filled); as stored when
    it cannot be read (then it differs from whatever the rules give, as it should)."""
    try:
        return decode(recorded).model_dump(mode="json", exclude={"type"})
    except Exception:
        return recorded.payload


def _redecide(
    state: TableState, first: RecordedEvent, batch: list[RecordedEvent], seed: str | None
) -> str | None:
    assert first.command is not None
    if first.command.get("seed_sealed") and seed is None:
        return None  # a hand still in play: its seed is sealed, nothing to re-deal from yet
    try:
        command = command_from_record(first.command, seed)
    except Exception as error:  # a field no command has, a seat 7, ...
        return _unreadable(first, "the recorded command cannot be read", error)
    try:
        again = decide(state, command)
    except CommandRejected as refusal:
        return f"version {first.version}: the recorded command is now refused: {refusal.reason}"
    except Exception as error:  # the state folded so far is not one the rules can stand on
        return _unreadable(first, "the recorded command cannot be re-decided", error)
    recorded = [(e.type, _strip(_as_read(e))) for e in batch]
    produced = [(e.type, _strip(e.model_dump(mode="json", exclude={"type"}))) for e in again]
    for offset, (mine, theirs) in enumerate(zip(produced, recorded, strict=False)):
        if mine != theirs:
            return f"version {first.version + offset}: recorded {theirs[0]} {theirs[1]}, the rules now give {mine[0]} {mine[1]}"
    if len(produced) != len(recorded):
        return f"version {first.version}: recorded {len(recorded)} events, the rules now give {len(produced)}"
    return None
