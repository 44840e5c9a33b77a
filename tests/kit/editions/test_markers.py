"""Markers: the skeleton is the marked reference with every solution block replaced by its stub."""

from __future__ import annotations

import ast
import textwrap

import pytest

from graders.editions.edition import Edition
from graders.editions.markers import STUB, YOUR_CODE, MarkerError, problems_marked, strip_solutions


def block(source: str, number: int, occurrence: int = 0) -> list[str]:
    """The lines strictly between the OCCURRENCE-th pair of PROBLEM NUMBER markers in SOURCE."""
    lines = source.split("\n")
    begins = [i for i, line in enumerate(lines) if line.strip() == f"# BEGIN PROBLEM {number}"]
    start = begins[occurrence]
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == f"# END PROBLEM {number}")
    return lines[start + 1:end]


def function_node(source: str, name: str) -> ast.FunctionDef:
    return next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name)


SYNTHETIC = textwrap.dedent("""\
    def first(x):
        \"\"\"Problem 1.\"\"\"
        # BEGIN PROBLEM 1
        # STUB: return 0  # Remove this line once implemented.
        y = x + 1
        return y
        # END PROBLEM 1


    def second(x):
        if x:
            # BEGIN PROBLEM 2
            return x * 2
            # END PROBLEM 2
        return 0
    """)


# -- the reference's markers ------------------------------------------------------------------------


def test_reference_marks_problems_1_to_12(reference_source: str, edition: Edition) -> None:
    assert problems_marked(reference_source) == [f"{n:02d}" for n in range(1, 13)]
    graded = {p.label for p in edition.problems if p.functions}
    assert set(problems_marked(reference_source)) == graded


def test_stripping_the_reference_gives_the_committed_skeleton(reference_source: str, skeleton_source: str) -> None:
    assert strip_solutions(reference_source) == skeleton_source


def test_skeleton_keeps_every_marker_line(reference_source: str, skeleton_source: str) -> None:
    markers = [line for line in reference_source.split("\n") if "# BEGIN PROBLEM" in line or "# END PROBLEM" in line]
    assert [line for line in skeleton_source.split("\n") if "PROBLEM" in line and "#" in line] == markers
    assert problems_marked(skeleton_source) == [f"{n:02d}" for n in range(1, 13)]


def test_stripped_block_says_your_code_here_at_its_indentation(reference_source: str) -> None:
    skeleton = strip_solutions(reference_source)
    assert block(skeleton, 2) == ['    "*** YOUR CODE HERE ***"']
    assert all(block(skeleton, 4, k) == ['    "*** YOUR CODE HERE ***"'] for k in range(3))
    assert YOUR_CODE == '"*** YOUR CODE HERE ***"'


def test_stripped_block_follows_deeper_indentation() -> None:
    stripped = strip_solutions(SYNTHETIC)
    assert block(stripped, 2) == ['        "*** YOUR CODE HERE ***"']
    ast.parse(stripped)


def test_stub_lines_become_code(reference_source: str, skeleton_source: str) -> None:
    assert block(skeleton_source, 10) == ["    return num_rolls  # Remove this line once implemented."]
    assert block(skeleton_source, 11) == ["    return num_rolls  # Remove this line once implemented."]
    assert block(skeleton_source, 12) == ["    return 6  # Remove this line once implemented."]
    node = function_node(skeleton_source, "boar_strategy")
    last = node.body[-1]
    assert isinstance(last, ast.Return) and isinstance(last.value, ast.Name) and last.value.id == "num_rolls"
    namespace: dict = {}
    exec(compile(ast.Module([node], []), "<skeleton>", "exec"), namespace)  # the kit's skeleton
    assert namespace["boar_strategy"](0, 0) == 6
    assert namespace["boar_strategy"](50, 20, num_rolls=4) == 4


