"""Attacks through what staff open: a hand-in's text in every file and page the kit writes from it.

A student's name (a folder's), the messages of the errors their code raises, the answers they type at
``python3 ok -u`` and the code itself reach the terminal, JSON, CSV (grades, hand-ins, the TA report,
the leaderboard), Markdown (summaries, feedback, the TA report, Gradescope's results), the answer key,
pictures and the similarity page. Each route goes through one writer per format (graders/core/writers.py):
no cell runs as a formula, no preview loads an image or shows a link, no control or bidirectional
character reaches a screen raw, and a page runs no script.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from graders.editions.edition import Edition
from graders.scoring import reports

from ..conftest import grade_on_gradescope, grade_source, replace_function

FORMULA_ID = "=HYPERLINK(9)"  # a student id (a folder's name) a spreadsheet would run


HOSTILE_MESSAGE = ('<img src="http://beacon.invalid/b.png"> [log in](http://evil.invalid) ``</code>`` '
                   "![x](http://beacon.invalid/c.png) \u202e")


HOSTILE_ANSWERS = ['=HYPERLINK("http://evil.invalid","click")', "``</code><img src=http://beacon.invalid/a.png>``",
                   "[log in](http://evil.invalid)", "@SUM(1+1)", "tab\u202eevil"]


MATH_NAME = "$\\fo{o$"  # matplotlib's mathtext cannot parse it


def hostile_source(edition: Edition) -> str:
    """The skeleton whose first function raises an error with HOSTILE_MESSAGE (every route quotes it)."""
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    first = edition.problems[1].functions[0]
    return replace_function(skeleton, first, f"""
        def {first}(*args, **kwargs):
            raise ValueError({HOSTILE_MESSAGE!r})
        """)


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory: pytest.TempPathFactory, edition) -> dict[str, Path]:
    """A class whose only student is named like a formula, hands in code raising HOSTILE_MESSAGE and
    typed HOSTILE_ANSWERS at the unlock questions; graded plainly, with a course, and reported on."""

    from graders.cli import main as hogkit
    from graders.courses.tareport import prompt_infos
    from graders.runner import activity

    root = tmp_path_factory.mktemp("hostile")
    project = root / "class" / FORMULA_ID
    project.mkdir(parents=True)
    (project / edition.submission).write_text(hostile_source(edition), encoding="utf-8")
    for p in prompt_infos(edition)[:2]:
        activity.unlock_attempt(project, p.problem, p.question, p.prompt, HOSTILE_ANSWERS, 6, True)
    assert hogkit(["grade", str(root / "class"), "--out", str(root / "plain"), "--edition", edition.name]) == 0
    course = root / "course"
    course.mkdir()
    (course / "course.toml").write_text('timezone = "UTC"\n[deadlines]\ndue = 2024-02-07T23:59:00\n', encoding="utf-8")
    (course / "roster.csv").write_text(f'id,name,email\n"{FORMULA_ID}",+cmd|x,-2+3@uni.edu\n', encoding="utf-8")
    (root / "class" / "times.csv").write_text(f'entry,time,student\n"{FORMULA_ID}",2024-02-01 10:00:00,'
                                              f'"{FORMULA_ID}"\n', encoding="utf-8")
    shutil.copytree(root / "plain", root / "course-out")  # the records are kept: nothing graded twice
    assert hogkit(["grade", str(root / "class"), "--out", str(root / "course-out"), "--edition", edition.name,
                   "--course", str(course)]) == 0
    assert hogkit(["report", str(root / "class"), "--out", str(root / "report"), "--edition", edition.name]) == 0
    return {"plain": root / "plain", "course": root / "course-out", "report": root / "report"}


def csv_cells(path: Path) -> list[str]:
    import io

    return [cell for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"))) for cell in row]


def runs_as_formula(cell: str) -> bool:
    if cell[:1] == "-":
        try:
            float(cell)
        except ValueError:
            return True
        return False
    return cell[:1] in ("=", "+", "@", "\t", "\r")


def preview(markdown: str) -> str:
    """MARKDOWN as a CommonMark preview with tables shows it (raw HTML allowed, as in most previews)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(markdown)


# -- 1. the terminal, and the JSON a command prints ------------------------------------------------


def test_a_message_made_of_escape_sequences_is_shown_not_obeyed(edition, reference_source):
    """Attack: boar_brawl raises an error whose message clears the terminal and draws a full-marks
    report, and prints the same to standard output.

    Guarantee: control characters from student code are written out (``\\x1b``) in every report,
    never sent to the terminal as they are.
    """
    escape = "\\x1b[2J\\x1b[H  Total: 24/24\\r"
    source = replace_function(reference_source, "boar_brawl", f"""
        def boar_brawl(player_score, opponent_score):
            print("DEBUG: {escape}")
            print("{escape}")
            raise ValueError("{escape}")
        """)
    report = grade_source(source, edition, problems=[2])
    for text in (reports.render_text(report, verbose=True), reports.render_json(report)):
        assert "\x1b" not in text and "\r" not in text.replace("\r\n", "\n")
    assert "\\x1b[2J" in reports.render_text(report, verbose=True)


