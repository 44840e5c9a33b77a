"""The similarity report: disguises, provided code, rarity, partners, past terms, escaping, ranking."""

from __future__ import annotations

import csv
import html
import io
import random
from pathlib import Path

import pytest

from graders.cli import main
from graders.courses import fingerprints, similarity
from graders.courses import messages as courses_messages
from graders.courses.course import Roster, Student, parse_course
from graders.courses.roster import Setup
from graders.editions.edition import load_edition
from graders.scoring.submissions import discover, notebook_source

from ..similarity_corpus import DISGUISES, break_function, build, course_class, disguise, honest_source, variants

EDITION = load_edition("boar_brawl")
SKELETON = (EDITION.skeleton_dir / "hog.py").read_text(encoding="utf-8")
OWN = '''
def num_factors(n):
    found = []
    for candidate in range(n, 0, -1):
        if n % candidate == 0:
            found.append(candidate)
    return len(found) if found else 0
'''
RARE = '''
def play(strategy0, strategy1, update, score0=0, score1=0, dice=six_sided, goal=GOAL):
    turns = [(strategy0, 0), (strategy1, 1)]
    index = 0
    while score0 < goal and score1 < goal:
        strategy, seat = turns[index % 2]
        if seat == 0:
            score0 = update(strategy(score0, score1), score0, score1, dice)
        else:
            score1 = update(strategy(score1, score0), score1, score0, dice)
        index = index + 1
    return score0, score1
'''

SUS = '''
def sus_points(score):
    factors = num_factors(score)
    if factors == 3 or factors == 4:
        nxt = score + 1
        while not is_prime(nxt):
            nxt = nxt + 2 - 1
        return nxt
    return score
'''
ODD = '''
def num_factors(n):
    tally = {}
    for probe in sorted(set(range(1, n + 1)), reverse=True):
        tally[probe] = divmod(n, probe)[1] == 0
    return sum(map(int, tally.values()))
'''
ODD_ROLL = '''
def roll_dice(num_rolls, dice=six_sided):
    seen = list(map(lambda _: dice(), range(num_rolls)))
    return (sum(seen), 1)[min(seen) == 1]
'''
ROLL = '''
def roll_dice(num_rolls, dice=six_sided):
    """Roll DICE NUM_ROLLS times."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    outcomes = [dice() for _ in range(num_rolls)]
    return 1 if outcomes.count(1) else sum(outcomes) * 1
'''


def with_functions(*texts: str) -> str:
    from ..similarity_corpus import _functions, _replace

    found: dict[str, str] = {}
    for text in texts:
        found.update(_functions(text))
    return _replace(SKELETON, found)


def hashes(source: str) -> dict[str, set[int]]:
    h = similarity.holder("x", source, EDITION)
    return {unit.name: set(unit.hashes) for _, unit in h.units}


def shared(a: str, b: str) -> float:
    """How much of A's own fingerprints B holds too, over every asked function."""
    ha, hb = hashes(a), hashes(b)
    mine = sum(len(v) for v in ha.values())
    both = sum(len(v & hb.get(k, set())) for k, v in ha.items())
    return both / max(1, mine)


@pytest.mark.parametrize("how", [*DISGUISES, "all"])
def test_each_disguise_leaves_the_fingerprints_as_they_were(how: str) -> None:
    rng = random.Random(3)
    original = honest_source(rng, variants(), SKELETON)
    text, suffix = disguise(original, DISGUISES if how == "all" else (how,), rng, SKELETON)
    if suffix == ".ipynb":
        text, reason = notebook_source(text.encode(), "copy.ipynb")
        assert text is not None, reason
    assert shared(original, text) >= 0.9, how
    assert shared(original, with_functions(OWN)) < 0.2  # the measure can tell other code apart