def test_stub_line_keeps_its_own_indentation() -> None:
    source = textwrap.dedent("""\
        def f(x):
            # BEGIN PROBLEM 1
            # STUB: if x:
                # STUB:return 1
            # STUB: return 2
            return 3
            # END PROBLEM 1
        """)
    stripped = strip_solutions(source)
    assert block(stripped, 1) == ["    if x:", "        return 1", "    return 2"]
    namespace: dict = {}
    exec(compile(stripped, "<stub>", "exec"), namespace)  # synthetic test source
    assert (namespace["f"](True), namespace["f"](False)) == (1, 2)


# -- keep ----------------------------------------------------------------------------------------


def test_keep_leaves_the_solution_and_drops_its_stub_lines() -> None:
    kept = strip_solutions(SYNTHETIC, keep={1})
    assert block(kept, 1) == ["    y = x + 1", "    return y"]
    assert not any(STUB.match(line) for line in kept.split("\n"))
    assert block(kept, 2) == ['        "*** YOUR CODE HERE ***"']
    namespace: dict = {}
    exec(compile(kept, "<kept>", "exec"), namespace)  # synthetic test source
    assert namespace["first"](4) == 5


def test_keep_on_the_reference(reference_source: str) -> None:
    kept = strip_solutions(reference_source, keep={1, 10})
    assert block(kept, 1) == block(reference_source, 1)
    assert block(kept, 10) == [line for line in block(reference_source, 10) if not STUB.match(line)]
    assert "return num_rolls  # Remove this line" not in "\n".join(block(kept, 10))
    assert block(kept, 2) == ['    "*** YOUR CODE HERE ***"']
    ast.parse(kept)


def test_keeping_everything_is_the_reference_without_stub_lines(reference_source: str) -> None:
    everything = strip_solutions(reference_source, keep=range(1, 13))
    assert everything == "\n".join(line for line in reference_source.split("\n") if not STUB.match(line))


# -- broken markers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "line", "words"),
    [
        ("def f():\n    # BEGIN PROBLEM 1\n    return 1\n", 2, "BEGIN PROBLEM 1 is never closed"),
        ("def f():\n    return 1\n    # END PROBLEM 1\n", 3, "END PROBLEM 1 without a matching BEGIN"),
        ("def f():\n    # BEGIN PROBLEM 1\n    # BEGIN PROBLEM 2\n    return 1\n    # END PROBLEM 2\n"
         "    # END PROBLEM 1\n", 3, "BEGIN PROBLEM 2 inside PROBLEM 1"),
        ("def f():\n    # BEGIN PROBLEM 1\n    return 1\n    # END PROBLEM 2\n", 4,
         "END PROBLEM 2 without a matching BEGIN"),
        ("x = 1\n# BEGIN PROBLEM 3\n# END PROBLEM 3\n# END PROBLEM 3\n", 4, "END PROBLEM 3 without a matching BEGIN"),
    ],
    ids=["begin-without-end", "end-without-begin", "nested-begin", "mismatched-numbers", "end-twice"],
)
def test_unbalanced_markers_raise_naming_the_line(source: str, line: int, words: str) -> None:
    with pytest.raises(MarkerError) as info:
        strip_solutions(source)
    assert str(info.value) == f"line {line}: {words}"


def test_broken_marker_inside_the_reference_is_reported(reference_source: str) -> None:
    lines = reference_source.split("\n")

    def index(marker: str) -> int:
        return next(i for i, line in enumerate(lines) if line.strip() == marker)

    without_end_5 = lines[:index("# END PROBLEM 5")] + lines[index("# END PROBLEM 5") + 1:]
    with pytest.raises(MarkerError) as info:
        strip_solutions("\n".join(without_end_5))
    # the line of BEGIN PROBLEM 6, one line earlier than in the reference since a line was removed
    assert str(info.value) == f"line {index('# BEGIN PROBLEM 6')}: BEGIN PROBLEM 6 inside PROBLEM 5"

    without_end_12 = lines[:index("# END PROBLEM 12")] + lines[index("# END PROBLEM 12") + 1:]
    with pytest.raises(MarkerError) as info:
        strip_solutions("\n".join(without_end_12))
    assert str(info.value) == f"line {index('# BEGIN PROBLEM 12') + 1}: BEGIN PROBLEM 12 is never closed"

    renumbered = list(lines)
    renumbered[index("# END PROBLEM 5")] = "    # END PROBLEM 6"
    with pytest.raises(MarkerError) as info:
        strip_solutions("\n".join(renumbered))
    assert str(info.value) == f"line {index('# END PROBLEM 5') + 1}: END PROBLEM 6 without a matching BEGIN"


