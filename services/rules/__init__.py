"""The pure rules engine: tiles, hand analysis, variants, the hand state machine.

Nothing under this package performs I/O; ``tests/rules/test_purity.py`` enforces it.
"""

RULES_VERSION = "paiju-rules/1"
"""Recorded on every event; bump it when a rule change could make old commands decide otherwise."""
