"""Write job-batch-v1.json beside this file: Kubernetes' schema of a batch/v1 Job, strict (no key
the API does not define), standing alone. Its source is the kubernetes-validate wheel on PyPI, which
ships the JSON schemas that openapi2jsonschema makes from each Kubernetes release's OpenAPI
document: its ``kubernetes-json-schema/vVERSION-local-strict/job-batch-v1.json`` with, under
``$defs``, the definitions of that folder's ``_definitions.json`` it reaches, and its references
turned into references within the file. Nothing else is changed.

    pip download --no-deps -d /tmp/kv kubernetes-validate==1.37.0
    python3 tests/kit/courses/schemas/standalone.py /tmp/kv/kubernetes_validate-1.37.0-py3-none-any.whl 1.37.0
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from pathlib import Path

REF = re.compile(r'"\$ref": "(?:/api/_definitions\.json)?#/\$defs/([^"]+)"')


def standalone(wheel: Path, version: str) -> dict[str, object]:
    folder = f"kubernetes_validate/kubernetes-json-schema/v{version}-local-strict/"
    with zipfile.ZipFile(wheel) as z:
        job = json.loads(z.read(folder + "job-batch-v1.json"))
        definitions = json.loads(z.read(folder + "_definitions.json"))["$defs"]
    reached: dict[str, object] = {}
    waiting = REF.findall(json.dumps(job))
    while waiting:
        name = waiting.pop()
        if name not in reached:
            reached[name] = definitions[name]
            waiting += REF.findall(json.dumps(definitions[name]))
    job = json.loads(json.dumps(job).replace('"/api/_definitions.json#/$defs/', '"#/$defs/'))
    source = f"{wheel.name} (PyPI), {folder.split('/', 1)[1]}job-batch-v1.json and _definitions.json"
    return {"$comment": f"Made by standalone.py from {source}: Kubernetes {version}'s Job, strict", **job,
            "$defs": reached}


if __name__ == "__main__":
    schema = standalone(Path(sys.argv[1]), sys.argv[2])
    out = Path(__file__).with_name("job-batch-v1.json")
    out.write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n", encoding="utf-8")