# -- the skeleton is a valid starting point --------------------------------------------------------


def test_skeleton_compiles_and_imports_only_dice_and_ucb(skeleton_source: str) -> None:
    tree = ast.parse(skeleton_source)
    compile(tree, "hog.py", "exec")
    imports: set[tuple[str | None, str]] = set()
    for top in tree.body:
        owner = top.name if isinstance(top, ast.FunctionDef | ast.ClassDef) else None
        for node in ast.walk(top):
            if isinstance(node, ast.Import):
                imports.update((owner, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                imports.add((owner, node.module or ""))
    assert imports == {(None, "dice"), (None, "ucb"), ("run", "argparse")}


def test_skeleton_defines_every_graded_function(edition: Edition, skeleton_source: str) -> None:
    defined = {n.name for n in ast.parse(skeleton_source).body if isinstance(n, ast.FunctionDef)}
    for p in edition.problems:
        assert set(p.functions) <= defined, p.label


# -- starter code: what the skeleton's digests tell, in a file and in the notebook's code ----------


def notebook_code(edition: Edition) -> str:
    """The code of the bundle's handout.ipynb as a submission: every code cell, in order."""
    import json

    from graders.authoring.bundle import notebook
    from graders.scoring.submissions import as_module

    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    book = json.loads(notebook(edition, (edition.handout_dir / "handout.md").read_text(encoding="utf-8"), skeleton))
    return as_module(["".join(c["source"]) for c in book["cells"] if c["cell_type"] == "code"])


def segment(source: str, name: str) -> str:
    return ast.get_source_segment(source, function_node(source, name)) or ""


@pytest.mark.parametrize("name", ["boar_brawl", "more_boar", "swine_swap", "pig", "pig_tail"])
def test_the_untouched_notebook_and_skeleton_hold_only_starter_code(name: str) -> None:
    """The notebook gives a function holding several problems' blocks (``play``) in each of their
    cells: every copy still the stub is starter code; the reference is no problem's starter code."""
    from graders.editions.edition import load_edition
    from graders.editions.markers import starter_digests, untouched_problems

    edition = load_edition(name)
    stubs = starter_digests(edition)
    assert sorted(stubs) == sorted(p.label for p in edition.problems if p.functions)
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    assert untouched_problems(skeleton, stubs) == list(stubs)
    assert untouched_problems(notebook_code(edition), stubs) == list(stubs)
    assert untouched_problems((edition.solution_dir / edition.submission).read_text(encoding="utf-8"), stubs) == []


@pytest.mark.parametrize("name", ["more_boar", "swine_swap", "pig"])
def test_one_written_copy_of_a_repeated_function_is_work(name: str) -> None:
    """Writing a repeated function in any one of its cells is work on each problem it holds, and
    on no other problem."""
    from graders.editions.edition import load_edition
    from graders.editions.markers import block_copies, starter_digests, untouched_problems

    edition = load_edition(name)
    stubs = starter_digests(edition)
    code = notebook_code(edition)
    repeated = sorted(label for label, copies in block_copies(code).items() if len(copies) > 1)
    assert repeated, "the notebook repeats a function holding several problems' blocks"
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    reference = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    function = next(f for p in edition.problems if p.label == repeated[0] for f in p.functions)
    stub = segment(skeleton, function)
    starts = [k for k in range(len(code)) if code.startswith(stub, k)]
    assert len(starts) > 1
    for at in starts:  # one copy written, the others left as they were
        written = code[:at] + segment(reference, function) + code[at + len(stub):]
        assert written.count(stub) == len(starts) - 1
        left = set(untouched_problems(written, stubs))
        holding = {label for label in stubs if label not in left}
        assert holding and holding <= set(repeated) | {p.label for p in edition.problems if function in p.functions}
