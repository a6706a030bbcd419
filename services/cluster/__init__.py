"""A local cluster: the service's parts as separate processes on private PostgreSQL and Redis
servers of its own, played by bots over HTTP, measured, and optionally hurt (``paiju cluster``)."""