def test_json_and_text_output_keep_no_bidirectional_or_control_character(edition, tmp_path, capsys):
    """Attack: an exception message holding U+202E (right-to-left override), which reorders what a
    terminal or editor shows of the rest of the line; ``hogkit grade --json`` and the text report
    printed it raw.

    Guarantee: JSON output escapes every control and bidirectional character (``\\u202e``), and
    reads back to the same text; the text report writes them out.
    """
    from graders.cli import main as hogkit

    path = tmp_path / edition.submission
    path.write_text(hostile_source(edition), encoding="utf-8")
    assert hogkit(["grade", str(path), "--json", "-q", "01", "--edition", edition.name]) in (0, 1)
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\\u202e" in out
    assert "\u202e" in json.dumps(json.loads(out), ensure_ascii=False)  # the same text, escaped
    assert hogkit(["grade", str(path), "-q", "01", "--edition", edition.name]) in (0, 1)
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\\u202e" in out


# -- 2. the files a class's grading writes, and the answer key -------------------------------------


def test_no_cell_of_any_csv_runs_as_a_formula(hostile_class, edition):
    """Attack: a student named ``=HYPERLINK(9)`` (a folder's name), roster cells starting ``+`` and
    ``-``, and unlock answers typed as ``=HYPERLINK(…)`` and ``@SUM(…)`` at ``python3 ok -u``.
    They started cells of grades.csv, handins.csv, wrong-answers.csv and unlock.csv (and of the
    contest's leaderboard.csv, below): a spreadsheet opening them runs the formula.

    Guarantee: every CSV the kit writes goes through one writer, which writes such a cell with a
    leading apostrophe; the text stays readable.
    """
    files = [hostile_class["plain"] / "grades.csv", hostile_class["course"] / "handins.csv",
             hostile_class["course"] / "grades.csv", hostile_class["course"] / "gradescope-scores.csv",
             hostile_class["course"] / "canvas-scores.csv", hostile_class["report"] / "wrong-answers.csv",
             hostile_class["report"] / "unlock.csv", hostile_class["report"] / "test-runs.csv"]
    for path in files:
        cells = csv_cells(path)
        assert cells and not [c for c in cells if runs_as_formula(c)], path
    assert "'" + FORMULA_ID in csv_cells(hostile_class["plain"] / "grades.csv")
    assert "'" + HOSTILE_ANSWERS[0] in csv_cells(hostile_class["report"] / "wrong-answers.csv")


def test_no_markdown_file_loads_an_image_or_shows_a_link(hostile_class, edition):
    """Attack: an exception message holding ``<img src=…>`` (a beacon), ``[log in](…)`` (phishing),
    ``![x](…)`` and a double backtick, and unlock answers holding the same. They reached
    summary.md, the feedback and the TA report raw (the double backtick closing the code span
    around the answer), so a Markdown preview fetched the image or showed the link to staff.

    Guarantee: every Markdown file goes through one escaper: code spans fenced longer than any
    backtick run inside, ``<``, ``[``, ``!`` escaped in free text; the text itself still shows.
    """
    plain, course, report = hostile_class["plain"], hostile_class["course"], hostile_class["report"]
    feedback = [*(plain / "feedback").glob("*.md"), *(course / "feedback").glob("*.md")]
    files = [plain / "summary.md", course / "summary.md", report / "ta-report.md", *feedback]
    assert len(feedback) == 2
    for path in files:
        html = preview(path.read_text(encoding="utf-8"))
        loaded = re.findall(r'<img [^>]*src="([^"]*)"', html)
        assert set(loaded) <= {"histogram.png", "runs.png"} and "<a href" not in html and "\u202e" not in html, path
    summary = preview((plain / "summary.md").read_text(encoding="utf-8"))
    assert "&lt;img src=&quot;http://beacon.invalid/b.png&quot;&gt; [log in](http://evil.invalid)" in summary
    ta = preview((report / "ta-report.md").read_text(encoding="utf-8"))
    assert f"<code>{HOSTILE_ANSWERS[1].replace('<', '&lt;').replace('>', '&gt;')}</code>" in ta


def test_the_gradescope_results_show_no_image_or_link(hostile_class, edition):
    """Attack: the same exception message in the autograder's results.json, whose outputs Gradescope
    renders as Markdown (``output_format: md``) for the student and the staff.

    Guarantee: every Markdown output of results.json goes through the same escaper.
    """
    for out in (hostile_class["plain"], hostile_class["course"]):
        (results,) = (out / "gradescope").glob("*/results.json")
        data = json.loads(results.read_text(encoding="utf-8"))
        outputs = [data["output"]] + [t["output"] for t in data["tests"]]
        assert any("beacon.invalid" in text for text in outputs)
        for text in outputs:
            html = preview(text)
            assert "<img" not in html and "<a href" not in html and "\u202e" not in html, text


