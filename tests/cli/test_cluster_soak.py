"""A soak's memory figures: a kind's size at a sample is its largest part that has settled, so a
part just restarted (small again) neither hides a leak nor fakes a fall; growth compares the
last quarter of the run with the first."""

from __future__ import annotations

import csv
from pathlib import Path

from services.cluster.soak import MemorySample, Soak


def _soak(*samples: tuple[float, str, str, float, float]) -> Soak:
    return Soak(memory=[MemorySample(*s) for s in samples])


def test_a_kind_is_sized_by_its_largest_settled_part_at_each_sample() -> None:
    soaked = _soak((60, "worker-1", "worker", 300, 90.0), (60, "worker-2", "worker", 300, 110.0),
                   (60, "worker-3", "worker", 10, 500.0))  # fmt: skip
    assert soaked.by_kind(settled=120) == {"worker": [(60, 110.0)]}


def test_a_part_restarted_small_does_not_count_until_it_has_settled() -> None:
    soaked = _soak((60, "api-1", "api", 200, 80.0), (120, "api-1", "api", 5, 40.0))
    assert soaked.by_kind(settled=120) == {"api": [(60, 80.0)]}


def test_growth_compares_the_last_quarter_with_the_first() -> None:
    soaked = _soak(*[(60.0 * n, "projector-1", "projector", 600 + 60.0 * n, 100.0 + 10 * n)
                     for n in range(8)])  # fmt: skip
    assert soaked.growth_lines(settled=120) == [
        "projector: 105 MiB early, 165 MiB late (+57.1%), peak 170 MiB, 8 samples;"
        " within one run (projector-1, 7 min): 100 -> 170 MiB (+70.0%)"
    ]


def test_a_part_restarted_bigger_is_told_apart_from_one_growing_within_its_run() -> None:
    """api-2 is restarted at 300 s a size bigger (its start-up read more) and then stays flat:
    the kind grows across runs, no run grows within itself."""
    flat = [(60.0 * n, "api-1", "api", 60.0 * n + 120, 100.0) for n in range(5)]
    restarted = [(60.0 * n, "api-2", "api", 60.0 * n - 180, 150.0) for n in range(5, 12)]
    lines = _soak(*flat, *restarted).growth_lines(settled=120)
    assert lines[0].startswith("api: 100 MiB early, 150 MiB late (+50.0%)")
    assert lines[0].endswith("within one run (api-2, 6 min): 150 -> 150 MiB (+0.0%)")


def test_too_few_settled_samples_say_so_rather_than_a_growth() -> None:
    soaked = _soak((60, "reactor-1", "reactor", 600, 70.0), (120, "reactor-1", "reactor", 660, 71.0))
    assert soaked.growth_lines(settled=120) == ["reactor: 2 settled samples, too few to say"]


def test_every_sample_is_written_to_the_memory_file(tmp_path: Path) -> None:
    soaked = _soak((60, "api-1", "api", 200, 80.04), (61, "worker-1", "worker", 3, 40.0))
    soaked.write_memory(tmp_path / "memory.csv")
    with (tmp_path / "memory.csv").open() as rows:
        assert list(csv.reader(rows)) == [["at_s", "part", "kind", "age_s", "rss_mib"],
                                          ["60", "api-1", "api", "200", "80.0"],
                                          ["61", "worker-1", "worker", "3", "40.0"]]  # fmt: skip
