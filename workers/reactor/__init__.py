"""Reactors: ordered consumers of the store's global order that cause effects (notifications).

``runner.Reactor`` tails ``read_all`` from a checkpoint and turns each event that concerns the
platform into a webhook delivery row, in one transaction with its checkpoint's move.
"""
