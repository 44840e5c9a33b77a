"""Mutation testing (graders.authoring.mutants, ``hogkit mutants``): every operator fires, mutants stay inside
the code a problem owns, ids survive reformatting, equivalent records are read strictly and found
stale, the renderers are pure; and, in the sandbox, a small fixed sample of each edition's mutants
is killed by its own problem's cases while every recorded equivalent really survives them."""

from __future__ import annotations

import ast
import dataclasses
import difflib
import json
import re

import pytest

from graders.authoring import messages as authoring_messages
from graders.authoring import mutants, mutations
from graders.cli import main
from graders.cli import messages as cli_messages
from graders.editions.cases import load_problem_cases
from graders.editions.edition import EditionError, Problem, edition_names, load_edition
from graders.editions.markers import problems_marked
from graders.games import pictures

SYNTHETIC = '''def helper(x):
    return x + 1


def other(x):
    return x * 2


def outside(a):
    # BEGIN PROBLEM 1
    return a + 1
    # END PROBLEM 1


def f(a, b):
    """A docstring, never mutated."""
    c = a - 1  # before the markers: never mutated
    # BEGIN PROBLEM 1
    total = a + b * 2
    if a < b and not c:
        total -= 1
    while total > b:
        total = total - 1
    pick = total if a else b
    return helper(max(a, pick))
    # END PROBLEM 1
'''
PROBLEM = Problem(1, "01", "f", 1, 2, ("f",), (), (), 5.0)

# One mutant each operator must make of SYNTHETIC, by id.
EXPECTED = {
    "delete": "01 f: delete: total -= 1",
    "arithmetic": "01 f: arithmetic: total = a - b * 2",
    "comparison": "01 f: comparison: if a <= b and (not c):",
    "bound": "01 f: bound: while total > b + 1:",
    "constant": "01 f: constant: total = a + b * 3",
    "boolean": "01 f: boolean: if a < b or not c:",
    "condition": "01 f: condition: while not total > b:",
    "argument": "01 f: argument: return helper(max(pick, a))",
    "return": "01 f: return: return helper(max(a, pick)) + 1",
    "helper": "01 f: helper: return other(max(a, pick))",
}


