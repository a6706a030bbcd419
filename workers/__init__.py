"""The service's processes: the Celery app and its tasks, the timekeeper, the reactor.

``celery -A workers.app worker`` (or ``paiju worker``) runs the Celery workers. Workers are a
thin shell: they parse a message, call the table service and record the outcome; no rule is
decided here.
"""
