"""The pure rules engine: tiles, hand analysis, variants, the hand state machine.

Nothing under this package performs I/O; ``tests/rules/test_purity.py`` enforces it.
"""
