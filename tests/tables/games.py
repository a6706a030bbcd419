"""Tables played through the service for the tests: deterministic bots, explicit command ids."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import psycopg
from psycopg import sql

from services.bots.winning_bot import winning_command
from services.rules.table import CommandRejected, TableState, decide
from services.rules.table.commands import Command, StartHand
from services.rules.table.legal import seats_to_act
from services.tables import Accepted, TableService

PLAYERS = ("ann", "bo", "cy", "di")
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


def execute(store_url: str, statement: str, params: tuple[object, ...] = ()) -> None:
    """Run SQL behind the store's back, as someone with write access to the database would."""
    if store_url.startswith("sqlite"):
        with sqlite3.connect(store_url.removeprefix("sqlite:///")) as conn:
            conn.execute(statement.replace("%s", "?"), params)
        return
    schema = parse_qs(urlsplit(store_url).query)["schema"][0]
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        conn.execute(statement.encode(), params)


def accept(service: TableService, table_id: str, command: Command, command_id: str) -> TableState:
    outcome = service.handle(table_id, command, command_id=command_id)
    assert isinstance(outcome, Accepted) and outcome.state is not None, outcome
    return outcome.state


def opened(service: TableService, table_id: str = "t1", variant: str = "harbin") -> TableState:
    service.open_table(table_id, variant, PLAYERS, command_id=f"{table_id}/open")
    return accept(service, table_id, StartHand(), f"{table_id}/deal-1")


class Bots:
    """Winning bots moving one table on, each command with the next id of the table's own."""

    def __init__(self, service: TableService, table_id: str = "t1", seed: int = 5) -> None:
        self.service, self.table_id = service, table_id
        self.rng = random.Random(seed)
        self.moves = 0

    def next_command(self, state: TableState) -> Command:
        """The bots' next move; once a hand is over, the next deal."""
        if state.hand_over:
            return StartHand()
        return winning_command(state, seats_to_act(state)[0], self.rng)

    def play(self, state: TableState, command: Command | None = None) -> TableState:
        self.moves += 1
        command = command or self.next_command(state)
        return accept(self.service, self.table_id, command, f"{self.table_id}/move-{self.moves}")

    def play_until(
        self, state: TableState, done: Callable[[TableState], bool], limit: int = 1000
    ) -> TableState:
        for _ in range(limit):
            if done(state):
                return state
            state = self.play(state)
        raise AssertionError(f"not reached in {limit} moves")

    def play_hand(self, state: TableState) -> TableState:
        return self.play_until(state, lambda s: s.hand_over)


def legal(state: TableState, command: Command) -> bool:
    try:
        decide(state, command)
    except CommandRejected:
        return False
    return True
