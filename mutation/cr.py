"""``cosmic-ray`` with the ``paiju`` operators: ``python -m mutation.cr <cosmic-ray arguments>``.

cosmic-ray finds operator providers through entry points; ours live in this folder, not in an
installed package, so this wrapper adds the provider before handing over to cosmic-ray's CLI.
Every cosmic-ray process of a run (init, exec, each worker) starts through it.

``python -m mutation.cr worker PORT`` is cosmic-ray's ``http-worker`` (the same handler) bound to
127.0.0.1 only: ``http-worker --port`` listens on every interface, and a worker runs any test
command it is sent.
"""

from __future__ import annotations

import sys

import cosmic_ray.plugins
from cosmic_ray.cli import main

from mutation.operators import Provider

cosmic_ray.plugins.OPERATOR_PROVIDERS.setdefault("paiju", Provider())


def worker(port: int) -> None:
    from aiohttp import web
    from cosmic_ray.distribution.http import handle_mutate_and_test

    app = web.Application()
    app.add_routes([web.post("/", handle_mutate_and_test)])
    web.run_app(app, host="127.0.0.1", port=port, print=None)


if __name__ == "__main__":
    if sys.argv[1:2] == ["worker"]:
        worker(int(sys.argv[2]))
    else:
        sys.exit(main())