def test_normal_form_undoes_the_disguises_in_one_function() -> None:
    plain = ("def f(n):\n    total = 0\n    for i in range(1, n + 1):\n        if n % i == 0:\n"
             "            total += 1\n    return total\n")
    disguised = ('def g(m):\n    """Counts."""\n    acc = 0  # start\n    k = 1\n    print(m)\n    unused = 4\n'
                 '    while k <= m:\n        rest = m % k\n        if rest == 0:\n            acc = acc + 1\n'
                 '        if False:\n            print("never")\n        k += 1\n    return acc\n    acc = 9\n')
    a, = fingerprints.functions_of(plain, [], {})
    b, = fingerprints.functions_of(disguised, [], {})
    assert set(a.hashes) == set(b.hashes)


def test_provided_code_never_counts(tmp_path: Path) -> None:
    for name in ("ann", "bob", "cat"):
        (tmp_path / f"{name}.py").write_text(SKELETON, encoding="utf-8")
    (tmp_path / "dan.py").write_text(with_functions(OWN), encoding="utf-8")
    report = similarity.compare(tmp_path, EDITION)
    assert report.pairs == ()
    units = similarity.holder("ann", SKELETON, EDITION).units
    assert all(unit.tokens <= 3 for _, unit in units)  # the stubs' own lines are the skeleton's: next to nothing
    assert "is_prime" not in {unit.name for _, unit in similarity.holder("dan", with_functions(OWN), EDITION).units}
    renamed = SKELETON.replace("num_rolls", "how_many")  # the given asserts, with a parameter renamed, still given
    assert all(unit.tokens <= 3 for _, unit in similarity.holder("eve", renamed, EDITION).units)


def test_a_rare_match_outranks_a_common_one(tmp_path: Path) -> None:
    for k in range(6):  # six students wrote the same num_factors: common, it counts little
        (tmp_path / f"common{k}.py").write_text(with_functions(OWN), encoding="utf-8")
    for name in ("rare1", "rare2"):  # two share an odd play and nothing else
        (tmp_path / f"{name}.py").write_text(with_functions(RARE), encoding="utf-8")
    report = similarity.compare(tmp_path, EDITION)
    assert {report.pairs[0].a, report.pairs[0].b} == {"rare1", "rare2"}
    common = [p.score for p in report.pairs if p.a.startswith("common")]
    assert all(score < report.pairs[0].score / 2 for score in common)
    assert similarity.weight(2) == 1.0 > similarity.weight(3) == 0.5 > similarity.weight(40) > 0


def roster_with_partners(*pairs: tuple[str, str]) -> Setup:
    course = parse_course('timezone = "UTC"\n[deadlines]\ndue = 2026-11-01T23:59:00\n')
    students = [Student(a, partner=b) for a, b in pairs] + [Student(b) for _, b in pairs]
    return Setup(course, Roster(tuple(students)))


def test_partners_are_never_flagged_against_each_other(tmp_path: Path) -> None:
    for name in ("ann", "bob"):
        (tmp_path / f"{name}.py").write_text(with_functions(RARE), encoding="utf-8")
    (tmp_path / "cat.py").write_text(with_functions(OWN), encoding="utf-8")
    assert [(p.a, p.b) for p in similarity.compare(tmp_path, EDITION).pairs] == [("ann", "bob")]
    setup = roster_with_partners(("ann", "bob"))
    assert similarity.compare(tmp_path, EDITION, setup=setup).pairs == ()
    assert similarity.compare(tmp_path, EDITION, setup=roster_with_partners(("ann", "cat"))).pairs != ()


def test_a_past_term_is_a_reference(tmp_path: Path) -> None:
    now, past = tmp_path / "now", tmp_path / "fall"
    now.mkdir()
    past.mkdir()
    (now / "ann.py").write_text(with_functions(RARE), encoding="utf-8")
    (now / "bob.py").write_text(with_functions(OWN), encoding="utf-8")
    for name in ("old1", "old2"):  # two past students alike: never a pair of this term's report
        (past / f"{name}.py").write_text(with_functions(OWN), encoding="utf-8")
    (past / "old3.py").write_text(with_functions(RARE), encoding="utf-8")
    report = similarity.compare(now, EDITION, [past])
    assert report.references == 3
    pairs = {(p.a, p.b, p.term_b) for p in report.pairs}
    assert ("ann", "old3", "fall") in pairs
    assert not any(p.a.startswith("old") for p in report.pairs)


