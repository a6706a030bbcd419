"""Bots that play at a table through the engine's own ``play_commands``/``decide``/``evolve``.

- ``random_command``: any legal command, uniformly (the benchmarks' baseline);
- ``winning_command``: plays to win (向听 and useful draws, claims that help, 听 at once);
- ``autoplay_command``: the 托管 move of decision 14 (rightmost tile, 自摸, else pass);
- ``runner``: hands played by bots with the invariants checked after every event.
"""

from services.bots.random_bot import random_command
from services.bots.winning_bot import winning_command
from services.rules.table.autoplay import autoplay_command

__all__ = ["autoplay_command", "random_command", "winning_command"]
