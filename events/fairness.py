"""Provably fair deals: commit to a hand's seed before the deal, reveal it after.

The flow, for each hand of a table:

1. the service draws ``seed = new_seed()`` and keeps it apart from the stream with
   ``store.seal_seed(table_id, hand, seed)``, which returns ``commit_seed(seed)``;
2. the deal event carries only that commitment (a SHA-256 hex digest), so the
   stream, its exports and every seat's view reveal nothing of the wall;
3. when the hand ends, ``store.reveal(table_id, hand)`` hands the seed back and
   the engine records it in a reveal event;
4. a replay checks ``check_seed(revealed_seed, committed_digest)`` and re-deals.

A seed is 32 random bytes written as 64 hex characters: with that much entropy
an unsalted SHA-256 commitment cannot be inverted by guessing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BYTES = 32


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def commit_seed(seed: str) -> str:
    """The public commitment to ``seed``: SHA-256 of its UTF-8 bytes, as hex."""
    if not seed:
        raise ValueError("empty seed")
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def check_seed(seed: str, commitment: str) -> bool:
    """Whether ``seed`` is the one that ``commitment`` was made for."""
    return hmac.compare_digest(commit_seed(seed), commitment.lower())
