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
