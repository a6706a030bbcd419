"""What the partition tests share."""

from __future__ import annotations

from collections.abc import Callable

from workers.parts import Parts

Deploy = Callable[[int], Parts]
"""``deploy(n)``: the parts of a deployment with a home store and ``n`` table stores."""