def changed_lines(before: str, after: str) -> set[int]:
    """The lines (from 1) of BEFORE that AFTER changes."""
    lines = set()
    matcher = difflib.SequenceMatcher(a=before.split("\n"), b=after.split("\n"), autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag != "equal":
            lines.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    return lines


# -- the generator -------------------------------------------------------------------------------


def test_every_operator_fires():
    made = mutations.generate(SYNTHETIC, [PROBLEM], "synthetic.py")
    assert {m.operator for m in made} == set(mutations.OPERATORS)
    ids = {m.id for m in made}
    for operator, ident in EXPECTED.items():
        assert ident in ids, (operator, sorted(ids))
    assert "01 f: helper: return helper(min(a, pick))" in ids  # the builtin's twin
    assert "01 f: condition: if True:" in ids  # a condition removed
    assert not any(m.after == "while True:" for m in made)  # a loop is never made endless on purpose


def test_mutants_stay_inside_the_problems_marked_code():
    made = mutations.generate(SYNTHETIC, [PROBLEM], "synthetic.py")
    lines = SYNTHETIC.split("\n")
    begin = next(k for k, line in enumerate(lines, 1) if "BEGIN PROBLEM 1" in line and k > 15)
    end = next(k for k, line in enumerate(lines, 1) if "END PROBLEM 1" in line and k > begin)
    assert made
    for m in made:
        assert m.function == "f" and m.problem == "01" and m.graded_with == ("01",)
        assert changed_lines(SYNTHETIC, m.source) <= set(range(begin + 1, end)), m.id
    # A block in a function its problem does not name, and code outside the markers, are left alone.
    assert not any("outside" in m.function or "c = a" in m.before for m in made)


PARTS = '''def g(a):
    # BEGIN PROBLEM 5a
    b = a + 1
    # END PROBLEM 5a
    # BEGIN PROBLEM 5b
    return b * 2
    # END PROBLEM 5b
'''


def test_a_problems_parts_are_known_by_their_labels():
    parts = [Problem(5, "05a", "g", 1, 1, ("g",), (), (), 5.0), Problem(5, "05b", "g", 1, 1, ("g",), (), (), 5.0)]
    assert [(b.label, b.begin, b.end) for b in mutations.marked_blocks(PARTS)] == [("05a", 2, 4), ("05b", 5, 7)]
    made = mutations.generate(PARTS, parts, "parts.py")
    assert {m.problem for m in made} == {"05a", "05b"}
    assert all(m.graded_with == ("05a", "05b") for m in made)  # both parts name g: both judge its mutants
    assert "05a g: arithmetic: b = a - 1" in {m.id for m in made}
    assert "05b g: constant: return b * 3" in {m.id for m in made}
    assert [m.id for m in mutants.measured_by("05b", made)] == [m.id for m in made if m.problem == "05b"]


@pytest.mark.slow
@pytest.mark.parametrize("name", edition_names())
def test_every_editions_mutants_lie_in_their_problems_blocks_and_functions(name):
    edition = load_edition(name)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    blocks = mutations.marked_blocks(source)
    made = mutations.generate(source, edition.problems, edition.submission)
    assert made, "an edition with marked code has mutants"
    assert len({m.id for m in made}) == len(made), "ids must be unique"
    for m in made:
        problem = edition.problem(m.problem)
        assert m.function.split(".")[0] in problem.functions, m.id
        assert m.problem in m.graded_with
        assert m.id.startswith(f"{m.problem} {m.function}: "), m.id
        inside = {line for b in blocks if b.label == m.problem for line in range(b.begin + 1, b.end)}
        assert changed_lines(source, m.source) <= inside, m.id
    # Every scored problem with marked code of its own has mutants.
    own = {m.problem for m in made}
    for p in edition.problems:
        if p.points and p.functions and p.label in problems_marked(source) and p.label not in own:
            assert mutants.measured_by(p.label, made), p.label


def test_generation_is_deterministic():
    edition = load_edition("boar_brawl")
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    first = mutations.generate(source, edition.problems, edition.submission)
    second = mutations.generate(source, edition.problems, edition.submission)
    assert [m.id for m in first] == [m.id for m in second]
    assert [m.source for m in first] == [m.source for m in second]


def test_ids_survive_reformatting():
    edition = load_edition("boar_brawl")
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    reformatted = "# A comment moves every line down.\n\n\n" + source
    reformatted = reformatted.replace("    return total\n", "    return (total)\n")
    reformatted = reformatted.replace("tens = opponent_score // 10 % 10", "tens = (opponent_score//10) % 10")
    reformatted = re.sub(r"(\n    def \w+\(.*\):\n)", r"\1\n", reformatted)  # a blank line after inner defs
    assert reformatted != source
    before = mutations.generate(source, edition.problems, edition.submission)
    after = mutations.generate(reformatted, edition.problems, edition.submission)
    assert [m.id for m in after] == [m.id for m in before]
    assert all(a.line != b.line for a, b in zip(after, before, strict=True))


def test_a_long_statement_is_cut_in_its_id_with_a_digest():
    edition = load_edition("boar_brawl")
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    made = mutations.generate(source, edition.problems, edition.submission)
    table = [m for m in made
             if m.function == "final_strategy" and m.operator == "delete" and "best_against" in m.before]
    assert table and len(table[0].id) < 220 and re.search(r"… [0-9a-f]{10}$", table[0].id)


def test_a_problem_without_marked_code_of_its_own_is_measured_on_its_functions_mutants():
    edition = load_edition("more_boar")  # Problem 06 extends play, whose code is in 05's block
    made = mutants.edition_mutants(edition)
    shared = [p for p in edition.problems if p.functions and not [m for m in made if m.problem == p.label]
              and mutants.measured_by(p.label, made)]
    if not shared:
        pytest.skip("no edition has a problem written inside another's block")
    for p in shared:
        borrowed = mutants.measured_by(p.label, made)
        assert all(p.label in m.graded_with and set(m.function.split(".")[:1]) <= set(p.functions)
                   for m in borrowed)
        assert mutants.edition_mutants(edition, [p.label]) == tuple(borrowed)
        assert mutants.edition_mutants(edition, [p.number]) == tuple(borrowed)  # a number names it too


def broken_changes(node, site, functions):
    """An operator gone wrong: its replacement is not Python."""
    if isinstance(node, ast.Constant):
        yield "constant", node, ast.Name("x y", ast.Load())


def test_a_mutant_python_cannot_compile_is_the_kits_failure(monkeypatch, capsys):
    monkeypatch.setattr(mutations, "expression_changes", broken_changes)
    with pytest.raises(mutations.MutantError) as info:
        mutations.generate(SYNTHETIC, [PROBLEM], "synthetic.py")
    assert str(info.value).startswith("01 f: constant: total = a + b * x y")
    assert main(["mutants", "-q", "01"]) == 3  # the kit failed, before any mutant was graded
    err = capsys.readouterr().err
    assert "hogkit: 01 roll_dice: constant: total, sow_sad = (x y, False)" in err and "Traceback" in err


def test_a_mutant_is_compiled_under_its_editions_own_file_name(monkeypatch):
    """Pig's mutants are pig.py's code: a mutant Python cannot compile names pig.py, not hog.py."""
    monkeypatch.setattr(mutations, "expression_changes", broken_changes)
    pig = load_edition("pig")
    source = (pig.solution_dir / pig.submission).read_text(encoding="utf-8")
    with pytest.raises(mutations.MutantError) as info:
        mutations.generate(source, pig.problems, pig.submission)
    assert "(pig.py, line" in str(info.value) and "hog.py" not in str(info.value)


# -- equivalent records --------------------------------------------------------------------------


def edition_with_record(tmp_path, text: str | None):
    edition = load_edition("boar_brawl")
    if text is not None:
        (tmp_path / mutants.RECORD_FILE).write_text(text, encoding="utf-8")
    return dataclasses.replace(edition, suite_dir=tmp_path)


def test_no_record_file_means_no_equivalents(tmp_path):
    assert mutants.load_equivalents(edition_with_record(tmp_path, None)) == ()


@pytest.mark.parametrize(("text", "needle"), [
    ('[[equivalent]]\nid = "x"\n', "[[equivalent]] #1: missing key 'reason'"),
    ('[[equivalent]]\nid = "x"\nreason = " "\n', "[[equivalent]] #1 reason: should be text that is not empty"),
    ('[[equivalent]]\nid = 3\nreason = "r"\n', "[[equivalent]] #1 id: should be text, not 3"),
    ('[[equivalent]]\nid = "x"\nreason = "r"\nwhy = "w"\n', "[[equivalent]] #1: unknown key 'why' (known keys: id, "
                                                               "problem, reason)"),
    ('[[equivalent]]\nid = "x"\nreason = "r"\n[[equivalent]]\nid = "x"\nreason = "s"\n', "'x' is listed twice"),
    ('[[equivalent]]\nid = "x"\nreason = "r"\n[[equivalent]]\nid = "x"\nreason = "s"\nproblem = "5b"\n',
     "'x' is listed twice"),  # a record for all problems already holds for 05b
    ('[[equivalent]]\nid = "x"\nreason = "r"\nproblem = ""\n', "[[equivalent]] #1 problem: should be text that is "
                                                                   "not empty"),
    ('[[equivalents]]\nid = "x"\nreason = "r"\n', "unknown key 'equivalents' (known keys: equivalent)"),
    ('equivalent = "x"\n', "equivalent: should be a list, not 'x'"),
    ('[[equivalent]\n', "damaged"),
])
def test_a_broken_record_is_refused_naming_the_file(tmp_path, text, needle):
    with pytest.raises(EditionError) as info:
        mutants.load_equivalents(edition_with_record(tmp_path, text))
    assert needle in str(info.value) and str(tmp_path / mutants.RECORD_FILE) in str(info.value)


def test_a_record_may_be_limited_to_one_problem(tmp_path):
    text = ('[[equivalent]]\nid = "x"\nreason = "r"\nproblem = "5b"\n\n'
            '[[equivalent]]\nid = "x"\nreason = "s"\nproblem = "06"\n')
    assert mutants.load_equivalents(edition_with_record(tmp_path, text)) == (
        mutants.Equivalent("x", "r", "05b"), mutants.Equivalent("x", "s", "06"))


SHARED = mutations.Mutant("05a play: delete: say = say(score0, score1)", "05a", "play", "delete", 140,
                        "say = say(score0, score1)", "pass", ("05a", "05b", "06"))


def shared_outcome(b_status: str, reason: str = "commentary is 06's") -> mutants.Outcome:
    verdicts = (mutants.Verdict("05a", mutants.SURVIVED), mutants.Verdict("05b", b_status),
                mutants.Verdict("06", mutants.KILLED, "say after every turn"))
    return mutants.Outcome(SHARED, mutants.KILLED, "say after every turn", "06", verdicts,
                           equivalent_for=(("05b", reason),) if reason else ())


def test_a_record_limited_to_one_problem_leaves_the_mutant_out_of_that_problem_alone():
    edition = load_edition("swine_swap")
    outcomes = [shared_outcome(mutants.SURVIVED)]
    by_label = {t.label: t for t in mutants.tallies(edition, outcomes, {"05a", "05b", "06"})}
    assert (by_label["05b"].counted, by_label["05b"].equivalent) == (0, 1)  # left out of 05b's count
    assert (by_label["05a"].killed, by_label["05a"].equivalent) == (1, 0)  # still counted where it lives
    assert (by_label["06"].killed, by_label["06"].equivalent) == (1, 0)
    unrecorded = {t.label: t for t in mutants.tallies(edition, [shared_outcome(mutants.SURVIVED, "")], {"05b"})}
    assert (unrecorded["05b"].survived, unrecorded["05b"].equivalent) == (1, 0)
    report = dataclasses.replace(fake_report(), outcomes=tuple(outcomes))
    assert report.wrongly_equivalent == ()
    text = mutants.render_markdown(report)
    assert f"`{SHARED.id}` ({authoring_messages.mutant_equivalent_for('05b')}): commentary is 06's" in text
    assert json.loads(mutants.render_json(report))["mutants"][0]["equivalent_for"] == [
        {"problem": "05b", "reason": "commentary is 06's"}]
    # A record limited to 05b is wrong when 05b's own cases tell the mutant apart.
    wrong = dataclasses.replace(report, outcomes=(shared_outcome(mutants.KILLED),))
    assert [o.mutant.id for o in wrong.wrongly_equivalent] == [SHARED.id]


def test_a_record_limited_to_a_problem_that_does_not_share_the_mutant_is_stale(tmp_path):
    real = next(m for m in mutants.edition_mutants(load_edition("boar_brawl")) if m.problem == "02").id
    text = f'[[equivalent]]\nid = "{real}"\nreason = "r"\nproblem = "03"\n'
    report = mutants.run(edition_with_record(tmp_path, text), mutants=[], jobs=1)
    assert [(e.id, e.problem) for e in report.stale] == [(real, "03")]


def test_a_record_that_matches_no_mutant_is_stale(tmp_path):
    real = mutants.edition_mutants(load_edition("boar_brawl"))[0].id
    text = f'[[equivalent]]\nid = "{real}"\nreason = "kept"\n\n[[equivalent]]\nid = "gone: x"\nreason = "old"\n'
    report = mutants.run(edition_with_record(tmp_path, text), mutants=[], jobs=1)  # nothing graded
    assert [e.id for e in report.stale] == ["gone: x"]
    assert report.outcomes == ()


@pytest.mark.parametrize("name", edition_names())
def test_every_editions_records_match_mutants(name):
    edition = load_edition(name)
    ids = {m.id for m in mutants.edition_mutants(edition)}
    stale = [e.id for e in mutants.load_equivalents(edition) if e.id not in ids]
    assert stale == [], f"stale records in {mutants.record_path(edition)}: {stale}"


# -- rendering -----------------------------------------------------------------------------------


def fake_mutant(ident: str, problem: str = "02") -> mutations.Mutant:
    return mutations.Mutant(ident, problem, "boar_brawl", "constant", 47, "ones = x % 10", "ones = x % 11", (problem,))


def fake_report() -> mutants.MutationReport:
    survivor = mutants.Outcome(fake_mutant("02 boar_brawl: constant: ones = x % 11"), mutants.SURVIVED)
    killed = mutants.Outcome(fake_mutant("02 boar_brawl: constant: ones = x % 9"), mutants.KILLED, "worked examples",
                             "02")
    equivalent = mutants.Outcome(fake_mutant("02 boar_brawl: argument: max(1, y)"), mutants.SURVIVED,
                                 equivalent="max is symmetric")
    wrong = mutants.Outcome(fake_mutant("02 boar_brawl: delete: ones = x % 10"), mutants.KILLED, "the | case", "02",
                            equivalent="thought harmless")
    failed = mutants.Outcome(fake_mutant("02 boar_brawl: delete: tens = 3"), mutants.KIT_ERROR,
                             detail="OSError: full")
    tally = mutants.Tally("02", "boar_brawl", 2, 5, killed=1, timed_out=0, survived=1, equivalent=2, kit_errors=1)
    optional = mutants.Tally("12", "final_strategy", 0, 3, killed=1, timed_out=0, survived=2, equivalent=0,
                             kit_errors=0)
    return mutants.MutationReport("boar_brawl", "Hog", (tally, optional), (survivor, killed, equivalent, wrong, failed),
                                  (mutants.Equivalent("gone: x", "old"),), 12.0, 2, "isolation: test",
                                  "tests/editions/boar_brawl/mutants.toml")


def test_tally_counts_and_threshold():
    report = fake_report()
    two, twelve = report.tallies
    assert two.counted == 2 and two.score == 0.5 and not two.strong()
    assert twelve.score == pytest.approx(1 / 3) and not twelve.scored
    assert report.weak == (two,)  # an unscored problem is never held to the threshold
    assert [o.mutant.id for o in report.wrongly_equivalent] == ["02 boar_brawl: delete: ones = x % 10"]
    empty = dataclasses.replace(two, killed=0, survived=0)
    assert empty.score is None and empty.strong()


def test_markdown_report_lists_everything_apart():
    text = mutants.render_markdown(fake_report())
    assert "# Mutation testing of Hog (boar_brawl)" in text
    assert "| 02 boar_brawl | 5 | 1 | 0 | 1 | 2 | 50.0% (1/2) |" in text
    assert "| 12 final_strategy, no points (not counted) |" in text
    assert "Problem 02 detects fewer than 98%" in text
    survivors = text.split("## Survivors")[1].split("##")[0]
    assert "`02 boar_brawl: constant: ones = x % 11`" in survivors and "became `ones = x % 11`" in survivors
    assert "`02 boar_brawl: argument: max(1, y)`: max is symmetric" in text
    assert "yet a case tells them apart" in text and "the \\| case" in text
    assert "Stale records in tests/editions/boar_brawl/mutants.toml" in text and "`gone: x`: old" in text
    assert "failed to grade 1 mutant" in text and "OSError: full" in text
    assert "<details><summary>02 boar_brawl: 1</summary>" in text
    assert "- `02 boar_brawl: constant: ones = x % 9`: killed, 02 worked examples" in text
    assert "How to read this" in text


def test_json_and_text_reports():
    report = fake_report()
    data = json.loads(mutants.render_json(report))
    assert data["strong"] is False and data["edition"] == "boar_brawl"
    assert data["problems"][0]["score"] == 0.5 and data["problems"][0]["label"] == "02"
    assert data["mutants"][1]["killer"] == "worked examples" and data["mutants"][1]["killer_problem"] == "02"
    assert data["mutants"][0]["problem"] == "02" and data["mutants"][0]["graded_with"] == ["02"]
    assert data["stale"][0]["id"] == "gone: x"
    text = mutants.render_text(report)
    assert "02 boar_brawl" in text and "50.0% (1/2)" in text
    assert "  02 boar_brawl: constant: ones = x % 11" in text  # the survivor, by id
    assert "gone: x" in text and "Run the same command again" in text


def test_the_chart_is_a_picture_with_its_title():
    report = fake_report()
    svg = mutants.chart(report, "svg").decode("utf-8")
    assert svg.lstrip().startswith("<?xml") and "Mutants of Hog, by problem" in svg and "survived" in svg
    assert mutants.chart(report, "png").startswith(b"\x89PNG")
    raw = pictures.mutant_bars("t", ["01"], {"a": [1], "b": [2]}, ("x", "y"), marked="b", fmt="svg")
    assert b"<svg" in raw


# -- the command ---------------------------------------------------------------------------------


def test_the_command_writes_its_report(tmp_path, capsys):
    out = tmp_path / "report"
    code = main(["mutants", "-q", "06", "--jobs", "2", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    assert "06 always_roll" in printed and "100.0%" in printed and "Every scored problem" in printed
    data = json.loads((out / "mutants.json").read_text(encoding="utf-8"))
    assert [p["label"] for p in data["problems"]] == ["06"] and data["mutants"]
    assert all(m["status"] == "killed" and m["killer_problem"] == "06" for m in data["mutants"])
    assert "| 06 always_roll |" in (out / "mutants.md").read_text(encoding="utf-8")
    assert (out / "mutants.svg").read_bytes().lstrip().startswith(b"<?xml")


@pytest.mark.parametrize("bad", ["0", "-2", "two"])
def test_jobs_is_refused_by_the_option_parser(bad, capsys):
    with pytest.raises(SystemExit) as ended:
        main(["mutants", "--jobs", bad])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert cli_messages.jobs_expected(bad) in err and "usage: hogkit mutants" in err


# -- in the sandbox: a fixed sample is killed, and recorded equivalents survive --------------------

# A few mutants of each edition (of which the first cases added after measuring the suites caught
# some), each of which its own problem's cases must kill. Kept small: it runs on every CI run.
SAMPLE = {
    "pig": [
        "01 roll: condition: if not outcome == 1:",
        "02 take_turn: constant: turn_total, over = (1, False)",
        "05 describe_action: condition: if True:",
        "07 make_roll_until_strategy.strategy.tactic: delete: if turn_total < turn_goal:",
        "08 play: constant: score, opponent_score = (1, 0)",
    ],
    "boar_brawl": [
        "03 take_turn: argument: return boar_brawl(opponent_score, player_score)",
        "04 sus_points: boolean: if factors == 3 and factors == 4:",
        "05 play: bound: while score0 < goal - 1 and score1 < goal:",
        "07 is_always_roll: comparison: while score <= goal:",
        "07 is_always_roll: constant: first = strategy(0, 1)",
    ],
    "more_boar": [
        "02 piggy_points: constant: return abs(tens - ones) + 5",
        "04 more_boar: boolean: return smallest(player_score) < smallest(opponent_score) or largest(player_score) > "
        "largest(opponent_score)",
        "07 announce_highest.say: comparison: if gain >= running_high:",
        "05 play: argument: again = more_boar(score1, score0)",
    ],
    "picky_piggy": [
        "02 picky_piggy: constant: return 10 ** place // 7 % 11",
        "04 hog_pile: return: return player_score + 1",
        "05 play: delete: score1 += hog_pile(score1, score0)",
        "07 announce_highest.say: argument: print(gain, str(who) + '!', \"point(s)! That's a record gain for Player\")",
        "11 hog_pile_strategy: argument: return picky_piggy_strategy(score, opponent_score, num_rolls, cutoff)",
    ],
    "swine_swap": [
        "02 free_bacon: constant: alternating = alternating + sign * (cube % 11)",
        "04 is_swap: constant: while excitement >= 9:",
        "05a play: argument: num_rolls = strategy0(score1, score0)",
        "07 announce_highest.say: bound: if gain > previous_high + 1:",
        "11 swap_strategy: comparison: if new_score <= opponent_score:",
    ],
    "pig_tail": [
        "02 tail_points: constant: tens = opponent_score // 10 % 11",
        "04 next_perfect_square: constant: d += 2",
        "05 play: bound: while score0 < goal - 1 and score1 < goal:",
        "07 is_always_roll: constant: first = strategy(0, 1)",
        "11 square_strategy: helper: if simple_update(0, score, opponent_score) - score >= threshold:",
    ],
}


def test_every_edition_has_a_sample():
    assert sorted(SAMPLE) == sorted(edition_names()), "a new edition adds a few of its mutants to SAMPLE"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SAMPLE))
def test_a_fixed_sample_of_mutants_is_killed_by_its_own_problems_cases(name):
    edition = load_edition(name)
    by_id = {m.id: m for m in mutants.edition_mutants(edition)}
    missing = [i for i in SAMPLE[name] if i not in by_id]
    assert not missing, f"the sample names mutants the generator no longer makes: {missing}"
    report = mutants.run(edition, mutants=[by_id[i] for i in SAMPLE[name]], jobs=2)
    for outcome in report.outcomes:
        assert outcome.status == mutants.KILLED, (outcome.mutant.id, outcome.status)
        assert outcome.killer_problem == outcome.mutant.problem and outcome.killer, outcome.mutant.id


@pytest.mark.slow
@pytest.mark.parametrize("name", edition_names())
def test_recorded_equivalents_survive_every_case(name):
    edition = load_edition(name)
    recorded = mutants.load_equivalents(edition)
    chosen = [m for m in mutants.edition_mutants(edition) if m.id in {e.id for e in recorded}]
    report = mutants.run(edition, mutants=chosen, jobs=2)
    everywhere = {e.id for e in recorded if not e.problem}
    wrong = [(o.mutant.id, o.killer) for o in report.outcomes
             if o.mutant.id in everywhere and o.status != mutants.SURVIVED]
    # A record limited to one problem: that problem's cases alone must let the mutant through.
    wrong += [(o.mutant.id, label) for o in report.outcomes for label, _ in o.equivalent_for
              if o.status_for(label) != mutants.SURVIVED]
    assert wrong == [], "recorded as equivalent, yet a case tells them apart"
    assert not report.wrongly_equivalent


@pytest.mark.parametrize(("name", "mutant_id"), [
    ("boar_brawl", "05 play: comparison: while score0 <= goal and score1 < goal:"),  # (most cases pass)
    ("pig", "03 take_turn_test: comparison: assert take_turn(tactic, make_test_die(4, 6, 1)) != 10, "
            "'rolling 4, 6, 1 should score 10'"),  # (a test run beside the reference and its wrong versions)
])
def test_a_mutants_hidden_cases_run_the_reference_in_its_own_child_with_the_same_verdicts(monkeypatch, name,
                                                                                         mutant_id):
    """A mutant is the kit's own code, never a student's: its hidden cases run the reference's
    functions of the other problems in its own child, and a test of the student's runs beside the
    reference's version itself (no kit's child, no call crossing a link); every case gets the
    verdict a student's hand-in of the same code gets through the link."""
    from graders.editions import onefunction
    from graders.sandboxing import sandbox

    from ..conftest import grade_source

    edition = load_edition(name)
    mutant = next(m for m in mutants.edition_mutants(edition) if m.id == mutant_id)
    started: list[object] = []
    real = sandbox.Session._kit_session
    monkeypatch.setattr(sandbox.Session, "_kit_session", lambda self, deadline: (started.append(self),
                                                                                    real(self, deadline))[1])
    trusted = grade_source(mutant.source, edition, problems=list(mutant.graded_with), workers=1, trusted=True)
    assert started == []
    linked = grade_source(mutant.source, edition, problems=list(mutant.graded_with), workers=1)
    assert started  # (the same code as a student's: the kit's child answers the other problems' calls)

    def verdicts(report):
        return [(p.label, p.status, [(c.case_id, c.passed) for c in p.cases]) for p in report.problems]

    assert verdicts(trusted) == verdicts(linked)
    assert any(c.passed for p in trusted.problems for c in p.cases)
    assert any(not c.passed for p in trusted.problems for c in p.cases)
    if name != "boar_brawl":
        return
    source = onefunction.hidden_contexts(mutant.source, ast.parse(mutant.source), set(), edition,
                                         {"05": [c for c in load_problem_cases(edition, "05") if c.hidden]},
                                         trusted=True)
    assert source and all(kit is None and "# The reference's functions for what this case does not test." in text
                          and "__hogkit_call__" not in text for _, text, kit in source)
