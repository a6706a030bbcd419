"""``patch`` copies a state object with some fields changed, exactly as ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.table.state import (
    Claim,
    ClaimWindow,
    HandState,
    Presence,
    SeatState,
    Series,
    TableState,
    patch,
)

HAND = HandState(
    number=3,
    dealer=1,
    dice=(2, 5),
    wall=tuple(range(34)) * 4,
    head=53,
    tail=136,
    seats=(SeatState(concealed=(1, 2, 3)), SeatState(), SeatState(drawn=7), SeatState()),
    turn=2,
)
SAMPLES = [
    SeatState(concealed=(0, 0, 4), drawn=9, ready="plain"),
    ClaimWindow(tile=5, from_seat=1, options=((2, ("pong",)),), answers=((2, Claim("pass")),)),
    HAND,
    Series(next_dealer=2, scores=(5, -5, 0, 0)),
    Presence(connected=False, dropped_at=12),
    TableState(table_id="t", variant_id="harbin", hand=HAND, version=40),
]
NEW_VALUES = st.one_of(st.none(), st.integers(-3, 200), st.booleans(), st.text(max_size=4))


@settings(max_examples=200, deadline=None)
@given(sample=st.sampled_from(SAMPLES), data=st.data())
def test_patch_changes_the_named_fields_and_keeps_every_other_one(
    sample: object, data: st.DataObject
) -> None:
    names = [f.name for f in dataclasses.fields(sample)]  # type: ignore[arg-type]
    chosen = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    changes = {n: data.draw(NEW_VALUES) for n in chosen}
    copied = patch(sample, **changes)
    assert type(copied) is type(sample) and copied is not sample
    for n in names:
        assert getattr(copied, n) is (changes[n] if n in changes else getattr(sample, n))
    assert copied == dataclasses.replace(sample, **changes)  # type: ignore[type-var]


def test_patch_names_a_field_the_class_does_not_have() -> None:
    with pytest.raises(TypeError, match="SeatState has no field 'drawm'"):
        patch(SeatState(), drawm=3)


def test_patch_leaves_the_original_as_it_was() -> None:
    seat = SeatState(concealed=(1, 2), drawn=3)
    patch(seat, drawn=None, concealed=(1, 2, 3))
    assert seat == SeatState(concealed=(1, 2), drawn=3)
