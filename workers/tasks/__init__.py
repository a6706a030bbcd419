"""Paiju's Celery tasks, one module per queue's work (registered by ``workers.app``)."""