def test_the_disguised_copies_rank_above_every_honest_pair(tmp_path: Path) -> None:
    corpus = build(tmp_path / "class", honest=16, seed=11, partials=())
    report = similarity.compare(corpus.folder, EDITION)
    ranks = [k for k, p in enumerate(report.pairs) if corpus.is_copy(p.a, p.b)]
    honest = [k for k, p in enumerate(report.pairs) if not corpus.is_copy(p.a, p.b)]
    assert len(ranks) == len(corpus.copies)
    assert max(ranks) < min(honest, default=len(report.pairs))


HOSTILE = '''
def num_factors(n):
    note = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
    marks = [k for k in range(1, n + 1) if n % k == 0 and note]
    return len(marks) * 1 + 0 * len(note)
'''


def test_the_report_escapes_student_code_and_neutralises_formulas(tmp_path: Path) -> None:
    for name in ("=HYPERLINK(1)", "bob"):
        (tmp_path / f"{name}.py").write_text(with_functions(HOSTILE, RARE), encoding="utf-8")
    report = similarity.compare(tmp_path, EDITION)
    page = similarity.render_html(report)
    assert "<script>" not in page and "<img" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert html.escape(similarity.NO_VERDICT) in page
    rows = list(csv.reader(io.StringIO(similarity.render_csv(report))))
    assert rows[0][0] == "rank" and "'=HYPERLINK(1)" in rows[1][1:3]


def test_hogkit_similar_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ann", "bob"):
        (folder / f"{name}.py").write_text(with_functions(RARE), encoding="utf-8")
    (folder / "times.csv").write_text("entry,time\nann,2026-11-01 10:00\nbob,2026-11-01 12:00\n", encoding="utf-8")
    assert main(["similar", str(folder), "--out", str(tmp_path / "out"), "--edition", "boar_brawl"]) == 0
    said = capsys.readouterr()
    assert "2 submissions" in said.out and "1 pair stands out" in said.out and "no grade is changed" in said.out
    assert "fingerprinted" in said.err  # progress on standard error
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out" / "similarity.csv").read_text(encoding="utf-8"))))
    assert rows[0]["first"] == "ann" and rows[0]["handed in a"].endswith("(from times.csv)")
    page = (tmp_path / "out" / "similarity.html").read_text(encoding="utf-8")
    assert "play (problem 05)" in page
    assert html.escape(courses_messages.similarity_times([("times.csv", 2)])) in page  # where the times came from
    assert main(["similar", str(tmp_path / "nowhere"), "--edition", "boar_brawl"]) == 2
    assert "nowhere" in capsys.readouterr().err


