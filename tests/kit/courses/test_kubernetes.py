"""The Kubernetes manifests of docs/instructors.md ("On Kubernetes"), as far as they can be checked
without a cluster: each ``yaml`` block is a whole ``batch/v1`` Job that Kubernetes' own schema of a
Job accepts, strict (a key the API does not define, or a value of another type, is refused), and the
grading Job runs as many shards as it has completions. They have never run on a cluster. The schema
is schemas/job-batch-v1.json beside this file (Kubernetes 1.37's; schemas/standalone.py says where
it comes from and makes it again)."""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from ..docblocks import blocks, everywhere, page, section

SCHEMAS = {("batch/v1", "Job"): Path(__file__).with_name("schemas") / "job-batch-v1.json"}


def manifests() -> list[dict[str, Any]]:
    """The ``yaml`` blocks of the page's Kubernetes section, read as YAML."""
    return [yaml.safe_load(text) for text in blocks(section(page("instructors.md"), "### On Kubernetes"), "yaml")]


@functools.cache
def validator(api_version: str, kind: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMAS[(api_version, kind)].read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problems(manifest: dict[str, Any]) -> list[str]:
    """What Kubernetes' schema of MANIFEST's kind finds wrong in it, each as 'where: what'."""
    found = validator(manifest["apiVersion"], manifest["kind"]).iter_errors(manifest)
    return sorted(f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in found)


def test_the_docs_manifests_are_jobs_kubernetes_accepts() -> None:
    jobs = manifests()
    assert [(m["apiVersion"], m["kind"], m["metadata"]["name"]) for m in jobs] == [
        ("batch/v1", "Job", "hog-grade"), ("batch/v1", "Job", "hog-merge")]
    assert [problems(m) for m in jobs] == [[], []]


def test_the_docs_yaml_blocks_are_all_in_the_kubernetes_section() -> None:
    """Every ``yaml`` block of the README and docs/ is one of the manifests checked here."""
    assert everywhere("yaml") == len(manifests()) == 2


def container(manifest: dict[str, Any]) -> dict[str, Any]:
    return manifest["spec"]["template"]["spec"]["containers"][0]


def misspelled(manifest: dict[str, Any]) -> None:
    manifest["spec"]["completionMod"] = manifest["spec"].pop("completionMode")


def misspelled_inside(manifest: dict[str, Any]) -> None:
    container(manifest)["volumeMount"] = container(manifest).pop("volumeMounts")


def a_string_for_a_number(manifest: dict[str, Any]) -> None:
    manifest["spec"]["completions"] = "8"


def a_string_for_a_list(manifest: dict[str, Any]) -> None:
    container(manifest)["command"] = "hogkit merge /data/shard-* --out /data/grades"


@pytest.mark.parametrize(("change", "said"), [
    (misspelled, "spec: Additional properties are not allowed ('completionMod' was unexpected)"),
    (misspelled_inside, "spec.template.spec.containers.0: Additional properties are not allowed "
                        "('volumeMount' was unexpected)"),
    (a_string_for_a_number, "spec.completions: '8' is not of type 'integer', 'null'"),
    (a_string_for_a_list, "spec.template.spec.containers.0.command: 'hogkit merge /data/shard-* --out "
                          "/data/grades' is not of type 'array', 'null'"),
])
def test_a_misspelled_key_or_a_wrong_type_fails_the_check(change: Callable[[dict[str, Any]], None],
                                                          said: str) -> None:
    grade = copy.deepcopy(manifests()[0])
    change(grade)
    assert problems(grade) == [said]


def test_the_grading_job_runs_one_shard_per_completion_and_the_merge_reads_them() -> None:
    grade, merge = manifests()
    command = container(grade)["command"][-1]
    shards = re.search(r"--shard \$K/(\d+)\b", command)
    assert shards is not None and "--out /data/shard-$K" in command
    assert int(shards.group(1)) == grade["spec"]["completions"] == grade["spec"]["parallelism"]
    assert grade["spec"]["completionMode"] == "Indexed" and "JOB_COMPLETION_INDEX + 1" in command
    merged = container(merge)["command"][-1]
    assert "hogkit merge /data/shard-* --out /data/grades" in merged and "/data/class" in command
    for key in ("volumes", "restartPolicy"):
        assert merge["spec"]["template"]["spec"][key] == grade["spec"]["template"]["spec"][key]
    assert container(merge)["volumeMounts"] == container(grade)["volumeMounts"]
