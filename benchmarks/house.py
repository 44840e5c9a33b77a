"""The house drawing: graders/'s subpackages, what each holds, and which way their imports run.

    python3 benchmarks/house.py            # Mermaid (paste into the README or any Mermaid viewer)
    python3 benchmarks/house.py --text     # the same as plain text

Each box is a folder of graders/ with its modules and lines; a solid arrow is an import at a module's
top, a dotted one an import made only inside a function (or through importlib). Shipped folders (the
student bundle's, graders.authoring.bundle.SHIPPED) are marked. The imports are found by the shape
tests' own scanner (tests/kit/scanner.py), and tests/kit/whole/test_shape.py holds the rules the
drawing shows: no arrow back up, no circle.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graders.authoring.bundle import SHIPPED  # noqa: E402
from tests.kit import scanner  # noqa: E402


def house() -> tuple[dict[str, tuple[int, int]], dict[tuple[str, str], bool]]:
    """Folder -> (modules, lines); (from, to) -> whether any of its imports is at a module's top. The
    imports are the shape tests' own (tests/kit/scanner.py), each taken at its folder."""
    sizes: dict[str, tuple[int, int]] = {}
    edges: dict[tuple[str, str], bool] = {}
    for module in scanner.modules():
        name = module.folder
        if name == "__init__":
            continue
        modules, lines = sizes.get(name, (0, 0))
        sizes[name] = (modules + (module.stem != "__init__"), lines + len(module.path.read_text("utf-8").splitlines()))
        for reach in scanner.reaches(module.tree):
            target = reach.target.split("/")[0]
            if target not in (name, "__init__"):
                edges[(name, target)] = edges.get((name, target), False) or reach.top
    return sizes, edges


def label(name: str, sizes: dict[str, tuple[int, int]]) -> str:
    modules, lines = sizes[name]
    where = "shipped" if name in SHIPPED else "instructor"
    return f"{name}/ ({modules} modules, {lines:,} lines, {where})"


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