def test_class_grading_writes_the_report_and_survives_its_failure(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from graders.courses.classroom import write_similarity

    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    for name in ("ann", "bob"):
        (folder / f"{name}.py").write_text(with_functions(RARE), encoding="utf-8")
    said: list[str] = []
    write_similarity(folder, EDITION, out, None, said.append)
    assert (out / similarity.CSV_NAME).is_file() and (out / similarity.HTML_NAME).is_file() and said == []

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(similarity, "compare", broken)
    write_similarity(folder, EDITION, out, None, said.append)  # never raises: the grades stand
    assert said and said[0].startswith(courses_messages.similarity_failed("")[:30])


def test_hogkit_similar_reads_the_course_and_past_terms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, past, course = tmp_path / "class", tmp_path / "spring", tmp_path / "course"
    for where in (folder, past, course):
        where.mkdir()
    for name in ("ann", "bob", "cat"):  # ann and bob are partners; cat copied a past student
        (folder / f"{name}.py").write_text(with_functions(RARE if name != "cat" else HOSTILE), encoding="utf-8")
    (past / "old.py").write_text(with_functions(HOSTILE), encoding="utf-8")
    (course / "course.toml").write_text('timezone = "UTC"\n[deadlines]\ndue = 2026-11-01T23:59:00\n',
                                        encoding="utf-8")
    (course / "roster.csv").write_text("id,partner\nann,bob\nbob,ann\ncat,\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["similar", str(folder), "--out", str(out), "--edition", "boar_brawl", "--course", str(course),
                 "--reference-terms", str(past)]) == 0
    rows = list(csv.DictReader(io.StringIO((out / "similarity.csv").read_text(encoding="utf-8"))))
    assert [(r["student a"], r["student b"], r["past term of b"]) for r in rows] == [("cat", "old", "spring")]
    assert main(["similar", str(folder), "--edition", "boar_brawl", "--reference-terms", str(tmp_path / "no")]) == 2
    assert "no" in capsys.readouterr().err


def test_a_file_with_a_syntax_error_is_compared_function_by_function(tmp_path: Path) -> None:
    source = with_functions(RARE, HOSTILE)
    (tmp_path / "ann.py").write_text(source, encoding="utf-8")
    (tmp_path / "bob.py").write_text(break_function(source, "num_factors"), encoding="utf-8")  # a copy, one slip
    (tmp_path / "cat.py").write_text(with_functions(OWN), encoding="utf-8")
    report = similarity.compare(tmp_path, EDITION)
    assert report.unreadable == ()
    assert [(p.a, p.b) for p in report.pairs] == [("ann", "bob")]
    assert {m.b.function for m in report.pairs[0].matches} == {"play"}  # what parses is compared
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "return len(marks)" in text)
    assert report.notes == (courses_messages.similarity_syntax_error("bob", [("num_factors", line)]),)
    assert similarity.holder("ann", "def play(:\n    pass\n", EDITION).units == ()  # nothing else: nothing


