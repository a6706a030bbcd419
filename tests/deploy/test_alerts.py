"""``deploy/alerts.yaml``: a Prometheus rule file whose every metric is one Paiju serves, each
alert explained in docs/operations.md's Alerts section."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
import yaml
from prometheus_client.registry import Collector

from ops import metrics
from services.api.context import ApiContext
from services.api.routes_ops import registry_of
from services.settings import load_settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "faults"))
from fault_kit import PrivateRedis  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = yaml.safe_load((ROOT / "deploy" / "alerts.yaml").read_text())
ALERTS = [rule for group in RULES["groups"] for rule in group["rules"]]
PROMETHEUS_OWN = {"up"}  # written by Prometheus for every scrape target
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "gauge": ("",),
}
DURATION = re.compile(r"^(\d+(ms|s|m|h|d|w|y))+$")
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or",
            "unless", "bool", "offset"}  # fmt: skip


def names_of(collectors: Iterable[Collector]) -> set[str]:
    """The sample names the collectors expose, with prometheus_client's own suffixes."""
    found = set()
    for collector in collectors:
        for family in collector.collect():
            found |= {family.name + suffix for suffix in SUFFIXES[family.type]}
            found |= {sample.name for sample in family.samples}
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[set[str]]:
    """Every metric name Paiju serves: what the parts record (``ops.metrics``) and what the
    API reads when scraped (queue depth from a real Redis, the store's gauges, rate limits)."""
    made = metrics.metrics()
    recorded = names_of([made.commands, made.command_seconds, made.timers, made.lateness,
                         made.webhooks, made.http_responses])  # fmt: skip
    root = tmp_path_factory.mktemp("alerts")
    (root / "redis").mkdir()
    redis = PrivateRedis(root / "redis")
    redis.start()
    store = root / "store.sqlite3"
    ctx = ApiContext.open(load_settings(store_url=f"sqlite:///{store}", broker_url=redis.url))
    try:
        yield recorded | names_of([registry_of(ctx)])
    finally:
        ctx.close()
        redis.stop()


def metric_names(expr: str) -> set[str]:
    """The series an expression selects: its identifiers that are neither functions, nor
    keywords, nor labels (of a matcher or a by/without list), nor in strings or ranges."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "", expr)
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]", "", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    found = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        after = text[match.end():].lstrip()
        if match.group() not in KEYWORDS and not after.startswith("("):
            found.add(match.group())
    return found


def test_alerts_yaml_is_a_prometheus_rule_file_of_named_alerts() -> None:
    assert set(RULES) == {"groups"}
    assert len({group["name"] for group in RULES["groups"]}) == len(RULES["groups"])
    for group in RULES["groups"]:
        assert set(group) == {"name", "rules"} and group["rules"], group["name"]
        for rule in group["rules"]:
            assert set(rule) == {"alert", "expr", "for", "labels", "annotations"}, rule
            assert re.fullmatch(r"Paiju[A-Z][A-Za-z]+", rule["alert"])
            assert isinstance(rule["expr"], str) and rule["expr"].strip()
            assert DURATION.match(rule["for"]), rule["alert"]
            assert rule["labels"]["severity"] in {"warning", "critical"}, rule["alert"]
            assert {"summary", "description"} <= set(rule["annotations"]), rule["alert"]
    assert len({rule["alert"] for rule in ALERTS}) == len(ALERTS)


def test_every_metric_an_alert_reads_is_one_paiju_serves(served: set[str]) -> None:
    assert {"paiju_commands_total", "paiju_timer_lateness_seconds_bucket",
            "paiju_queue_depth", "paiju_projection_lag"} <= served  # fmt: skip
    for rule in ALERTS:
        named = metric_names(rule["expr"])
        assert named, rule["alert"]
        assert named <= served | PROMETHEUS_OWN, (rule["alert"], named - served)


def test_the_metric_names_of_an_expression_leave_out_functions_labels_and_keywords() -> None:
    expr = ('histogram_quantile(0.99, sum by (le) (rate(paiju_x_bucket{q="a b"}[5m])))'
            " / on (job) group_left paiju_y > 1 and up == 0")  # fmt: skip
    assert metric_names(expr) == {"paiju_x_bucket", "paiju_y", "up"}


def test_the_operations_guide_explains_every_alert() -> None:
    guide = (ROOT / "docs" / "operations.md").read_text()
    alerts = guide.split("\n## Alerts\n", 1)
    assert len(alerts) == 2, "docs/operations.md has no '## Alerts' section"
    section = alerts[1].split("\n## ", 1)[0]
    missing = [rule["alert"] for rule in ALERTS if f"`{rule['alert']}`" not in section]
    assert not missing


