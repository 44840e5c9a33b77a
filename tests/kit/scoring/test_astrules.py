"""Every declared shape rule has a test that makes it fire, and passes on code that keeps it.

Most tests call :func:`graders.scoring.astrules.check_rules` on a parsed source (fast, no child process);
a few grade a whole submission to show that a broken rule costs the problem although its cases pass.
"""

from __future__ import annotations

import ast
import dataclasses
import textwrap

import pytest

from graders.core import messages
from graders.editions.edition import Edition, Rule
from graders.scoring import messages as scoring_messages
from graders.scoring.astrules import check_rule, check_rules, describe
from graders.scoring.reports import render_text

from ..conftest import grade_source, problem, replace_function

MARK = "# <- here"


# -- helpers -------------------------------------------------------------------------------------


def all_rules(edition: Edition) -> list[Rule]:
    return [r for p in edition.problems for r in p.rules]


def rule_of(edition: Edition, function: str) -> Rule:
    return next(r for r in all_rules(edition) if r.function == function)


def marked_line(source: str) -> int:
    """The number of the one line of SOURCE that carries MARK."""
    lines = [n for n, text in enumerate(source.split("\n"), start=1) if MARK in text]
    assert len(lines) == 1, f"test source should mark exactly one line, not {lines}"
    return lines[0]


def check(source: str, rule: Rule):
    return check_rules(ast.parse(source), [rule])[0]


