"""Every ``>>>`` example in every handout is what the edition's reference really displays."""

from __future__ import annotations

import re

import pytest

from graders.cases import Case, parse_transcript
from graders.edition import edition_names, load_edition
from graders.judge import run_case
from graders.repairs import repair
from graders.sandbox import Limits, Session, prepare_workdir

BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)


def handout_blocks(name: str) -> list[tuple[int, str]]:
    text = (load_edition(name).handout_dir / "handout.md").read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in BLOCK.finditer(text)]


@pytest.mark.parametrize("name", edition_names())
def test_handout_exists_and_covers_every_problem(name):
    edition = load_edition(name)
    text = (edition.handout_dir / "handout.md").read_text(encoding="utf-8")
    for p in edition.problems:
        part = p.label.lstrip("0") or "0"  # "05a" is presented as Problem 5a
        assert re.search(rf"Problem {part}\b", text), f"the handout never presents problem {p.label}"
    assert "python3 ok -q 01 -u" in text and "python3 ok --score" in text
    assert len(handout_blocks(name)) >= 10


@pytest.mark.parametrize("name", edition_names())
def test_handout_examples_match_the_reference(name):
    edition = load_edition(name)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    support = [edition.support_dir / f for f in edition.support]
    workdir, target = prepare_workdir(repair(source)[0], edition.submission, support)
    failures = []
    with Session(target, edition.module, workdir, Limits()) as session:
        for line, block in handout_blocks(name):
            case = Case(f"handout:{line}", 0, f"handout line {line}", False,
                        parse_transcript(block, f"handout line {line}"), edition.handout_dir, 10.0,
                        edition.setup + "\nfrom dice import *")
            result = run_case(session, case)
            if not result.passed:
                failures.append(f"line {line}: {result.transcript}\n  expected {result.expected!r}, got {result.got!r}")
    assert not failures, "\n".join(failures)
