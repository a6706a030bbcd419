"""规则版本 (rules versions): which rules a table is decided under, and which this process has.

A table keeps the rules version it opened under for good (``TableOpened.rules_version``), so a
rolling upgrade never changes the rules of a game in play: a process decides a table's command
only under that table's own version, and a process that does not have it raises
``RulesVersionUnavailable`` (the shell hands the command back to the queue for a process that
has it; nothing is decided and nothing recorded).

A version is one identifier for the rules of every variant (``RulesVersion``: its id and its
``Variant`` objects by id). This process knows the engine's own version (``RULES_VERSION``)
and whatever else was registered here; a release that changes a rule keeps the old version
registered beside the new one (built with ``derived``), so that tables opened before it go on
under their rules wherever they are decided. New tables open under ``current()``.

Tables opened before tables recorded a version read as ``BEFORE_VERSIONS`` (``paiju-rules/1``,
the only rules there were then). The registry is this process's, like the variants' own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType

from services.rules import RULES_VERSION
from services.rules.events.hand import RULES_BEFORE_VERSIONS
from services.rules.variants import VARIANTS, UnknownVariantError, Variant

BEFORE_VERSIONS = RULES_BEFORE_VERSIONS


class RulesVersionUnavailable(LookupError):
    """This process does not have a table's rules version: another process must decide it.

    Not a refusal of the command: the command may be perfectly legal under its table's rules."""

    def __init__(self, version: str, known: tuple[str, ...]) -> None:
        self.version = version
        self.known = known
        have = ", ".join(known) or "none"
        super().__init__(f"rules version {version!r} is not known to this process (it has: {have})")


@dataclass(frozen=True)
class RulesVersion:
    """One version of the rules: every variant, whole, as that version decides it."""

    id: str
    variants: Mapping[str, Variant] = field(repr=False)
    note: str = ""  # what changed, in a sentence (for operators reading a hand-back)

    def variant(self, variant_id: str) -> Variant:
        """The variant under this version; an unknown id names the known ones."""
        try:
            return self.variants[variant_id]
        except KeyError:
            known = ", ".join(sorted(self.variants))
            raise UnknownVariantError(
                f"unknown variant {variant_id!r}; known variants: {known}"
            ) from None

    def derived(self, version_id: str, note: str = "", **changed: Variant) -> RulesVersion:
        """A later version: these variants changed (by id), every other one as in this one."""
        unknown = sorted(set(changed) - set(self.variants))
        if unknown:
            raise UnknownVariantError(f"{self.id} has no variant {', '.join(unknown)}")
        wrong = [vid for vid, variant in changed.items() if variant.id != vid]
        if wrong:
            raise ValueError(f"a changed variant must keep its id: {', '.join(wrong)}")
        variants = {**dict(self.variants.items()), **changed}
        return RulesVersion(version_id, MappingProxyType(variants), note)


ENGINE = RulesVersion(RULES_VERSION, VARIANTS, "the rules of this engine")
"""The engine's own rules: the variants as registered in ``services.rules.variants``."""

_known: dict[str, RulesVersion] = {ENGINE.id: ENGINE}
_current = [ENGINE.id]  # the version new tables open under (a list: set in place)


def known() -> tuple[str, ...]:
    """The versions this process can decide under, in the order they were registered."""
    return tuple(_known)


def knows(version_id: str) -> bool:
    return version_id in _known


def rules(version_id: str) -> RulesVersion:
    """The version of that id; ``RulesVersionUnavailable`` when this process lacks it."""
    found = _known.get(version_id)
    if found is None:
        raise RulesVersionUnavailable(version_id, known())
    return found


def variant_in(version_id: str, variant_id: str) -> Variant:
    """A variant as a version decides it ("": the version new tables open under)."""
    found = _known.get(version_id or _current[0])
    if found is None:
        raise RulesVersionUnavailable(version_id or _current[0], known())
    return found.variant(variant_id)


def current() -> str:
    """The version a table opened by this process is opened under."""
    return _current[0]


def register(version: RulesVersion, *, make_current: bool = False) -> None:
    """Make a version decidable here (a second one with the same id must be the same one)."""
    existing = _known.get(version.id)
    if existing is not None and existing is not version:
        raise ValueError(f"rules version {version.id!r} is already registered, differently")
    _known[version.id] = version
    if make_current:
        _current[0] = version.id


def set_current(version_id: str) -> None:
    """Open new tables under this (known) version: an operator holds new tables to the old
    version until every process of a rolling upgrade has the new one."""
    rules(version_id)
    _current[0] = version_id


@contextmanager
def known_only(*versions: RulesVersion, current: str | None = None) -> Iterator[None]:
    """Within the block this process knows exactly these versions (the first, or ``current``,
    opens new tables); the registry as it was after. For tests and one-off tools: it changes
    the whole process's registry, so nothing else may decide meanwhile."""
    if not versions:
        raise ValueError("a process must know at least one rules version")
    saved, saved_current = dict(_known), _current[0]
    _known.clear()
    _known.update({v.id: v for v in versions})
    _current[0] = versions[0].id
    try:
        if current is not None:
            set_current(current)
        yield
    finally:
        _known.clear()
        _known.update(saved)
        _current[0] = saved_current


__all__ = [
    "BEFORE_VERSIONS",
    "ENGINE",
    "RulesVersion",
    "RulesVersionUnavailable",
    "current",
    "known",
    "known_only",
    "knows",
    "register",
    "rules",
    "set_current",
    "variant_in",
]
