"""deploy/k8s: every manifest valid under Kubernetes' own schemas (kubernetes-validate, strict,
offline), the KEDA ScaledObject under KEDA's (tests/deploy/keda/README.md says where it comes
from), and what the service needs of them: probes, a graceful stop, disruption budgets, and
placeholder secrets nothing can start on."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from deploy_kit import K8S, k8s_documents, k8s_env, kinds, named, paiju_containers, pod_specs

from services.settings import SettingsError, load_settings

KUBERNETES = "1.33.0"  # the oldest release still supported upstream when this was written
KEDA_SCHEMA = Path(__file__).parent / "keda" / "scaledobject-v1alpha1.schema.json"


def refusal(document: dict[str, Any]) -> str | None:
    try:
        kubernetes_validate.validate(document, KUBERNETES, strict=True)
    except kubernetes_validate.ValidationError as error:
        return f"{error.path}: {error.message}"
    return None


@pytest.fixture(scope="module")
def keda() -> jsonschema.protocols.Validator:
    schema = json.loads(KEDA_SCHEMA.read_text())
    return jsonschema.Draft202012Validator(schema)


def test_every_manifest_but_keda_s_is_valid_under_the_kubernetes_schemas() -> None:
    checked = [(f, d) for f, d in k8s_documents() if d["apiVersion"] != "keda.sh/v1alpha1"]
    assert len(checked) >= 10
    assert {f"{f} {d['kind']} {d['metadata']['name']}": refusal(d) for f, d in checked} == {
        f"{f} {d['kind']} {d['metadata']['name']}": None for f, d in checked
    }


def test_the_kubernetes_validator_refuses_a_misspelled_field_so_the_check_can_fail() -> None:
    api = copy.deepcopy(named("Deployment", "api"))
    api["spec"]["template"]["spec"]["terminationGracePeriodSecond"] = 30
    assert "terminationGracePeriodSecond" in (refusal(api) or "")
    budget = copy.deepcopy(named("PodDisruptionBudget", "api"))
    budget["spec"]["minAvailable"] = [1]
    assert refusal(budget) is not None


def test_the_scaled_object_is_valid_under_keda_s_schema(keda) -> None:
    (scaled,) = kinds("ScaledObject")
    assert [e.message for e in keda.iter_errors(scaled)] == []


def test_keda_s_schema_refuses_an_unknown_field_and_a_trigger_without_a_type(keda) -> None:
    (scaled,) = kinds("ScaledObject")
    wrong = copy.deepcopy(scaled)
    wrong["spec"]["minReplicas"] = 2
    del wrong["spec"]["triggers"][0]["type"]
    wrong["spec"]["triggers"][0]["metadata"]["listLength"] = 20  # KEDA wants strings
    messages = [e.message for e in keda.iter_errors(wrong)]
    assert any("minReplicas" in m for m in messages), messages
    assert any("'type' is a required property" in m for m in messages), messages
    assert any("20 is not of type 'string'" in m for m in messages), messages


def test_the_kustomization_lists_every_manifest_of_the_folder() -> None:
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    on_disk = sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
    assert sorted(listed) == on_disk


def test_everything_is_in_the_paiju_namespace() -> None:
    (namespace,) = kinds("Namespace")
    for _, document in k8s_documents():
        if document["kind"] != "Namespace":
            assert document["metadata"]["namespace"] == namespace["metadata"]["name"]


def test_every_part_runs_as_a_non_root_user_on_a_read_only_root_with_memory_bounded() -> None:
    for name, spec in pod_specs().items():
        assert spec["securityContext"]["runAsNonRoot"] is True, name
        for container in spec["containers"]:
            assert container["securityContext"]["readOnlyRootFilesystem"] is True, name
            assert container["securityContext"]["allowPrivilegeEscalation"] is False, name
            assert {"cpu", "memory"} <= set(container["resources"]["requests"]), name
            assert "memory" in container["resources"]["limits"], name
    for spec in (pod_specs()[name] for name in paiju_containers()):
        assert spec["securityContext"]["runAsUser"] == 10001  # the Dockerfile's paiju user


def test_every_part_has_a_liveness_and_a_readiness_probe() -> None:
    for name, container in paiju_containers().items():
        assert "livenessProbe" in container, name
        assert "readinessProbe" in container, name


def test_every_part_has_longer_to_stop_than_its_pre_stop_and_one_webhook_post() -> None:
    for name, container in paiju_containers().items():
        spec = pod_specs()[name]
        pre_stop = container.get("lifecycle", {}).get("preStop", {}).get("exec", {})
        sleep = float(pre_stop["command"][1]) if pre_stop else 0.0
        timeout = float(k8s_env(container)["PAIJU_WEBHOOK_TIMEOUT"])
        # connect, write, read and the pool's wait, each up to PAIJU_WEBHOOK_TIMEOUT
        assert spec["terminationGracePeriodSeconds"] > sleep + 4 * timeout, name


def test_the_api_leaves_its_endpoints_before_it_stops() -> None:
    container = paiju_containers()["api"]
    assert container["lifecycle"]["preStop"]["exec"]["command"][0] == "sleep"
    rollout = named("Deployment", "api")["spec"]["strategy"]["rollingUpdate"]
    assert rollout["maxUnavailable"] == 0


def test_the_api_and_both_kinds_of_worker_have_a_disruption_budget_selecting_their_pods() -> None:
    budgets = {b["metadata"]["name"]: b["spec"] for b in kinds("PodDisruptionBudget")}
    for name in ("api", "worker-commands", "worker-effects"):
        labels = named("Deployment", name)["spec"]["template"]["metadata"]["labels"]
        selector = budgets[name]["selector"]["matchLabels"]
        assert selector.items() <= labels.items(), name
        assert budgets[name]["minAvailable"] == 1, name


def test_the_api_service_sends_to_the_api_pods_on_their_named_port() -> None:
    service = named("Service", "api")["spec"]
    pod = named("Deployment", "api")["spec"]["template"]
    assert service["selector"].items() <= pod["metadata"]["labels"].items()
    ports = {p["name"] for c in pod["spec"]["containers"] for p in c["ports"]}
    assert {p["targetPort"] for p in service["ports"]} <= ports


def test_the_placeholder_secrets_are_refused_by_every_part_so_nothing_starts_on_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, container in paiju_containers().items():
        for variable, value in k8s_env(container).items():
            monkeypatch.setenv(variable, value)
        with pytest.raises(SettingsError) as refused:
            load_settings()
        assert "PAIJU_SNAPSHOT_KEY" in str(refused.value), name
        assert "PAIJU_API_TOKEN_SECRET" in str(refused.value), name
    secret = named("Secret", "paiju-secrets")["stringData"]
    assert all("CHANGE-ME" in value for value in secret.values())


def test_the_previous_release_s_workers_stay_at_zero_on_an_image_of_their_own() -> None:
    deployment = named("Deployment", "worker-previous-rules")
    assert deployment["spec"]["replicas"] == 0  # scaled up during a rules upgrade only
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["image"].split(":")[0] == "paiju-previous"
    assert k8s_env(container)["PAIJU_RULES_QUEUES_ONLY"] == "true"
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    images = {i["name"]: i["newName"] for i in kustomization["images"]}
    assert images["paiju-previous"] == images["paiju"]  # the same repository, another tag
