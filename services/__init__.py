"""Paiju services: the pure rules engine, the table logic, the API and the CLI."""