def test_a_course_sized_class_is_fingerprinted_in_worker_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """From PARALLEL submissions on, fingerprints are made in worker processes: only plain data
    crosses to them, and they give what one process gives. A class of 200 with broken entries."""
    folder, out = tmp_path / "class", tmp_path / "out"
    broken = course_class(folder, 200)
    pools: list[int] = []

    class Counted(similarity.ProcessPoolExecutor):
        def __init__(self, workers: int) -> None:
            pools.append(workers)
            super().__init__(workers)

    monkeypatch.setattr(similarity, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(similarity.os, "cpu_count", lambda: 2)  # the pool, whatever this machine has
    assert main(["similar", str(folder), "--out", str(out), "--edition", "boar_brawl"]) == 0
    said = capsys.readouterr().out
    assert pools == [2] and "200 submissions" in said
    assert (out / similarity.HTML_NAME).is_file() and (out / similarity.CSV_NAME).is_file()
    nothing = {name for name, how in broken.items() if how != "syntax error"}
    page = (out / similarity.HTML_NAME).read_text(encoding="utf-8")
    assert nothing and all(name in page for name in nothing)  # said to have nothing to compare
    for name in set(broken) - nothing:  # a syntax error in play: the rest is compared, and the page says so
        assert html.escape(courses_messages.similarity_syntax_error(name, [("play", 0)]).split(" (line")[0]) in page
    from graders.courses.classroom import write_similarity

    notices: list[str] = []
    write_similarity(folder, EDITION, tmp_path / "graded", None, notices.append)  # as `hogkit grade --out` does
    assert notices == [] and (tmp_path / "graded" / similarity.HTML_NAME).is_file() and len(pools) == 2
    jobs = [(e.student, e.source, "") for e in discover(folder, "hog.py")][:similarity.PARALLEL]
    plan = similarity.provided(EDITION)
    pooled = similarity.fingerprint_all(jobs, plan, None, 0.0, workers=2)
    assert pooled == similarity.fingerprint_all(jobs, plan, None, 0.0, workers=1)


def test_the_list_is_short_and_stands_out_from_the_class(tmp_path: Path) -> None:
    """35 students: the page lists the pairs whose score stands out from the class's 595 pairs (a
    robust z-score), and says how it chose them; the CSV goes on below the line."""
    corpus = build(tmp_path / "class", honest=24, seed=7)
    report = similarity.compare(corpus.folder, EDITION)
    spread = report.spread
    assert report.students == 35 and spread is not None and spread.pairs == 595
    disguised = {frozenset((a, b)) for a, b, how in corpus.copies if not how.startswith("one function")}
    listed = {frozenset((p.a, p.b)) for p in report.listed}
    assert disguised <= listed and len(listed) <= 15  # it listed 168 of 595 pairs, best first
    assert all(p.z >= similarity.CUTOFF and p.score >= similarity.MIN_SHARE for p in report.listed)
    assert all(not p.stands_out for p in report.pairs[len(report.listed):])
    page = similarity.render_html(report)
    said = courses_messages.similarity_how_listed(len(listed), 595, spread.median, spread.scale, similarity.CUTOFF,
                                                  similarity.MIN_SHARE, similarity.SHORT)
    assert html.escape(said) in page and html.escape(courses_messages.SIMILARITY_SCORE) in page
    assert page.count("<tr>") == len(listed) + 1  # the page's table: the pairs that stand out
    rows = list(csv.DictReader(io.StringIO(similarity.render_csv(report))))
    assert [r["stands out"] for r in rows].count("yes") == len(listed) < len(rows)


def test_the_score_is_a_share_that_reads_the_same_at_any_class_size(tmp_path: Path) -> None:
    """The same pairs in a class of 16 and of 104 (students who share no fragment with them): the
    same score, a share from 0 to 1 (1: alike in all of their own code and unlike everyone else)."""
    scores = []
    for size in (12, 100):
        folder = tmp_path / f"class{size}"
        course_class(folder, size)
        for name, text in (("ann", with_functions(ODD, ODD_ROLL)), ("bob", with_functions(ODD, ODD_ROLL)),
                           ("cat", with_functions(ODD, SUS)), ("dan", with_functions(ODD))):
            (folder / f"{name}.py").write_text(text, encoding="utf-8")
        report = similarity.compare(folder, EDITION)
        assert report.spread is not None
        ours = {"ann", "bob", "cat", "dan"}
        scores.append({(p.a, p.b): p.score for p in report.pairs if {p.a, p.b} <= ours})
    small, big = scores
    assert small == big
    assert 0 < small[("cat", "dan")] < small[("ann", "bob")] < 1.0  # num_factors: four of them hold it


def test_the_skeletons_lines_are_shown_as_left_out(tmp_path: Path) -> None:
    for name in ("ann", "bob"):
        (tmp_path / f"{name}.py").write_text(with_functions(ROLL), encoding="utf-8")
    (tmp_path / "cat.py").write_text(with_functions(OWN), encoding="utf-8")
    report = similarity.compare(tmp_path, EDITION)
    (pair,) = report.pairs
    (match,) = [m for m in pair.matches if m.a.function == "roll_dice"]
    kinds = {text.strip()[:12]: kind for text, kind in match.a.lines}
    assert kinds["def roll_dic"] == kinds['"""Roll DICE'] == kinds["assert type("] == similarity.GIVEN
    assert kinds["outcomes = ["] == kinds["return 1 if "] == similarity.MATCHED
    page = similarity.render_html(report)
    assert "<span class='p'>    assert num_rolls &gt; 0" in page
    assert html.escape(courses_messages.SIMILARITY_LEGEND) in page
