"""Generated cases: transcript templates filled in with the reference solution's own output.

Contract: a ``[[generate]]`` table in ``qNN.toml`` gives a transcript template with ``{name}``
holes and its parameter sets (see :func:`graders.editions.cases.expand_params`). Each set becomes one case
in ``qNN.generated.toml``: the reference runs every ``>>>`` line in the sandbox, like any other
code, and what it displays becomes the expected output. A reference that raises or hangs stops
generation with the template's name; it is a bug in the template, never a case.
"""

from __future__ import annotations

import time

from graders.authoring import messages as authoring_messages
from graders.authoring import tomlw
from graders.core.errors import GenerationError
from graders.editions.cases import Template, load_templates, parse_transcript, render_steps
from graders.editions.edition import Edition
from graders.sandboxing.sandbox import Session, open_session
from graders.scoring.judge import display
from graders.scoring.submissions import load_submission

REFERENCE_SECONDS = 60.0  # for each line run by the reference; a template that needs more is wrong


def fill(template: str, params: dict) -> str:
    text = template
    for key, value in params.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def generated_files(edition: Edition) -> dict[str, str]:
    """``{file name: TOML text}`` for every problem that has templates."""
    files: dict[str, str] = {}
    templates = {p.label: load_templates(edition, p.label) for p in edition.problems}
    if not any(templates.values()):
        return files
    session = open_session(load_submission(edition.solution_dir, edition).source, edition)
    try:
        for label, group in templates.items():
            if group:
                cases = [case for t in group for case in _fill_template(session, edition, t)]
                header = authoring_messages.generated_header(f"q{label}.toml")
                files[f"q{label}.generated.toml"] = tomlw.dumps({"case": cases}, header)
    finally:
        session.dispose()
    return files


def _fill_template(session: Session, edition: Edition, t: Template) -> list[dict]:
    cases = []
    for params in t.params:
        steps = parse_transcript(fill(t.transcript, params), f"{t.id} {params}")
        filled = []
        deadline = time.monotonic() + REFERENCE_SECONDS * len(steps)
        for step, reply in zip(steps, session.steps([s.source for s in steps], edition.setup, deadline),
                               strict=True):
            if reply.status != "ok":
                why = (reply.error or {}).get("message", reply.status)
                raise GenerationError(authoring_messages.template_reference_failed(t.id, t.name, params, why))
            text, _ = display(reply)
            filled.append(type(step)(step.source, text or None, step.line))
        label = ", ".join(f"{k}={v}" for k, v in params.items())
        cases.append({
            "name": f"{t.name} ({label})" if label else t.name,
            "about": t.name,
            "hidden": t.hidden,
            **dict(t.passed_on),
            "transcript": render_steps(filled) + "\n",
        })
    return cases
