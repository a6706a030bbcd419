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


Seat = Annotated[int, Field(ge=0, le=3, description="a seat at the table, 0–3 in turn order")]
TileName = Annotated[str, AfterValidator(_one_tile)]
Tiles = tuple[TileName, ...]
