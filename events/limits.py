"""Every number the service takes from outside, bounded: each limit named once, here.

The engine's command models (``services.rules.table.commands``), the events a platform's
requests become (``services.rules.events.rooms``, ``services.rules.events.accounts``) and the
API's request models and query parameters (``services.api.routes_*``) all take their bounds
from this module, so a number is refused at the edge (422, naming the field and its limit)
and nothing past it ever meets a value no read model can hold.

Why these values hold: every read-model integer is a 64-bit signed integer (PostgreSQL
``bigint``, SQLite ``INTEGER``: ``READ_MODEL_INT_MAX``). 上海 and the 宝 variants multiply the
底注 by small constants of their own: the most a seat wins or pays in one hand (a settlement,
or a 逃跑处罚) is under ``MAX_STAKES_A_HAND`` 底注 (上海: 21 花 × 2^4 番 from three seats is
1008; 宝: 16 番 × 2 (庄) × 3 (出冲) from three seats is 288); 山东 and 塘沽 pay points of
their own whatever the 底注, a few hundred thousand at most. So a hand moves at most
``MAX_HAND_AMOUNT`` to or from a seat, and a balance summing such hands reaches
``READ_MODEL_INT_MAX`` only after ``HANDS_OF_HEADROOM`` (over 900 million) of them, each the
worst the rules allow (``tests/security/test_bounded_numbers.py`` checks this against the
scorers' own factors).
"""

from __future__ import annotations

READ_MODEL_INT_MAX = 2**63 - 1
"""The largest integer a read model holds (PostgreSQL bigint, SQLite INTEGER)."""

MAX_BASE_STAKE = 1_000_000
"""底注: a table's stake, from 1 (``POST /v1/tables``, a room's settings)."""
MAX_STAKES_A_HAND = 10_000
"""The most 底注 any scorer moves to or from one seat in one hand (see above)."""
MAX_HAND_AMOUNT = MAX_BASE_STAKE * MAX_STAKES_A_HAND
HANDS_OF_HEADROOM = READ_MODEL_INT_MAX // MAX_HAND_AMOUNT

MAX_POINTS = 1_000_000_000
"""积分 a room may require to sit down (``minimum_points``), either sign."""
MAX_ADJUSTMENT = 100_000_000
"""One grant, top-up or correction of a player's 积分, either sign."""

MIN_WAIT_SECONDS = 1
MAX_WAIT_SECONDS = 3600
"""A table's timing overrides (turn, claim, autoplay_window, reconnect_grace) and a room's
turn and claim seconds: an hour at most, no wait at a table is longer."""
MAX_OPTIONS = 32
"""Entries in a table's or a room's ``options`` or ``timing`` (a variant has a handful)."""

MIN_TOKEN_SECONDS = 10
MAX_TOKEN_SECONDS = 86_400
"""A minted token's lifetime (the service's own ceiling may be shorter)."""

MAX_PAGE = 100_000
MAX_PAGE_SIZE = 200
"""A page of a list (from 1) and the items a page."""
MAX_POSITION = 2**62
"""A global position a client names (``min_position``): well inside a bigint."""
MAX_VERSION = 10**12
"""A stream version a client names (``after``, ``Last-Event-ID``, ``If-Match``, a timeout's)."""
MAX_SEQUENCE = 10**15
"""A refusal's sequence a stream resumes after (``refusals_after``)."""
MAX_READ_WAIT_SECONDS = 10
"""How long a read waits for ``min_position``, or a request for a command's outcome."""
MAX_HAND_NUMBER = 1_000_000
"""A hand of a table's replay, from 1."""
