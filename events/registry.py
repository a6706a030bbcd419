"""One registry from event type name to payload model, with upcasting of old shapes.

The rules engine registers its payloads::

    @registry.register
    class TileDiscarded(DomainEvent):
        type: Literal["tile_discarded"] = "tile_discarded"
        seat: int
        tile: str

When a payload's shape changes, bump its ``schema_version`` and register an
upcaster for each step, from the old version to the next::

    @registry.upcaster("tile_discarded", from_version=1)
    def _discard_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
        return {**payload, "tsumogiri": False}

Stored events keep the shape they were written in (the hash chain covers it);
``decode`` upcasts on read, step by step, up to the model's current version.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from events.base import DomainEvent
from events.envelope import Actor, NewEvent, RecordedEvent

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]
M = TypeVar("M", bound=type[DomainEvent])


class RegistryError(Exception):
    """An unknown type, a clash of type names, or a missing upcasting step."""


def type_name(model: type[DomainEvent]) -> str:
    field = model.model_fields.get("type")
    name = field.default if field is not None else None
    if not isinstance(name, str) or not name:
        raise RegistryError(f"{model.__name__} needs a default for its 'type' field")
    return name


class EventRegistry:
    def __init__(self) -> None:
        self._models: dict[str, type[DomainEvent]] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}

    def register(self, model: M) -> M:
        """Register a payload model under its ``type`` (usable as a class decorator)."""
        name = type_name(model)
        existing = self._models.get(name)
        if existing is not None and existing is not model:
            raise RegistryError(f"type {name!r} is already registered to {existing.__qualname__}")
        self._models[name] = model
        return model

    def upcaster(self, type: str, *, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Register ``fn`` to turn a ``type`` payload of ``from_version`` into ``from_version + 1``."""

        def decorate(fn: Upcaster) -> Upcaster:
            key = (type, from_version)
            if key in self._upcasters:
                raise RegistryError(
                    f"an upcaster for {type!r} v{from_version} is already registered"
                )
            self._upcasters[key] = fn
            return fn

        return decorate

    def model(self, type: str) -> type[DomainEvent]:
        try:
            return self._models[type]
        except KeyError:
            raise RegistryError(f"unknown event type {type!r}") from None

    def __contains__(self, type: object) -> bool:
        return type in self._models

    def types(self) -> list[str]:
        return sorted(self._models)

    def upcast(self, type: str, schema_version: int, payload: Payload) -> Payload:
        """Bring ``payload`` (written as ``schema_version``) to the registered model's version."""
        current = self.model(type).schema_version
        if schema_version > current:
            raise RegistryError(
                f"{type!r} v{schema_version} is newer than this code knows (v{current})"
            )
        for version in range(schema_version, current):
            step = self._upcasters.get((type, version))
            if step is None:
                raise RegistryError(f"no upcaster for {type!r} from v{version} to v{version + 1}")
            payload = step(dict(payload))
        return payload

    def decode(self, event: RecordedEvent) -> DomainEvent:
        """The payload model of a recorded event, upcast to the current shape."""
        payload = self.upcast(event.type, event.schema_version, event.payload)
        return self.model(event.type).model_validate({**payload, "type": event.type})

    def encode(self, payload: DomainEvent) -> tuple[str, int, Payload]:
        """``(type, schema_version, payload dict without type)`` of a model instance."""
        name = payload.type
        if self._models.get(name) is not type(payload):
            raise RegistryError(f"{type(payload).__qualname__} ({name!r}) is not registered")
        return name, payload.schema_version, payload.model_dump(mode="json", exclude={"type"})

    def new_event(
        self,
        payload: DomainEvent,
        *,
        actor: Actor,
        rules_version: str,
        event_id: uuid.UUID | None = None,
    ) -> NewEvent:
        """Wrap a payload for ``EventStore.append``."""
        name, version, data = self.encode(payload)
        return NewEvent(
            type=name,
            payload=data,
            actor=actor,
            rules_version=rules_version,
            schema_version=version,
            event_id=event_id or uuid.uuid4(),
        )


registry = EventRegistry()
"""The application's registry; the rules engine registers its payloads here."""
