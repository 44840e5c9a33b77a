"""Attack: hidden steps shown through a public value.

A hidden case's steps are the kit's secret: a student sees a public case's values (a failing one's
in the feedback and on Gradescope), never a hidden one's source. So hidden cases run in children of
their own, never in one that runs a public case, and a child keeps no step's source once its case
is over (only a case's setup, the same in every case, is compiled once). The spy below is a public
case's function that returns everything of that kind its process holds.
"""

from __future__ import annotations

import json

import pytest

from graders.core.records import ClassRecord, EntryStatus, Report
from graders.editions.cases import load_problem_cases
from graders.editions.edition import load_edition
from graders.scoring import reports

from ..conftest import grade_source, replace_function

EDITION = load_edition("boar_brawl")
REFERENCE = (EDITION.solution_dir / EDITION.submission).read_text(encoding="utf-8")

# sus_strategy (Problem 11), called by its public cases after the earlier problems' cases ran: it
# raises with every step source it finds (a compile cache's keys in any module's dictionaries, the
# string constants of case code still alive), which the failing public case then shows.
SPY = '''
def sus_strategy(score, opponent_score, threshold=11, num_rolls=6):
    import gc, sys
    seen = set()
    for module in list(sys.modules.values()):
        for value in list(getattr(module, "__dict__", {}).values()):
            if isinstance(value, dict):
                for key in list(value)[:10000]:
                    if isinstance(key, tuple) and key and isinstance(key[0], str):
                        seen.add(key[0])
                    elif isinstance(key, str) and "(" in key:
                        seen.add(key)
    for obj in gc.get_objects():
        if type(obj).__name__ == "code" and obj.co_filename == "<case>":
            seen.update(c for c in obj.co_consts if isinstance(c, str))
            seen.add(repr(obj.co_consts))
    raise ValueError(repr(sorted(seen)))
'''


def shown_to_the_student(report: Report) -> str:
    """Everything a student is shown of REPORT: Gradescope's results (every test, visible or shown
    after publishing), the feedback file and the student's own text."""
    record = ClassRecord("student", EntryStatus.GRADED, report=report)
    return (json.dumps(reports.render_gradescope(record)) + reports.render_record_markdown(record)
            + reports.render_text(report, verbose=True, student=True, show_hidden=False))


@pytest.mark.slow
def test_attack_hidden_steps_never_reach_a_public_value() -> None:
    """The spy's public case fails and shows what it found: no step of a hidden case is among it,
    though the earlier problems' hidden cases ran in the same grade (one worker, in order)."""
    hidden_only, public = set(), set()
    for p in EDITION.problems:
        for case in load_problem_cases(EDITION, p.label):
            sources = {s.source for s in case.steps if len(s.source) > 12}
            (hidden_only if case.hidden else public).update(sources)
    hidden_only -= public
    assert hidden_only
    report = grade_source(replace_function(REFERENCE, "sus_strategy", SPY), EDITION, problems=[1, 2, 3, 10, 11],
                          workers=1)
    shown = shown_to_the_student(report)
    assert next(p for p in report.problems if p.label == "11").score == 0 and "ValueError" in shown
    assert not [s for s in hidden_only if s in shown]
