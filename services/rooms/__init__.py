"""Rooms and seating (decision 18): ``room`` and ``account`` decide, ``service`` records."""
