"""Event types and the event store.

Importing this package imports nothing that does I/O; the stores live in
``events.store`` and are imported explicitly by the shell that needs them.
"""
