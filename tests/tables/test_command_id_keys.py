"""A stored client id gives back the Idempotency-Key it was made from, whoever sent it: the
audits of ``paiju cluster`` hold the keys their bots sent, not the ids the store keeps."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.tables.command_ids import Sender, client_command_id, client_key, service_command_id

keys = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=60)
tables = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=40)


@given(table=tables, seat=st.integers(0, 3), key=keys)
def test_a_seats_key_comes_back_from_its_stored_id(table: str, seat: int, key: str) -> None:
    assert client_key(client_command_id(Sender.of_seat(table, seat), key)) == key


@given(key=keys)
def test_an_api_keys_key_comes_back_from_its_stored_id(key: str) -> None:
    assert client_key(client_command_id(Sender.api_key("0123abcd"), key)) == key


def test_the_services_own_ids_and_hashed_ones_name_no_key() -> None:
    assert client_key(service_command_id("timeout", "t1", "turn:0:v3")) is None
    assert client_key(client_command_id(Sender.of_seat("t1", 0), "k" * 100)) == "k" * 100
    assert client_key(client_command_id(Sender.of_seat("t" * 100, 0), "k" * 100)) is None


def test_a_table_id_holding_a_colon_does_not_shift_the_key() -> None:
    stored = client_command_id(Sender.of_seat("a:b", 2), "c:d")
    assert client_key(stored) == "c:d"
