"""The house drawing: graders/'s subpackages, what each holds, and which way their imports run.

    python3 benchmarks/house.py            # Mermaid (paste into the README or any Mermaid viewer)
    python3 benchmarks/house.py --text     # the same as plain text

Each box is a folder of graders/ with its modules and lines; a solid arrow is an import at a module's
top, a dotted one an import made only inside a function (or through importlib). Shipped folders (the
student bundle's, graders.authoring.bundle.SHIPPED) are marked. tests/kit/whole/test_shape.py holds the rules
the drawing shows: no arrow back up, no circle.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "graders"
sys.path.insert(0, str(ROOT))

from graders.authoring.bundle import SHIPPED  # noqa: E402


def folder_of(dotted: str, names: list[str]) -> set[str]:
    """The folders (or top-level modules) `from DOTTED import NAMES` reaches."""
    parts = dotted.split(".")[1:]
    if parts:
        return {parts[0]}
    return {n for n in names if (ENGINE / n / "__init__.py").is_file() or (ENGINE / f"{n}.py").is_file()}


def arrows(path: Path) -> tuple[set[str], set[str]]:
    """The folders PATH imports at its top, and those it imports only inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_nodes = {id(n) for n in tree.body}
    top: set[str] = set()
    lazy: set[str] = set()
    for node in ast.walk(tree):
        found: set[str] = set()
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "graders" and not node.level:
            found = folder_of(node.module or "", [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            found = {f for a in node.names if a.name.startswith("graders.") for f in folder_of(a.name, [])}
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("graders.")):
            found = folder_of(str(node.args[0].value), [])
        (top if id(node) in top_nodes else lazy).update(found)
    return top, lazy


def house() -> tuple[dict[str, tuple[int, int]], dict[tuple[str, str], bool]]:
    """Folder -> (modules, lines); (from, to) -> whether any of its imports is at a module's top."""
    sizes: dict[str, tuple[int, int]] = {}
    edges: dict[tuple[str, str], bool] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ENGINE)
        name = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        if name == "__init__":
            continue
        modules, lines = sizes.get(name, (0, 0))
        sizes[name] = (modules + (path.name != "__init__.py"), lines + len(path.read_text("utf-8").splitlines()))
        top, lazy = arrows(path)
        for target in (top | lazy) - {name, "__init__"}:
            edges[(name, target)] = edges.get((name, target), False) or target in top
    return sizes, edges


def label(name: str, sizes: dict[str, tuple[int, int]]) -> str:
    modules, lines = sizes[name]
    where = "shipped" if name in SHIPPED else "instructor"
    return f"{name}/ ({modules} modules, {lines:,} lines, {where})" if name != "cli" else f"cli.py ({lines:,} lines)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--text", action="store_true", help="plain text instead of Mermaid")
    args = parser.parse_args()
    sizes, edges = house()
    if args.text:
        for name in sorted(sizes, key=lambda n: (-len([e for e in edges if e[0] == n]), n)):
            solid = sorted(b for (a, b), top in edges.items() if a == name and top)
            dotted = sorted(b for (a, b), top in edges.items() if a == name and not top)
            print(f"{label(name, sizes)}\n    imports: {', '.join(solid) or '-'}"
                  + (f"\n    inside functions only: {', '.join(dotted)}" if dotted else ""))
        return
    print("graph TD")
    for name in sorted(sizes):
        print(f'    {name}["{label(name, sizes)}"]')
    for (a, b), top in sorted(edges.items()):
        print(f"    {a} {'-->' if top else '-.->'} {b}")
    print("    classDef shipped fill:#e6f4ea")
    print(f"    class {','.join(sorted(n for n in sizes if n in SHIPPED))} shipped")


if __name__ == "__main__":
    main()
