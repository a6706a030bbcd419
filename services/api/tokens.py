"""Seat, spectator and operator tokens: short-lived JWTs (HS256, PyJWT) the platform mints.

A seat token is ``{"kind": "seat", "tbl", "seat", "sub": player, "exp", "iat", "jti"}``: it
acts and reads for that one seat of that one table, for that player, until it expires. A
spectator or operator token names a table and no seat. Tokens are signed with the API's
secret (``PAIJU_API_TOKEN_SECRET``), checked for signature, audience and every claim on
first use and for expiry on every use (a process remembers the tokens it checked); nothing
about them is stored.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Literal

import jwt

Role = Literal["seat", "spectator", "operator"]
AUDIENCE = "paiju-table"
ALGORITHM = "HS256"


class TokenProblem(ValueError):
    """A token that cannot be used; the message says why (never which secret)."""


@dataclass(frozen=True)
class TableToken:
    role: Role
    table_id: str
    seat: int | None
    subject: str
    expires_at: int
    token_id: str


VERIFIED_KEPT = 20_000
"""Tokens a process remembers as verified (a few hundred bytes each; all forgotten when full)."""


class TokenSigner:
    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret or secrets.token_bytes(32)
        # token -> its claims, once its signature and claims were checked: a seat sends the
        # same token with every move, and a signature checked is checked for good (the
        # secret is this object's); its expiry is checked again on every use
        self._verified: dict[str, TableToken] = {}

    def mint(
        self, role: Role, table_id: str, subject: str, seconds: int, seat: int | None = None
    ) -> tuple[str, TableToken]:
        now = int(time.time())
        claims = TableToken(role, table_id, seat, subject, now + seconds, secrets.token_hex(8))
        body = {
            "kind": role, "tbl": table_id, "seat": seat, "sub": subject, "aud": AUDIENCE,
            "iat": now, "exp": claims.expires_at, "jti": claims.token_id,
        }  # fmt: skip
        return jwt.encode(body, self.secret, algorithm=ALGORITHM), claims

    def read(self, token: str) -> TableToken:
        known = self._verified.get(token)
        if known is not None:
            if time.time() < known.expires_at:
                return known
            self._verified.pop(token, None)
            raise TokenProblem("the token has expired: ask the platform for a new one")
        claims = self._checked(token)
        if len(self._verified) >= VERIFIED_KEPT:
            self._verified.clear()
        self._verified[token] = claims
        return claims

    def _checked(self, token: str) -> TableToken:
        try:
            body = jwt.decode(
                token, self.secret, algorithms=[ALGORITHM], audience=AUDIENCE,
                options={"require": ["exp", "iat", "sub", "jti", "aud"]},
            )  # fmt: skip
        except jwt.ExpiredSignatureError:
            raise TokenProblem("the token has expired: ask the platform for a new one") from None
        except jwt.InvalidTokenError as error:
            raise TokenProblem(f"the token is not valid: {error}") from None
        role, table, seat = body.get("kind"), body.get("tbl"), body.get("seat")
        if role not in ("seat", "spectator", "operator") or not isinstance(table, str):
            raise TokenProblem("the token names no table role")
        if (role == "seat") != (isinstance(seat, int) and not isinstance(seat, bool)):
            raise TokenProblem("a seat token names one seat; other tokens none")
        return TableToken(role, table, seat, str(body["sub"]), int(body["exp"]), str(body["jti"]))