def boar_brawl_is_correct(source: str) -> bool:
    """Whether SOURCE's boar_brawl computes Boar Brawl (run in-process: this is our own test code)."""
    namespace: dict = {}
    exec(compile(source, "<variant>", "exec"), namespace)  # trusted test source
    boar_brawl = namespace["boar_brawl"]
    for player in range(0, 110, 7):
        for opponent in range(0, 110, 3):
            expected = max(3 * abs(opponent // 10 % 10 - player % 10), 1)
            if boar_brawl(player, opponent) != expected:
                return False
    return True


@pytest.fixture(scope="module")
def boar_rule(edition: Edition) -> Rule:
    return rule_of(edition, "boar_brawl")


# -- the declared rules hold on the reference and the skeleton -----------------------------------


def test_edition_declares_the_rules_the_handout_states(edition: Edition) -> None:
    declared = {(r.kind, r.function, r.names) for r in all_rules(edition)}
    assert declared == {
        ("forbid", "boar_brawl", ("str", "lists", "square brackets")),
        ("uses", "take_turn", ("roll_dice", "boar_brawl")),
        ("uses", "sus_points", ("num_factors", "is_prime")),
        ("uses", "max_scoring_num_rolls", ("make_averaged", "roll_dice")),
    }


def test_every_rule_passes_on_the_reference(edition: Edition, reference_source: str) -> None:
    tree = ast.parse(reference_source)
    for p in edition.problems:
        for result in check_rules(tree, p.rules):
            assert result.passed, f"problem {p.number}: {result.text}: {result.detail}"
            assert result.problem == p.label
            assert result.detail == "" and result.line is None


def test_skeleton_keeps_the_forbid_rule_and_misses_the_uses_rules(edition: Edition, skeleton_source: str) -> None:
    tree = ast.parse(skeleton_source)
    results = {r.function: check_rule(tree, r) for r in all_rules(edition)}
    assert results["boar_brawl"].passed
    for function in ("take_turn", "sus_points", "max_scoring_num_rolls"):
        assert not results[function].passed
        assert f"{function} should call" in results[function].detail


@pytest.mark.parametrize(
    ("function", "text"),
    [
        ("boar_brawl", "boar_brawl uses no str, no lists, no square brackets"),
        ("take_turn", "take_turn uses roll_dice and boar_brawl"),
        ("sus_points", "sus_points uses num_factors and is_prime"),
        ("max_scoring_num_rolls", "max_scoring_num_rolls uses make_averaged and roll_dice"),
    ],
)
def test_rule_descriptions_are_in_student_words(edition: Edition, function: str, text: str) -> None:
    rule = rule_of(edition, function)
    assert describe(rule) == text
    assert check_rule(ast.parse("x = 1"), rule).text == text


# -- boar_brawl: correct but forbidden -------------------------------------------------------------

# Each expression computes the tens digit of the number {n} in a way boar_brawl must not use, and
# the words the detail must contain to name that way.
FORBIDDEN_TENS = {
    "str_and_subscript": ("int(str({n} + 100)[-2])", "uses str"),
    "str": ("int(str({n} // 10 % 10))", "uses str"),
    "f_string": ('int(f"{{{n} // 10 % 10}}")', "uses an f-string"),
    "percent": ('int("%d" % ({n} // 10 % 10))', "formats text with %"),
    "repr": ("int(repr({n} // 10 % 10))", "uses repr"),
    "format": ("int(format({n} // 10 % 10))", "uses format"),
    "list_call": ("max(list(({n} // 10 % 10,)))", "uses list"),
    "list_display": ("max([{n} // 10 % 10, 0])", "builds a list"),
    "list_comprehension": ("sum([d for d in ({n} // 10 % 10,)])", "uses a comprehension"),
    "generator_expression": ("sum(d for d in ({n} // 10 % 10,))", "uses a comprehension"),
    "subscript": ("divmod({n} // 10, 10)[1]", "uses square brackets to index or slice"),
    "slice": ("sum(divmod({n}, 10)[:1]) % 10", "uses square brackets to index or slice"),
    "format_map": ('int("{{x}}".format_map(dict(x={n} // 10 % 10)))', "uses .format_map"),
    "string_getitem": ('int("0123456789".__getitem__({n} // 10 % 10))', "calls .__getitem__ on a string"),
    "chr": ("ord(chr(48 + {n} // 10 % 10)) - 48", "uses chr"),
    "hex": ("int(hex({n} // 10 % 10), 16)", "uses hex"),
    "to_bytes": ('int((48 + {n} // 10 % 10).to_bytes(1, "big"))', "uses .to_bytes"),
    "class_of_a_string": ('int("".__class__({n} // 10 % 10))', "uses .__class__"),
    "getitem_index": ("divmod({n} // 10, 10).__getitem__(1)", "uses .__getitem__"),
}
WORD_OF = {  # which forbidden word each expression breaks (the detail explains that word)
    "str_and_subscript": "str", "str": "str", "f_string": "str", "percent": "str", "repr": "str",
    "format": "str", "list_call": "lists", "list_display": "lists", "list_comprehension": "lists",
    "generator_expression": "lists", "subscript": "square brackets", "slice": "square brackets",
    "format_map": "str", "string_getitem": "str", "chr": "str", "hex": "str", "to_bytes": "str",
    "class_of_a_string": "str", "getitem_index": "square brackets",
}
MEANING = {
    "str": "must not use str (or another way of turning a number into text",
    "lists": "must not use lists",
    "square brackets": "must not use square brackets",
}


def direct(expr: str) -> str:
    return textwrap.dedent(f"""\
        def boar_brawl(player_score, opponent_score):
            tens = {expr.format(n="opponent_score")}  {MARK}
            ones = player_score % 10
            return max(3 * abs(tens - ones), 1)
        """)


def via_helper(expr: str) -> str:
    return textwrap.dedent(f"""\
        def tens_digit(n):
            return {expr.format(n="n")}  {MARK}


        def boar_brawl(player_score, opponent_score):
            tens = tens_digit(opponent_score)
            ones = player_score % 10
            return max(3 * abs(tens - ones), 1)
        """)


def via_helper_of_helper(expr: str) -> str:
    return textwrap.dedent(f"""\
        def boar_brawl(player_score, opponent_score):
            return max(3 * abs(digit_gap(player_score, opponent_score)), 1)


        def digit_gap(player_score, opponent_score):
            return tens_digit(opponent_score) - player_score % 10


        def tens_digit(n):
            return {expr.format(n="n")}  {MARK}
        """)


@pytest.mark.parametrize("variant", sorted(FORBIDDEN_TENS))
def test_correct_but_forbidden_boar_brawl_fails(boar_rule: Rule, variant: str) -> None:
    expr, what = FORBIDDEN_TENS[variant]
    source = direct(expr)
    assert boar_brawl_is_correct(source), "the variant should compute Boar Brawl correctly"
    result = check(source, boar_rule)
    assert not result.passed
    line = marked_line(source)
    assert result.line == line
    assert result.detail.startswith(f"line {line} {what};"), result.detail
    assert MEANING[WORD_OF[variant]] in result.detail
    assert "(in " not in result.detail  # it is boar_brawl's own line


@pytest.mark.parametrize("variant", sorted(FORBIDDEN_TENS))
def test_forbidden_construct_in_a_helper_fails(boar_rule: Rule, variant: str) -> None:
    expr, what = FORBIDDEN_TENS[variant]
    source = via_helper(expr)
    assert boar_brawl_is_correct(source)
    result = check(source, boar_rule)
    assert not result.passed
    line = marked_line(source)
    assert result.line == line
    assert result.detail.startswith(f"line {line} (in tens_digit, which boar_brawl uses) {what};"), result.detail
    assert MEANING[WORD_OF[variant]] in result.detail


@pytest.mark.parametrize("variant", sorted(FORBIDDEN_TENS))
def test_a_rule_of_the_functions_own_code_leaves_its_helpers_alone(boar_rule: Rule, variant: str) -> None:
    """``helpers = false`` (a course that checked the function's own source, as Fall 2021 did):
    the construct in a helper passes, in the function itself it still fails."""
    expr, _what = FORBIDDEN_TENS[variant]
    own = dataclasses.replace(boar_rule, helpers=False)
    assert check(via_helper(expr), own).passed
    assert not check(via_helper(expr), boar_rule).passed
    assert not check(direct(expr), own).passed


@pytest.mark.parametrize("variant", sorted(FORBIDDEN_TENS))
def test_forbidden_construct_in_a_helper_of_a_helper_fails(boar_rule: Rule, variant: str) -> None:
    expr, what = FORBIDDEN_TENS[variant]
    source = via_helper_of_helper(expr)
    assert boar_brawl_is_correct(source)
    result = check(source, boar_rule)
    assert not result.passed
    line = marked_line(source)
    assert result.line == line
    assert result.detail.startswith(f"line {line} (in tens_digit, which boar_brawl uses) {what};"), result.detail


@pytest.mark.parametrize(
    ("alias", "use", "what"),
    [
        ("S = str", "int(S(opponent_score // 10 % 10))", "uses str"),
        ("S = repr", "int(S(opponent_score // 10 % 10))", "uses repr"),
        ("L = list", "max(L((opponent_score // 10 % 10,)))", "uses list"),
        ("TEXT = lambda n: str(n)", "int(TEXT(opponent_score // 10 % 10))", "uses str"),
    ],
)
def test_forbidden_construct_through_a_module_level_alias_fails(boar_rule: Rule, alias: str, use: str,
                                                                what: str) -> None:
    source = textwrap.dedent(f"""\
        GOAL = 100
        {alias}  {MARK}


        def boar_brawl(player_score, opponent_score):
            tens = {use}
            ones = player_score % 10
            return max(3 * abs(tens - ones), 1)
        """)
    assert boar_brawl_is_correct(source)
    result = check(source, boar_rule)
    assert not result.passed
    assert result.line == 2
    assert result.detail.startswith(f"line 2 {what};"), result.detail


ESCAPE_SOURCES = {
    "eval": """\
        def boar_brawl(player_score, opponent_score):
            tens = int(eval("str")(opponent_score // 10 % 10))  {MARK}
            return max(3 * abs(tens - player_score % 10), 1)
        """,
    "exec": """\
        def boar_brawl(player_score, opponent_score):
            scope = {{"o": opponent_score}}
            exec("tens = str(o // 10 % 10)", scope)  {MARK}
            return max(3 * abs(int(scope.get("tens")) - player_score % 10), 1)
        """,
    "getattr": """\
        def boar_brawl(player_score, opponent_score):
            tens = int(getattr(__builtins__, "str")(opponent_score // 10 % 10))  {MARK}
            return max(3 * abs(tens - player_score % 10), 1)
        """,
    "__import__": """\
        def boar_brawl(player_score, opponent_score):
            tens = int(__import__("builtins").str(opponent_score // 10 % 10))  {MARK}
            return max(3 * abs(tens - player_score % 10), 1)
        """,
    "globals": """\
        def as_text(n):
            return str(n)


        def boar_brawl(player_score, opponent_score):
            tens = int(globals().get("as_" + "text")(opponent_score // 10 % 10))  {MARK}
            return max(3 * abs(tens - player_score % 10), 1)
        """,
}


@pytest.mark.parametrize("escape", sorted(ESCAPE_SOURCES))
def test_escape_hatches_break_the_forbid_rule(boar_rule: Rule, escape: str) -> None:
    source = textwrap.dedent(ESCAPE_SOURCES[escape].format(MARK=MARK))
    result = check(source, boar_rule)
    assert not result.passed
    line = marked_line(source)
    assert result.line == line
    assert result.detail == f"line {line} uses {escape}, which could hide code from this check"


def test_escape_hatch_in_a_helper_breaks_the_forbid_rule(boar_rule: Rule) -> None:
    source = textwrap.dedent(f"""\
        def boar_brawl(player_score, opponent_score):
            return max(3 * abs(tens_digit(opponent_score) - player_score % 10), 1)


        def tens_digit(n):
            return eval("n // 10 % 10")  {MARK}
        """)
    assert boar_brawl_is_correct(source)
    result = check(source, boar_rule)
    assert not result.passed
    assert result.detail.startswith(f"line {marked_line(source)} (in tens_digit, which boar_brawl uses) uses eval")


# -- boar_brawl: what is allowed -----------------------------------------------------------------


def test_reference_style_boar_brawl_passes(boar_rule: Rule) -> None:
    source = textwrap.dedent("""\
        def boar_brawl(player_score, opponent_score):
            tens = opponent_score // 10 % 10
            ones = player_score % 10
            return max(3 * abs(tens - ones), 1)
        """)
    assert boar_brawl_is_correct(source)
    assert check(source, boar_rule).passed


def test_allowed_helper_passes(boar_rule: Rule) -> None:
    source = textwrap.dedent("""\
        def tens_digit(n):
            return n // 10 % 10


        def boar_brawl(player_score, opponent_score):
            return max(3 * abs(tens_digit(opponent_score) - player_score % 10), 1)
        """)
    assert boar_brawl_is_correct(source)
    assert check(source, boar_rule).passed


def test_helper_not_used_by_boar_brawl_may_use_str(boar_rule: Rule, reference_source: str) -> None:
    source = reference_source + textwrap.dedent("""\


        def describe_score(score):
            return "score: " + str(score) + f" ({[score][0]})" + "%d" % score


        def digits(n):
            return list(str(n))
        """)
    assert check(source, boar_rule).passed


def test_other_functions_reaching_boar_brawl_may_use_str(boar_rule: Rule, reference_source: str) -> None:
    source = replace_function(reference_source, "simple_update", """
        def simple_update(num_rolls, player_score, opponent_score, dice=six_sided):
            points = [take_turn(num_rolls, player_score, opponent_score, dice)]
            return int(str(player_score + points[0]))
        """)
    assert check(source, boar_rule).passed


# -- "uses" rules ----------------------------------------------------------------------------------

TAKE_TURN_LOOP = """
    def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
        if num_rolls == 0:
            return boar_brawl(player_score, opponent_score)
        total, sow_sad = 0, False
        while num_rolls > 0:
            outcome = dice()
            if outcome == 1:
                sow_sad = True
            total = total + outcome
            num_rolls = num_rolls - 1
        if sow_sad:
            return 1
        return total
    """

TAKE_TURN_INLINE_BOAR = """
    def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
        if num_rolls == 0:
            return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
        return roll_dice(num_rolls, dice)
    """


def test_take_turn_repeating_roll_dice_fails(edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "take_turn", TAKE_TURN_LOOP)
    result = check(source, rule_of(edition, "take_turn"))
    assert not result.passed
    assert result.detail == "take_turn should call roll_dice instead of repeating their work"


def test_take_turn_repeating_boar_brawl_fails(edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "take_turn", TAKE_TURN_INLINE_BOAR)
    result = check(source, rule_of(edition, "take_turn"))
    assert not result.passed
    assert result.detail == "take_turn should call boar_brawl instead of repeating their work"


def test_take_turn_repeating_both_names_both(edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "take_turn", """
        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            if num_rolls == 0:
                return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
            return 0
        """)
    result = check(source, rule_of(edition, "take_turn"))
    assert not result.passed
    assert "should call roll_dice and boar_brawl" in result.detail


def test_take_turn_calling_roll_dice_through_a_helper_passes(edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "take_turn", """
        def roll_some(num_rolls, dice):
            return roll_dice(num_rolls, dice)


        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            if num_rolls == 0:
                return boar_brawl(player_score, opponent_score)
            return roll_some(num_rolls, dice)
        """)
    assert check(source, rule_of(edition, "take_turn")).passed


def test_sus_points_without_is_prime_fails(edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "sus_points", """
        def sus_points(score):
            factors = num_factors(score)
            if factors == 3 or factors == 4:
                score += 1
                while num_factors(score) != 2:
                    score += 1
            return score
        """)
    result = check(source, rule_of(edition, "sus_points"))
    assert not result.passed
    assert result.detail == "sus_points should call is_prime instead of repeating their work"


def test_max_scoring_num_rolls_without_make_averaged_fails(edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "max_scoring_num_rolls", """
        def max_scoring_num_rolls(dice=six_sided, samples_count=1000):
            best_rolls, best_average = 1, 0
            num_rolls = 1
            while num_rolls <= 10:
                total, k = 0, 0
                while k < samples_count:
                    total += roll_dice(num_rolls, dice)
                    k += 1
                if total / samples_count > best_average:
                    best_rolls, best_average = num_rolls, total / samples_count
                num_rolls += 1
            return best_rolls
        """)
    result = check(source, rule_of(edition, "max_scoring_num_rolls"))
    assert not result.passed
    assert result.detail == "max_scoring_num_rolls should call make_averaged instead of repeating their work"


@pytest.mark.parametrize("function", ["boar_brawl", "take_turn", "sus_points", "max_scoring_num_rolls"])
def test_missing_function_is_named(edition: Edition, reference_source: str, function: str) -> None:
    source = replace_function(reference_source, function, "")
    result = check(source, rule_of(edition, function))
    assert not result.passed
    assert result.detail == f"hog.py has no function named {function}"


def test_unreadable_source_fails_every_rule(edition: Edition) -> None:
    results = check_rules(None, all_rules(edition))
    assert results and all(not r.passed and r.detail == "hog.py could not be read as Python" for r in results)


# -- known holes (engine bugs) --------------------------------------------------------------------


def test_import_alias_of_str_fails(boar_rule: Rule) -> None:
    source = textwrap.dedent("""\
        from builtins import str as S


        def boar_brawl(player_score, opponent_score):
            tens = int(S(opponent_score // 10 % 10))
            return max(3 * abs(tens - player_score % 10), 1)
        """)
    assert boar_brawl_is_correct(source)
    assert not check(source, boar_rule).passed


def test_alias_bound_inside_a_top_level_block_fails(boar_rule: Rule) -> None:
    source = textwrap.dedent("""\
        try:
            S = str
        except NameError:
            S = None


        def boar_brawl(player_score, opponent_score):
            tens = int(S(opponent_score // 10 % 10))
            return max(3 * abs(tens - player_score % 10), 1)
        """)
    assert boar_brawl_is_correct(source)
    assert not check(source, boar_rule).passed


# -- end to end: a broken rule costs the problem although its cases pass --------------------------


def test_forbidden_boar_brawl_scores_zero_though_its_cases_pass(edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "boar_brawl", direct(FORBIDDEN_TENS["str"][0]).replace(MARK, ""))
    report = grade_source(source, edition, problems=[2])
    p2 = problem(report, 2)
    assert (p2.score, p2.status) == (0, "failed")
    assert p2.cases and all(c.passed for c in p2.cases)
    broken = [r for r in p2.rules if not r.passed]
    assert len(broken) == 1
    assert broken[0].text == "boar_brawl uses no str, no lists, no square brackets"
    assert "uses str" in broken[0].detail
    assert p2.reason.startswith("boar_brawl uses no str, no lists, no square brackets: line ")


def test_take_turn_not_naming_boar_brawl_is_advice_that_costs_nothing(edition: Edition,
                                                                        reference_source: str) -> None:
    # boar_brawl is still called (so even the case that spies on the call passes), but by a lookup
    # the "uses" rule cannot see. The seed says take_turn *should* call it: advice, said, not scored.
    source = replace_function(reference_source, "take_turn", """
        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            if num_rolls == 0:
                return globals().get("boar_" + "brawl")(player_score, opponent_score)
            return roll_dice(num_rolls, dice)
        """)
    report = grade_source(source, edition, problems=[1, 2, 3])
    assert [(p.number, p.status, p.score) for p in report.problems] == [
        (1, "passed", 2), (2, "passed", 2), (3, "passed", 2)]
    p3 = problem(report, 3)
    assert p3.cases and all(c.passed for c in p3.cases)
    broken = [r for r in p3.rules if not r.passed]
    assert [(r.detail, r.required) for r in broken] == [
        ("take_turn should call boar_brawl instead of repeating their work", False)]
    text = render_text(report)
    assert ("! " + scoring_messages.LABEL_ADVICE + "take_turn uses roll_dice and boar_brawl: take_turn should call "
            "boar_brawl") in text


def test_take_turn_inlining_boar_brawl_is_advice_and_so_is_the_case_that_spies_on_it(
        edition: Edition, reference_source: str) -> None:
    source = replace_function(reference_source, "take_turn", TAKE_TURN_INLINE_BOAR)
    report = grade_source(source, edition, problems=[1, 2, 3])
    assert [(p.number, p.status, p.score) for p in report.problems] == [
        (1, "passed", 2), (2, "passed", 2), (3, "passed", 2)
    ]
    p3 = problem(report, 3)
    assert [(r.passed, r.required) for r in p3.rules] == [(False, False)]
    spied = [c for c in p3.cases if not c.passed]
    assert [(c.name, c.advice) for c in spied] == [("take_turn calls roll_dice and boar_brawl through hog",
                                                   "take_turn")]
    text = render_text(report)
    # One piece of advice, said once: the rule's line; the case that checks the same thing adds nothing.
    assert text.count("! " + scoring_messages.LABEL_ADVICE) == 1
    assert messages.advice_case(spied[0].name, spied[0].reason) not in text
    graded = len(p3.cases) - 1  # the advice case is not counted among those that decide the score
    assert f"({graded}/{graded} cases passed)" in text


def test_a_rule_declared_required_costs_the_problem(edition: Edition, reference_source: str) -> None:
    strict = dataclasses.replace(edition, problems=tuple(
        dataclasses.replace(p, rules=tuple(dataclasses.replace(r, required=True) for r in p.rules))
        for p in edition.problems))
    source = replace_function(reference_source, "take_turn", TAKE_TURN_INLINE_BOAR)
    report = grade_source(source, strict, problems=[3])
    p3 = problem(report, 3)
    assert (p3.status, p3.score) == ("failed", 0)
    assert p3.reason.startswith("take_turn uses roll_dice and boar_brawl: take_turn should call boar_brawl")
    assert [c.advice for c in p3.cases if not c.passed] == [""]  # the spy case follows the rule: required


def test_reference_earns_the_rule_problems(edition: Edition, reference_source: str) -> None:
    report = grade_source(reference_source, edition, problems=[1, 2, 3, 4])
    assert [(p.number, p.status, p.score) for p in report.problems] == [
        (1, "passed", 2), (2, "passed", 2), (3, "passed", 2), (4, "passed", 2)
    ]
    assert all(r.passed for p in report.problems for r in p.rules)


# Ways of turning the digit into text (or indexing) through a module, written as a student would.
THROUGH_MODULES = {
    "operator_getitem": ("import operator", 'int(operator.getitem("0123456789", tens))', "str", "uses operator"),
    "json_dumps": ("from json import dumps", "int(dumps(tens))", "str", "imports json"),
    "string_template": ("import string", 'int(string.Template("$x").substitute(x=tens))', "str", "uses string"),
    "io_print": ("import io", "io.StringIO().write(chr(48 + tens)) and tens", "str", "uses chr"),
    "getattr_built_name": ("pass", 'int(getattr(tens, "__st" + "r__")())', "str", "uses getattr"),
    "operator_itemgetter": ("from operator import itemgetter", "itemgetter(1)(divmod(opponent_score // 10, 10))",
                            "square brackets", "imports operator"),
}


@pytest.mark.parametrize("variant", sorted(THROUGH_MODULES))
def test_every_way_of_making_text_or_indexing_through_a_module_breaks_the_rule(boar_rule: Rule, variant: str) -> None:
    top, expr, word, what = THROUGH_MODULES[variant]
    source = textwrap.dedent(f"""\
        {top}


        def boar_brawl(player_score, opponent_score):
            tens = opponent_score // 10 % 10
            tens = {expr}
            return max(3 * abs(tens - player_score % 10), 1)
        """)
    assert boar_brawl_is_correct(source), "the variant should compute Boar Brawl correctly"
    result = check(source, boar_rule)
    assert not result.passed
    assert what in result.detail, result.detail
    # operator serves both: it makes text (operator.mod) and indexes (itemgetter); either meaning is right.
    meanings = [MEANING[w] for w in (word, "str")] + ["could hide code"]
    assert any(m in result.detail for m in meanings), result.detail


def test_the_str_rule_says_that_percent_on_numbers_is_allowed(boar_rule: Rule) -> None:
    """The intended solution uses ``% 10``: a message forbidding "%" must not read as forbidding that."""
    expr, _ = FORBIDDEN_TENS["percent"]
    result = check(direct(expr), boar_rule)
    assert not result.passed and "n % 10 on numbers is fine" in result.detail, result.detail
    assert check(direct("{n} // 10 % 10"), boar_rule).passed
