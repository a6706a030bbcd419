"""The table service: commands in, through the rules engine, events out to the event store."""

from services.tables.service import Accepted, Rejected, TableBusyError, TableService

__all__ = ["Accepted", "Rejected", "TableBusyError", "TableService"]
