"""similarity.html in headless Chromium: the ranking, the evidence side by side, and hostile code
shown as text (no script runs, no image loads, nothing is fetched)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.courses import similarity
from graders.editions.edition import load_edition

from ..conftest import shoot
from .test_similarity import HOSTILE, RARE, with_functions

EDITION = load_edition("boar_brawl")


@pytest.mark.slow  # several seconds of processor time: the full run, not the edit loop
def test_the_similarity_page_shows_the_evidence_and_runs_nothing(page: object, tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ann", "bob"):
        (folder / f"{name}.py").write_text(with_functions(HOSTILE, RARE), encoding="utf-8")
    (folder / "cat.py").write_text(with_functions(RARE), encoding="utf-8")
    (folder / "times.csv").write_text("entry,time\nann,2026-11-01 10:00\nbob,2026-11-01 12:00\n"
                                      "cat,2026-11-02 09:00\n", encoding="utf-8")
    out = tmp_path / "out"
    similarity.write_report(out, similarity.compare(folder, EDITION))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))  # type: ignore[attr-defined]
    page.goto((out / similarity.HTML_NAME).as_uri())  # type: ignore[attr-defined]
    rows = page.locator("#ranking tr")  # type: ignore[attr-defined]
    assert rows.count() >= 2
    assert "ann" in rows.nth(1).inner_text() and "bob" in rows.nth(1).inner_text()
    assert "never changes a grade" in page.locator("#no-verdict").inner_text()  # type: ignore[attr-defined]
    first = page.locator("#pair-1")  # type: ignore[attr-defined]
    assert "num_factors (problem 04)" in first.inner_text()
    assert "first: ann" in first.inner_text()
    assert first.locator(".sides pre").count() >= 2  # the two students side by side
    assert first.locator(".m").count() > 0  # matched lines marked
    assert "</script><script>alert(1)</script>" in first.inner_text()  # shown as text
    assert page.locator("img").count() == 0 and page.locator("script").count() == 0  # type: ignore[attr-defined]
    page.locator("#ranking a").first.click()  # type: ignore[attr-defined]
    assert page.url.endswith("#pair-1")  # type: ignore[attr-defined]
    shoot(page, "similarity")
    assert dialogs == []
    assert [url for url in page.outside if not url.startswith("file://")] == []  # type: ignore[attr-defined]
