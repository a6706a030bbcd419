"""The base of every domain event payload."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class DomainEvent(BaseModel):
    """An immutable fact, named in the past tense, with a snake_case ``type``.

    ``schema_version`` is the shape version of the payload; the registry in
    ``events.registry`` upcasts older shapes to the current one on read.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    schema_version: ClassVar[int] = 1
