"""Whole hands per second with random legal moves: ``paiju simulate`` beside rlcard and pymahjong.

Every engine plays four random players, each choosing uniformly among the moves its engine
lists as legal, from the deal to the end of the hand, in the same process and the same run:

- ``paiju simulate``: ``simulate_cmd.run_variant`` with ``--bot random``, as the CLI runs it
  (tile conservation after every event, replay of each hand's events through JSON at its end);
- paiju engine only: the same random play (``legal_commands``, ``decide``, ``evolve``), no checks;
- rlcard ``mahjong`` (pure Python): ``MahjongGame`` stepped with a random legal action, and
  ``env.run`` with four ``RandomAgent`` (which also encodes observations, as RL training does);
- pymahjong (C++ core, riichi rules): ``MahjongEnv`` with a random valid action (its own
  ``pymahjong.test`` loop, without observations), and the bare ``MahjongPyWrapper.Table``.

Rounds interleave the engines; each figure is the median over the rounds, timed by the
process's CPU time (``--clock wall`` for the wall clock). ``--profile`` adds a
cProfile of the paiju engine-only loop (the top functions by own time and by cumulative time).

    .venv/bin/pip install rlcard pymahjong
    .venv/bin/python benchmarks/bench_simulate.py [--hands 30] [--rounds 5] [--variants all] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import time
from collections.abc import Callable

from services.bots.random_bot import random_command
from services.bots.runner import hand_seed, open_table
from services.cli.simulate_cmd import run_variant
from services.rules.table import decide_and_evolve
from services.rules.table.commands import StartHand
from services.rules.table.legal import seats_to_act
from services.rules.variants import VARIANTS

Runner = Callable[[int, int], int]  # (hands, round) -> decisions made


def paiju_engine(variant: str) -> Runner:
    def run(hands: int, round_: int) -> int:
        table, _ = open_table(variant)
        rng = random.Random(round_)
        decisions = 0
        for index in range(hands):
            _, table = decide_and_evolve(
                table, StartHand(seed=hand_seed(f"bench{round_}", variant, index))
            )
            while not table.hand_over:
                seat = seats_to_act(table)[0]
                _, table = decide_and_evolve(table, random_command(table, seat, rng))
                decisions += 1
        return decisions

    return run


def paiju_simulate(variant: str) -> Runner:
    def run(hands: int, round_: int) -> int:
        result = run_variant(variant, hands, f"bench{round_}", "random", False)
        assert result.failure is None, result.failure
        return result.commands

    return run


def rlcard_game() -> Runner:
    import numpy as np
    from rlcard.games.mahjong.game import MahjongGame  # type: ignore[import-untyped]

    def run(hands: int, round_: int) -> int:
        game = MahjongGame()
        game.np_random = np.random.RandomState(round_)
        rng = random.Random(round_)
        decisions = 0
        for _ in range(hands):
            state, _player = game.init_game()
            while not game.is_over():
                state, _player = game.step(rng.choice(game.get_legal_actions(state)))
                decisions += 1
        return decisions

    return run


def rlcard_env() -> Runner:
    import rlcard  # type: ignore[import-untyped]
    from rlcard.agents import RandomAgent  # type: ignore[import-untyped]

    def run(hands: int, round_: int) -> int:
        env = rlcard.make("mahjong", config={"seed": round_})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
        decisions = 0
        for _ in range(hands):
            trajectories, _payoffs = env.run(is_training=False)
            decisions += sum(len(t) // 2 for t in trajectories)
        return decisions

    return run


def pymahjong_env() -> Runner:
    import pymahjong  # type: ignore[import-untyped]

    def run(hands: int, round_: int) -> int:
        env = pymahjong.MahjongEnv()
        rng = random.Random(round_)
        decisions = 0
        for index in range(hands):
            env.reset(
                oya=index % 4, game_wind="east"
            )  # reset(seed=...) fails in 1.1.2: no Table.seed
            while not env.is_over():
                player = env.get_curr_player_id()
                env.step(player, int(rng.choice(list(env.get_valid_actions()))))
                decisions += 1
        return decisions

    return run


def pymahjong_table() -> Runner:
    from MahjongPyWrapper import Table  # type: ignore[import-not-found]

    def run(hands: int, round_: int) -> int:
        rng = random.Random(round_)
        decisions = 0
        for index in range(hands):
            table = Table()
            table.set_seed(round_ * 100_000 + index)
            table.game_init_with_config([], [25000] * 4, 0, 0, 0, index % 4)
            while table.get_phase() < 16:  # 16: GAME_OVER
                phase = table.get_phase()
                actions = table.get_self_actions() if phase < 4 else table.get_response_actions()
                table.make_selection(rng.randrange(len(actions)))
                decisions += 1
        return decisions

    return run


def engines(variants: list[str]) -> dict[str, Runner]:
    found: dict[str, Runner] = {}
    for variant in variants:
        found[f"paiju simulate --bot random ({variant})"] = paiju_simulate(variant)
        found[f"paiju engine only ({variant})"] = paiju_engine(variant)
    for label, make in (
        ("rlcard MahjongGame, random legal", rlcard_game),
        ("rlcard env.run, 4 RandomAgent", rlcard_env),
        ("pymahjong MahjongEnv, random valid", pymahjong_env),
        ("pymahjong Table (C++), random", pymahjong_table),
    ):
        try:
            found[label] = make()
        except ImportError as error:
            print(f"skipped {label}: {error}")
    return found


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def measure(
    runners: dict[str, Runner], hands: int, rounds: int, clock: str = "cpu"
) -> dict[str, tuple[float, float]]:
    """Median hands per second and decisions per second of each engine over the rounds.

    By default the time is this process's CPU time: on a machine shared with other work the
    wall clock also counts the time the process waited for a core, which falls on whichever
    engine happened to be running (every engine here runs in this one process and thread)."""
    now = CLOCKS[clock]
    rates: dict[str, list[tuple[float, float]]] = {label: [] for label in runners}
    for round_ in range(rounds):
        for label, run in runners.items():
            started = now()
            decisions = run(hands, round_)
            seconds = now() - started
            rates[label].append((hands / seconds, decisions / seconds))
    return {
        label: (statistics.median(h for h, _ in got), statistics.median(d for _, d in got))
        for label, got in rates.items()
    }


def profile(variant: str, hands: int, top: int = 18) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    paiju_engine(variant)(hands, 0)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30, help="hands per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variants", default="harbin,shandong", help="comma-separated ids, or all")
    parser.add_argument("--profile", action="store_true", help="cProfile the paiju engine loop too")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="CPU time (default) or wall time"
    )
    args = parser.parse_args()
    variants = sorted(VARIANTS) if args.variants == "all" else args.variants.split(",")
    runners = engines(variants)
    results = measure(runners, args.hands, args.rounds, args.clock)
    peers = {label: rate for label, rate in results.items() if not label.startswith("paiju")}
    keys = "ABCD"
    print(
        f"{args.hands} hands per engine per round, median of {args.rounds} rounds ({args.clock} time)"
    )
    for key, label in zip(keys, peers, strict=False):
        print(f"  {key}: {label}")
    header = f"{'engine':42} {'hands/s':>8} {'moves/s':>8}"
    print(header + "".join(f" {'÷ ' + key:>7}" for key, _ in zip(keys, peers, strict=False)))
    for label, (hands_s, moves_s) in results.items():
        ratios = "".join(f" {hands_s / peer[0]:>6.2f}×" for peer in peers.values())
        print(f"{label:42} {hands_s:>8.1f} {moves_s:>8.0f}{ratios}")
    if args.profile:
        for variant in variants:
            print(f"\n--- cProfile, paiju engine only, {variant}, {args.hands} hands ---")
            print(profile(variant, args.hands))


if __name__ == "__main__":
    main()
