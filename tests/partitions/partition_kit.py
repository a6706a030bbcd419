"""What the partition tests share."""

from __future__ import annotations

from collections.abc import Callable

from services.settings import Settings, load_settings
from workers.parts import Parts

Deploy = Callable[[int], Parts]
"""``deploy(n)``: the parts of a deployment with a home store and ``n`` table stores."""


def settings_of(home: str, tables: dict[int, str]) -> Settings:
    stores = " ".join(f"{k}={url}" for k, url in tables.items())
    return load_settings(store_url=home, table_stores=stores, snapshot_key="k" * 32)


def caught_up(parts: Parts, partition: int) -> None:
    """One partition's projector run to that store's head, then let go of (its leases and its
    database connection: the shared PostgreSQL has 100 connections for every test at once)."""
    projector = parts.projector(partition=partition)
    try:
        projector.attach()
        projector.catch_up()
    finally:
        projector.close()
        projector.db.close()
