"""The domain's facts: the payloads of every event a table, a room or an account records.

They stand beside the commands (``services.rules.table.commands``) in the engine's language;
``events`` below them keeps what an event log is (the base event, the envelope, the registry
and its upcasting, the hash chain) and knows none of them. Importing a module here registers
its payloads with ``events.registry.registry``.
"""
