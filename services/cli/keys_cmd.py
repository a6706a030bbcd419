"""``paiju keys create --scopes tables,tokens [--label L]``, ``paiju keys list``, ``paiju keys
revoke ID``: the platform's API keys.

``create`` prints the key (``pk_<id>.<secret>``) once: only a keyed hash of it is stored
(HMAC-SHA256 with ``PAIJU_API_KEY_PEPPER``, which must then be the API's too).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from typing import TextIO

from services.cli.failures import CliError, command

SCOPES_HELP = "comma-separated: tables (open, deal), tokens (mint seat/spectator), operator, reads (read models)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="a new key, printed once")
    create.add_argument("--scopes", required=True, help=SCOPES_HELP)
    create.add_argument("--label", default="", help="what the key is for (shown by list)")
    actions.add_parser("list", help="every key: id, scopes, created, revoked")
    revoke = actions.add_parser("revoke", help="refuse a key from now on")
    revoke.add_argument("key_id", help="its id (the part after pk_ and before the dot)")
    for sub in actions.choices.values():
        sub.add_argument("--store", metavar="URL", help="the event store (default $PAIJU_STORE_URL)")


@command("keys", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from services.api.keys import KeyProblem, KeyStore
    from services.settings import SettingsError, load_settings

    out = out or sys.stdout
    try:
        settings = load_settings()
    except SettingsError as error:
        raise CliError(str(error)) from None
    pepper = settings.api_key_pepper
    url = args.store or settings.store_url
    try:
        with closing(KeyStore(url, None if pepper is None else pepper.get_secret_value().encode())) as keys:
            if args.action == "create":
                scopes = [s.strip() for s in args.scopes.split(",") if s.strip()]
                made = keys.create(scopes, args.label)
                print(made.token, file=out)
                print(f"key {made.key.key_id} ({' '.join(made.key.scopes)}): shown once, "
                      "stored only as a hash", file=sys.stderr)  # fmt: skip
            elif args.action == "revoke":
                key = keys.revoke(args.key_id)
                print(f"key {key.key_id}: revoked at {key.revoked_at}", file=out)
            else:
                print(f"{'ID':<18}{'SCOPES':<24}{'CREATED':<21}{'REVOKED':<21}LABEL", file=out)
                for key in keys.list():
                    print(f"{key.key_id:<18}{' '.join(key.scopes):<24}{key.created_at[:19]:<21}"
                          f"{(key.revoked_at or '-')[:19]:<21}{key.label}", file=out)  # fmt: skip
    except KeyProblem as error:
        raise CliError(str(error)) from None
    return 0
