"""Same submission, same verdict: every route that grades a submission judges every case alike.

The routes are single grading (``hogkit grade PATH``), class grading at one job and at several,
the Gradescope autograder and the student's runner (``python3 ok``, which runs public cases only).
Two submissions go through each: the reference, and the reference with a realistic slip. Starter
code gets one verdict on every route too: the skeleton, and the reference with final_strategy left as
the skeleton's ``return 6``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from graders.core.records import CaseResult, CaseStatus
from graders.courses.classroom import grade_class
from graders.runner import student
from graders.scoring import messages as scoring_messages
from graders.scoring.grading import grade, stop_at_first_abort
from graders.scoring.judge import as_not_run
from graders.scoring.submissions import Submission

from ..conftest import ENDLESS_GAME_DEADLINE, grade_on_gradescope, replace_function, unlock_everything, with_deadline

SLIP = """
def boar_brawl(player_score, opponent_score):
    tens = opponent_score // 10 % 10
    ones = player_score % 10
    return 3 * abs(tens - ones)
"""


# The slip's boar_brawl can return 0, so one of Problem 05's games never ends: that case times out in
# every route, after ENDLESS_GAME_DEADLINE seconds rather than the manifest's 5.
SLIP_ENDLESS = [5]


def verdicts(problems: list[dict]) -> dict[str, tuple[bool, str]]:
    return {c["case_id"]: (c["passed"], c["status"]) for p in problems for c in p["cases"]}


def scores(problems: list[dict]) -> dict[str, int]:
    return {p["label"]: p["score"] for p in problems}


def by_route(source: str, edition, tmp_path: Path, monkeypatch, endless: list[int] | None = None
             ) -> dict[str, list[dict]]:
    """Problem records (as dicts) of SOURCE graded by every route; the problems ENDLESS (numbers),
    where the source plays games that never end, with a deadline of ENDLESS_GAME_DEADLINE in every route."""
    if endless:
        edition = with_deadline(edition, ENDLESS_GAME_DEADLINE, endless)
        loaded = student.load_student_edition  # the student's route reads the edition from their folder
        monkeypatch.setattr(student, "load_student_edition",
                            lambda folder: with_deadline(loaded(folder), ENDLESS_GAME_DEADLINE, endless))
    routes: dict[str, list[dict]] = {}
    routes["single"] = grade(Submission(Path("hog.py"), source), edition).as_dict()["problems"]
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "someone.py").write_text(source, encoding="utf-8")
    for jobs in (1, 3):
        (record,) = grade_class(folder, edition, tmp_path / f"out-{jobs}", jobs=jobs)
        routes[f"class, {jobs} jobs"] = record.to_dict()["problems"]
    routes["gradescope"] = grade_on_gradescope(source, edition, tmp_path, monkeypatch)["problems"]
    results = json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))
    assert {t["number"]: t["score"] for t in results["tests"] if "." not in t["number"]
            and t["number"] != "checkpoint"} == scores(routes["single"])
    project = tmp_path / "project"
    shutil.copytree(edition.skeleton_dir, project)
    (project / "hog.py").write_text(source, encoding="utf-8")
    unlock_everything(project)
    reports_seen = []
    real_grade = student.grade_reliably
    monkeypatch.setattr(student, "grade_reliably", lambda *a, **k: reports_seen.append(real_grade(*a, **k))
                        or reports_seen[-1])
    assert student.main(project, ["--score"]) in (0, 1)  # 1 when a case fails, as for the slips here
    routes["student"] = reports_seen[0].as_dict()["problems"]
    return routes


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("variant", ["reference", "slip in Problem 02"])
def test_every_route_gives_every_case_the_same_verdict(variant, edition, reference_source, tmp_path, monkeypatch,
                                                       capsys):
    source = reference_source if variant == "reference" else replace_function(reference_source, "boar_brawl", SLIP)
    routes = by_route(source, edition, tmp_path, monkeypatch, endless=None if variant == "reference" else SLIP_ENDLESS)
    capsys.readouterr()
    single = verdicts(routes["single"])
    assert any(not passed for passed, _ in single.values()) == (variant != "reference")
    for name, problems in routes.items():
        mine = verdicts(problems)
        if name == "student":  # public cases only: each must agree with the instructor's verdict
            assert mine and all(single[case] == verdict for case, verdict in mine.items()), name
            mine_scores, full = scores(problems), scores(routes["single"])
            assert all(mine_scores[k] == v for k, v in full.items() if v), name  # passed there: passed here
        else:
            assert mine == single, name
            assert scores(problems) == scores(routes["single"]), name


def result(case_id: str, status: str) -> CaseResult:
    return CaseResult(case_id=case_id, name=case_id, hidden=False, passed=status == "passed",
                      status=CaseStatus(status))


def test_cases_after_the_first_abort_count_as_not_run_however_they_were_shared():
    # Two children ran halves of a problem: the first half hung at its second case, the second
    # half ran to the end. One child running all of them in order would have stopped at the hang.
    outcomes = [result("a", "passed"), result("b", "timeout"), result("c", "not run"),
                result("d", "passed"), result("e", "failed")]
    kept = stop_at_first_abort(outcomes)
    assert [(c.case_id, c.status) for c in kept] == [("a", "passed"), ("b", "timeout"), ("c", "not run"),
                                                     ("d", "not run"), ("e", "not run")]
    assert stop_at_first_abort(outcomes[:1] + outcomes[3:]) == outcomes[:1] + outcomes[3:]
    assert as_not_run(outcomes[2]) is outcomes[2]


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("variant", ["skeleton", "final_strategy as the starter's"])
def test_every_route_gives_starter_code_the_same_verdict(variant, edition, reference_source, skeleton_source,
                                                         tmp_path, monkeypatch, capsys):
    """Each problem's status, score and reason are the same on every route; the skeleton scores 0
    everywhere, and a final_strategy still the starter's ``return 6`` (which passes its case) is
    starter code, with no points and no cases, wherever it is graded."""
    from ..editions.test_markers import function_node

    stub = function_node(skeleton_source, "final_strategy")
    starter = "\n".join(skeleton_source.split("\n")[stub.lineno - 1:stub.end_lineno])
    source = skeleton_source if variant == "skeleton" else replace_function(reference_source, "final_strategy",
                                                                            starter)
    routes = by_route(source, edition, tmp_path, monkeypatch)
    capsys.readouterr()
    seen = {name: {p["label"]: (p["status"], p["score"], p["reason"]) for p in problems}
            for name, problems in routes.items()}
    for name, verdict in seen.items():
        assert verdict == seen["single"], name
    twelve = {name: next(p for p in problems if p["label"] == "12") for name, problems in routes.items()}
    assert all(p["status"] == "starter code" and p["reason"] == scoring_messages.starter_code("12") and not p["cases"]
               for p in twelve.values()), twelve
    if variant == "skeleton":
        assert all(score == 0 for verdict in seen.values() for _, score, _ in verdict.values())
    else:
        assert sum(score for _, score, _ in seen["single"].values()) == edition.max_points


def markers_digest(source: str, label: str) -> str:
    from graders.editions.markers import block_copies

    return block_copies(source)[label][0]


def shared_function_problems() -> list[tuple[str, str]]:
    """(edition, label) of every problem whose function holds another problem's block too."""
    from graders.editions.edition import edition_names, load_edition

    found = []
    for name in edition_names():
        problems = load_edition(name).problems
        found += [(name, p.label) for p in problems if p.functions
                  and any(o is not p and set(o.functions) & set(p.functions) for o in problems)]
    return found


