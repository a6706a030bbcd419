"""Field types shared by the event payloads and the commands."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from services.rules.tiles import TileParseError, tile


def _one_tile(text: str) -> str:
    try:
        tile(text)
    except TileParseError as error:
        raise ValueError(str(error)) from None
    return text


TILE_NAME_PATTERN = r"^([1-9][mps]|[1-7]z|[1-8]f)$"
"""A tile's two-character mpsz name, as every command and event writes it (5m, 7z, 3f)."""

Seat = Annotated[int, Field(ge=0, le=3, description="a seat at the table, 0–3 in turn order")]
TileName = Annotated[str, Field(pattern=TILE_NAME_PATTERN), AfterValidator(_one_tile)]
Tiles = tuple[TileName, ...]
