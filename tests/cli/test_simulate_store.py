"""``paiju simulate --store``: bots' hands written through the table service into a real store."""

from __future__ import annotations

import argparse
import io

import pytest

from services.cli import simulate_cmd


def run(store_url: str, variant: str) -> str:
    parser = argparse.ArgumentParser()
    simulate_cmd.add_arguments(parser)
    args = parser.parse_args(["--variant", variant, "--games", "2", "--seed", "store", "--store", store_url])
    out = io.StringIO()
    assert simulate_cmd.main(args, out) == 0, out.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("variant", ["mudanjiang", "shanghai"])
def test_simulated_hands_go_through_the_store_and_verify(tmp_path: object, variant: str) -> None:
    text = run(f"sqlite:///{tmp_path}/load.sqlite3", variant)
    assert f"{variant} hands: 2" in text
    assert f"{variant} invariants: ok" in text