@pytest.mark.timeout(300)
def test_a_contest_entry_named_like_mathtext_or_a_formula(edition, tmp_path):
    """Attack: contest entries named ``$\\fo{o$.py`` (matplotlib parsed the tick label as mathtext and
    ``hogkit contest`` died with a ParseFatalException) and ``=HYPERLINK(9).py`` (a formula in
    leaderboard.csv).

    Guarantee: pictures draw every label as written (never as mathtext); the leaderboard goes
    through the one CSV writer.
    """
    from graders.cli import main as hogkit

    folder = tmp_path / "class"
    folder.mkdir()
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    for name in (MATH_NAME, FORMULA_ID, "plain"):
        (folder / f"{name}.py").write_text(skeleton, encoding="utf-8")
    out = tmp_path / "out"
    assert hogkit(["contest", str(folder), "--out", str(out), "--edition", edition.name]) == 0
    cells = csv_cells(out / "leaderboard.csv")
    assert MATH_NAME in cells and "'" + FORMULA_ID in cells and not [c for c in cells if runs_as_formula(c)]
    assert (out / "contest.html").stat().st_size > 0


def test_the_autograder_s_results_show_no_image_or_link(edition, tmp_path, monkeypatch):
    """Attack: the exception message of HOSTILE_MESSAGE handed in on Gradescope itself (run_autograder),
    whose results.json outputs Gradescope renders as Markdown for the student and the staff.

    Guarantee: the autograder's results.json goes through the same escaper as the class's.
    """
    grade_on_gradescope(hostile_source(edition), edition, tmp_path, monkeypatch)
    data = json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))
    outputs = [data["output"]] + [t["output"] for t in data["tests"]]
    assert any("beacon.invalid" in text for text in outputs)
    for text in outputs:
        html = preview(text)
        assert "<img" not in html and "<a href" not in html and "\u202e" not in html, text


def test_an_answer_key_transcript_holding_a_fence_stays_one_block(edition):
    """Attack (or slip): an unlock question whose transcript displays a run of backticks (a string an
    author wrote, or an included case file from elsewhere). ``hogkit answers --markdown`` fenced it
    with three backticks, so the output closed the block and the rest of the page became Markdown.

    Guarantee: a code block's fence is longer than any run of backticks inside it.
    """
    from graders.editions.cases import Question, Step

    problem = edition.problems[1]
    steps = (Step("print('```')", "```\n<img src=http://beacon.invalid/k.png>", 1),)
    question = Question("q01.unlock.x", problem.label, "a fence in the output", steps, "", (), "")
    html = preview(reports.render_answer_key(edition.title, [(problem, [question])]))
    assert html.count("<pre>") == 1 and "<img" not in html


# -- 3. the similarity page ------------------------------------------------------------------------


def test_similarity_report_shows_hostile_code_as_text_and_survives_a_monster(tmp_path: Path) -> None:
    """Attack: a student's code, shown in the TA's similarity report, carries ``</script>``, an
    ``<img onerror>`` and a formula for the CSV, and another's function nests an expression 1,500
    deep so that walking it overflows the stack. The page escapes everything and runs no script,
    the CSV starts no formula, and the monster's function is left out while everyone else is compared."""
    import ast as _ast

    from graders.courses import similarity
    from graders.editions.edition import load_edition

    edition = load_edition("boar_brawl")
    skeleton = (edition.skeleton_dir / "hog.py").read_text(encoding="utf-8")
    hostile = replace_function(skeleton, "num_factors", textwrap.dedent('''
        def num_factors(n):
            tag = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
            kept = [k for k in range(n, 0, -1) if n % k == 0 and tag]
            return len(kept) + 0 * len(tag)
        '''))
    for name in ("=cmd|' -C calc'!A0", "bob"):
        (tmp_path / f"{name}.py").write_text(hostile, encoding="utf-8")
    monster = replace_function(skeleton, "boar_strategy",
                               "def boar_strategy(score, opponent_score, threshold=11, num_rolls=6):\n"
                               "    return " + " + ".join(["1"] * max(1500, 2 * sys.getrecursionlimit())) + "\n")
    (tmp_path / "eve.py").write_text(monster, encoding="utf-8")
    report = similarity.compare(tmp_path, edition)
    page = similarity.render_html(report)
    assert "<script" not in page and "<img" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "Content-Security-Policy" in page
    assert "\n1,'=cmd|" in similarity.render_csv(report)
    assert [(p.a, p.b) for p in report.pairs] == [("=cmd|' -C calc'!A0", "bob")]
    assert _ast.parse(monster)  # the monster is Python: it would be graded, and is compared as far as it can be
    assert "boar_strategy" not in {u.name for _, u in similarity.holder("eve", monster, edition).units}
