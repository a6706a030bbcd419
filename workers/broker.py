"""The Redis transport the workers read their queues with: kombu's own, except that an entry
that is no kombu message is logged and dropped instead of killing the worker.

kombu's Redis channel decodes each entry it pops with ``loads`` and hands it to the consumer
as it is; an entry that is not JSON, or JSON without a message's envelope (``properties``
with a ``delivery_tag`` and ``delivery_info``), raises inside the worker's event loop, and the
worker exits with its pool (celery/celery#4308 and #7975, kombu#2421, unfixed upstream). Here
both reads check the entry first. The entry is already off the list when it is checked (BRPOP
and RPOP remove it), so dropping it loses nothing a worker could have run: no task can be
made of it. What a well-shaped message carries is Celery's to judge (an unknown task name, a
body that is not a task's, are logged and rejected by Celery itself).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from queue import Empty
from typing import Any

import structlog
from kombu.exceptions import DecodeError
from kombu.transport import redis as kombu_redis
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import loads

log = structlog.get_logger("paiju.broker")

SHOWN_ENTRY_CHARS = 200
"""How much of a dropped entry its log line shows (an entry may be any size)."""


def envelope_fault(payload: Any) -> str | None:
    """What keeps ``payload`` (a decoded queue entry) from being a kombu message, or None."""
    if not isinstance(payload, Mapping):
        return f"a JSON {type(payload).__name__}, not an object"
    properties = payload.get("properties")
    if not isinstance(properties, Mapping):
        return "no properties object"
    if not isinstance(properties.get("delivery_tag"), str):
        return "no delivery_tag in its properties"
    info = properties.get("delivery_info")
    if not isinstance(info, Mapping) or not {"exchange", "routing_key"} <= info.keys():
        return "no delivery_info with exchange and routing_key"
    if not isinstance(payload.get("headers", {}), (Mapping, type(None))):
        return "headers that are not an object"
    return _body_fault(payload.get("body"), properties.get("body_encoding"))


def _body_fault(body: Any, encoding: Any) -> str | None:
    if body is None:
        return None
    if not isinstance(body, str):
        return "a body that is not a string"
    if encoding == "base64":
        try:
            base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            return "a base64 body that does not decode"
    return None


def shown(item: bytes | str) -> str:
    """The start of a raw entry, as text (bytes that are not UTF-8 shown escaped)."""
    if isinstance(item, bytes):
        try:
            text = item.decode("utf-8")
        except UnicodeDecodeError:
            text = repr(item)
    else:
        text = item
    return text[:SHOWN_ENTRY_CHARS]


def decoded_message(item: bytes | str, queue: str) -> dict[str, Any] | None:
    """The message ``item`` holds, or None (logged) when no task can be made of it."""
    try:
        payload = loads(bytes_to_str(item))
    except (ValueError, UnicodeDecodeError, DecodeError) as error:
        fault = f"not JSON ({type(error).__name__})"
    else:
        fault = envelope_fault(payload)
        if fault is None:
            return dict(payload)
    log.warning("broker.message_dropped", queue=queue, reason=fault, entry=shown(item),
                length=len(item))  # fmt: skip
    return None


class Channel(kombu_redis.Channel):
    """kombu's Redis channel with both reads (BRPOP when consuming, RPOP for ``basic_get``)
    checking what they pop."""

    def _brpop_read(self, **options: Any) -> bool:
        try:
            try:
                reply = self.client.parse_response(self.client.connection, "BRPOP", **options)
            except self.connection_errors:
                self.client.connection.disconnect()  # the next poll reconnects (kombu's own)
                raise
            if not reply:
                raise Empty()
            key, item = reply
            queue = bytes_to_str(key).rsplit(self.sep, 1)[0]
            self._queue_cycle.rotate(queue)
            message = decoded_message(item, queue)
            if message is not None:
                self.connection._deliver(message, queue)
            return True
        finally:
            self._in_poll = None
            self._flush_brpop_reauth()

    def _get(self, queue: str) -> dict[str, Any]:
        with self.conn_or_acquire() as client:
            for priority in self.priority_steps:
                while item := client.rpop(self._q_for_pri(queue, priority)):
                    self._maybe_update_queues_expire(client, queue)
                    message = decoded_message(item, queue)
                    if message is not None:
                        return message
            self._maybe_update_queues_expire(client, queue)
            raise Empty()


class Transport(kombu_redis.Transport):
    """kombu's Redis transport on the checking channel (``broker_transport`` of a Redis app)."""

    Channel = Channel
