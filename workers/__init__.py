"""The service's processes: the Celery app and its tasks, the timekeeper, the reactor."""
