"""The platform's HTTP API (FastAPI): ``create_api(ApiContext.open(settings))``.

Routes (v1):
- platform, with an API key (``Authorization: Bearer pk_<id>.<secret>``, ``paiju keys``):
  ``POST /v1/tables`` (OpenTable; scope ``tables``), ``POST /v1/tables/{t}/hands`` (deal),
  ``POST /v1/tables/{t}/seats/{s}/tokens`` (a seat token for that seat's player; ``tokens``),
  ``POST /v1/tables/{t}/tokens`` (spectator, or operator with ``operator``),
  ``POST /v1/tables/{t}/close`` (关桌 after the hand in play; ``tables``);
- an operator (an ``operator`` key, or an operator token of the table):
  ``POST /v1/tables/{t}/dissolve`` (网管解散; ``routes_table_life``);
- a seat, with its token: ``POST /v1/tables/{t}/commands`` (``Idempotency-Key`` = command id,
  optional ``If-Match``), ``GET /v1/tables/{t}/seats/{s}/legal``,
  ``GET /v1/tables/{t}/seats/{s}/events`` (SSE; ``?access_token=`` too);
- any table token: ``GET /v1/tables/{t}/view``; ``GET /v1/commands/{id}`` (the sender's token
  or its ``tables`` or ``operator`` key).
Pages for operators of the whole service (an ``operator`` key): the live dashboard at
``/ops/dashboard`` (``routes_dashboard``; its stream ``/ops/dashboard/events``).
The API never decides a rule: it checks who asks, enqueues commands for the workers and reads
the store through the table service.
"""