@pytest.mark.parametrize(("name", "label"), shared_function_problems())
def test_a_problem_written_inside_anothers_function_is_not_starter_code_when_that_function_is_written(
        name: str, label: str) -> None:
    """As a course's students write it: the commentary call inside play's loop, in Problem 05's
    block, and Problem 06's own block left as the skeleton gave it. Problem 06 is written."""
    from graders.editions.edition import load_edition
    from graders.editions.markers import strip_solutions, untouched_problems
    from graders.scoring.grading import still_starter

    edition = load_edition(name)
    reference = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    source = strip_solutions(reference, {p.label for p in edition.problems} - {label})  # that block alone a stub
    assert label in untouched_problems(source, {label: markers_digest(skeleton, label)})
    assert label not in still_starter(edition, source)
    assert label in still_starter(edition, skeleton)  # nothing written in that function: starter code


@pytest.mark.parametrize("name", ["boar_brawl", "more_boar", "swine_swap", "pig", "pig_tail"])
def test_the_skeleton_gets_the_same_verdict_with_and_without_hidden_cases(name):
    """What the student's runner sees of the skeleton (public cases) is what grading gives it: every
    problem the same status, none scoring, starter code where it would pass."""
    from graders.editions.edition import load_edition

    edition = load_edition(name)
    source = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    full, public = (grade(Submission(Path(edition.submission), source), edition, include_hidden=hidden)
                    for hidden in (True, False))
    assert full.total == public.total == 0
    assert [(p.label, p.status, p.score) for p in full.problems] == [(p.label, p.status, p.score)
                                                                     for p in public.problems]
    assert all(p.reason == scoring_messages.starter_code(p.label) for p in full.problems if p.status == "starter code")
