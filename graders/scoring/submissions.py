"""Submissions: finding each student's code in a class folder, whatever shape it was handed in.

Contract: :func:`discover` turns a class folder into one :class:`Entry` per student, never raising
for what a student handed in. The student id is the folder or file name (without its suffix). An
entry is a folder holding the submission file (at any depth; or else exactly one ``.py``,
``.ipynb`` or ``.zip``), a bare ``.py`` file, a Jupyter notebook (its code cells are joined; no
kernel is started; IPython magics and shell lines become comments), or a ``.zip`` holding the
submission file. Anything else, two
entries with one id, a notebook that cannot be read, a zip bomb or code past :data:`MAX_SOURCE_BYTES`
(status ``too large``, saying its size and the limit) becomes an entry with a status and a reason
from :mod:`graders.scoring.messages`, and so does whatever else reading one raises. Only the
source text is read into memory: nothing a student handed in is unpacked onto the disk. Folders
are walked by :func:`walk_files`: without recursion, never through a link, to a capped depth and
number of names. :func:`declared_by_class` gives a class's edition only when its entries agree.
Whatever reading a hand-in makes a library warn (nbformat warns once per repeated cell id, and
logs a notebook it finds invalid) is kept as one note of that entry (:attr:`Entry.notes`, then its
report's), never printed on the grader's terminal. An entry's :attr:`Entry.digest` depends only on
what is inside its class folder (its path there and its content), never on where the folder sits
or how its path was typed; :func:`located` names the same entry from another place.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import itertools
import json
import lzma
import os
import re
import stat
import threading
import tokenize
import warnings
import zipfile
import zlib
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Optional

from graders.core import messages, syntax
from graders.core.errors import InputError, SubmissionError
from graders.editions.edition import Edition
from graders.scoring import messages as scoring_messages

MAX_BYTES = 1024 * 1024  # of a file read (a .py, a notebook's JSON, a zip's member)
MAX_SOURCE_BYTES = 512 * 1024  # of the code to grade, in UTF-8: a finished hog.py is 15 to 40 KB
SUFFIXES = (".py", ".ipynb", ".zip")


@dataclass(frozen=True)
class Entry:
    student: str  # the id, as it can be shown anywhere (see :func:`shown_id`)
    path: Path
    source: str | None  # the code to grade, or None when it could not be had
    status: str  # "ok", or why there is nothing to grade: missing, unsupported, duplicate, not python, link, ...
    reason: str = ""
    file_id: str = ""  # the id as output files are named (see :func:`file_id`); the id itself when it can be
    notes: tuple[str, ...] = ()  # what reading it said (a notebook's warnings), for its report
    fingerprint: str = ""  # :attr:`digest` as :func:`discover` computed it, of the entry inside its class folder

    @property
    def files_as(self) -> str:
        return self.file_id or self.student

    @property
    def digest(self) -> str:
        """What identifies this version of the submission, for skipping unchanged reruns and for
        matching a shard's record: its code, or (nothing to grade) its status and reason with its
        path named from inside its class folder, never from where the folder sits or how it was typed."""
        if self.fingerprint:
            return self.fingerprint
        return hashlib.sha256((self.source or self.status + self.reason).encode("utf-8")).hexdigest()


def located(entry: Entry, path: Path) -> Entry:
    """ENTRY as read at PATH (the same entry, its class folder elsewhere or typed otherwise): its path,
    reason and notes name PATH; its :attr:`Entry.digest` does not change."""
    before, after = shown_text(str(entry.path)), shown_text(str(path))
    return replace(entry, path=path, reason=entry.reason.replace(before, after),
                   notes=tuple(n.replace(before, after) for n in entry.notes), fingerprint=entry.digest)


def python_source(data: bytes, where: str) -> tuple[str | None, str]:
    """The text of a Python file read as Python reads it, or None and Python's reason for refusing it.

    As Python does: a byte-order mark or a PEP 263 ``coding`` line names the encoding (UTF-8
    otherwise); bytes that are not UTF-8 are tolerated inside comments (an older editor's Latin-1
    or GBK comment), where they are read as U+FFFD, and refused anywhere else.
    """
    if len(data) > MAX_BYTES:
        return None, scoring_messages.too_large(where, MAX_BYTES)
    try:
        encoding = _declared_encoding(data)
    except SyntaxError as exc:  # an unknown encoding, or a mark and a coding line that disagree
        return None, scoring_messages.python_refuses(where, exc.msg, None)
    if b"\x00" in data:
        return None, scoring_messages.python_refuses(where, _python_reason(data) or scoring_messages.NULL_BYTES, None)
    try:
        return _newlines(data.decode(encoding)), ""
    except UnicodeDecodeError as exc:
        if encoding not in ("utf-8", "utf-8-sig"):
            return None, scoring_messages.python_refuses(where, str(exc), _line_of(data, exc.start))
    text = _newlines(data.decode(encoding, "replace"))
    bad = _bad_utf8_lines(data)
    comments = _comment_columns(text)
    if comments is None:  # it does not even split into tokens: Python's own verdict decides
        reason = _python_reason(data)
        return (None, scoring_messages.python_refuses(where, reason, None)) if reason else (text, "")
    wrong = [row for row, column in sorted(bad.items()) if row not in comments or comments[row] > column]
    if not wrong:
        return text, ""
    return None, scoring_messages.python_refuses(
        where, _python_reason(data) or _decode_reason(data, wrong[0]), wrong[0])


_CODING_LINE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_BLANK_OR_COMMENT = re.compile(rb"^[ \t\f]*(?:#|\r?$)")


def _declared_encoding(data: bytes) -> str:
    """The encoding Python reads DATA in: PEP 263's coding line on one of the first two lines (the
    second only after a blank or comment line), a UTF-8 byte-order mark, else UTF-8. Raises
    SyntaxError with Python's message for an unknown encoding or a mark that disagrees with the line.

    Unlike :func:`tokenize.detect_encoding`, a first line that is not UTF-8 is no error: Python
    reads the coding line's bytes as they are.
    """
    bom = data.startswith(codecs.BOM_UTF8)
    declared = None
    for line in _LINES.split(data[3 if bom else 0:], 2)[:2]:
        match = _CODING_LINE.match(line)
        if match:
            declared = match.group(1).decode("ascii")
            break
        if not _BLANK_OR_COMMENT.match(line):
            break
    if declared is None:
        return "utf-8-sig" if bom else "utf-8"
    named = _normal_name(declared)
    try:
        codec = codecs.lookup(named)
    except LookupError:
        raise SyntaxError(f"unknown encoding: {declared}") from None
    if bom and named != "utf-8":
        raise SyntaxError(f"encoding problem: {named} with BOM")
    return "utf-8-sig" if bom else codec.name


_LINES = re.compile(rb"\r\n|\r|\n")  # Python's tokenizer ends a line at any of these


def _newlines(text: str) -> str:
    """TEXT with its line ends as Python reads them: every \\r\\n and lone \\r becomes \\n."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _normal_name(declared: str) -> str:
    """The name CPython's tokenizer gives a declared encoding (its ``get_normal_name``): the UTF-8
    and Latin-1 spellings made one, anything else as written."""
    name = declared[:12].lower().replace("_", "-")
    if name == "utf-8" or name.startswith("utf-8-"):
        return "utf-8"
    if name in ("latin-1", "iso-8859-1", "iso-latin-1") or name.startswith(("latin-1-", "iso-8859-1-", "iso-latin-1-")):
        return "iso-8859-1"
    return declared


def _python_reason(data: bytes) -> str:
    """What Python says when it refuses DATA for its bytes, or "" when it refuses it for something else.

    Decided by outcomes, not by the wording of Python's message: Python's verdict on the bytes is
    the bytes' fault when the same code as text (bytes it cannot decode replaced, null bytes left
    out) gets another verdict."""
    refused = _verdict(data)
    if refused is None:
        return ""
    try:
        text = data.decode(_declared_encoding(data), "replace")
    except (SyntaxError, LookupError):
        text = data.decode("utf-8", "replace")
    return refused if _verdict(text.replace("\x00", "")) != refused else ""


def _verdict(code: bytes | str) -> str | None:
    """Python's reason for refusing to compile CODE, or None when it compiles (or is too deep to tell)."""
    try:
        syntax.compile_code(code, "<submission>")
    except SyntaxError as exc:
        return str(exc.msg)
    except ValueError as exc:
        return str(exc)
    except (RecursionError, MemoryError):
        return None
    return None


def _line_of(data: bytes, offset: int) -> int:
    return len(_LINES.findall(data, 0, offset)) + 1


def _bad_utf8_lines(data: bytes) -> dict[int, int]:
    """{line: column of its first byte that is not UTF-8}, lines and columns as Python counts them."""
    bad = {}
    for row, line in enumerate(_LINES.split(data), start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad[row] = len(line[: exc.start].decode("utf-8"))
    return bad


def _decode_reason(data: bytes, row: int) -> str:
    try:
        _LINES.split(data)[row - 1].decode("utf-8")
    except UnicodeDecodeError as exc:
        return str(exc)
    return "not UTF-8"


def _comment_columns(text: str) -> dict[int, int] | None:
    """{line: column where its comment starts}, or None when the text cannot even be split into tokens."""
    columns = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                columns[token.start[0]] = token.start[1]
    except (tokenize.TokenError, SyntaxError):
        return None
    return columns


def _json_text(data: bytes, where: str) -> tuple[str | None, str]:
    """A notebook's text: JSON, which is UTF-8 (a byte-order mark tolerated)."""
    if len(data) > MAX_BYTES:
        return None, scoring_messages.too_large(where, MAX_BYTES)
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as exc:
        return None, messages.unreadable_notebook(where, f"it is not UTF-8 text: {exc.reason}")


# Lines of a notebook that belong to the notebook, not to hog.py: the handout's checks, and
# IPython's % magics and ! shell lines (which the kernel's history holds as get_ipython() calls).
NOT_CODE = re.compile(r"^(from\s+graders\b|import\s+graders\b|check\s*\(|get_ipython\(\))|^\s*[%!]")


KIT_CELL = "# The project's checks: leave this cell as it is (it is no part of your code)."


def as_module(cells: list[str]) -> str:
    """CELLS joined into a module, the notebook's own lines (and the whole of a cell starting with
    KIT_CELL) turned into comments."""
    lines = []
    for cell in cells:
        kit = cell.startswith(KIT_CELL)
        for line in cell.split("\n"):
            lines.append("# " + line if kit or NOT_CODE.match(line) else line)
        lines.append("")
    return "\n".join(lines) + "\n"



def notebook_source(data: bytes, where: str) -> tuple[str | None, str]:
    """The code cells of a notebook, in order, as one file; magics, shell lines and the handout's
    check cells commented out (the same lines the notebook's own checks leave out)."""
    source, why, _notes = notebook_read(data, where)
    return source, why


def notebook_read(data: bytes, where: str) -> tuple[str | None, str, tuple[str, ...]]:
    """:func:`notebook_source`, and the note (one at most) saying what nbformat warned of while reading it."""
    text, why = _json_text(data, where)
    if text is None:
        return None, why, ()
    try:
        notebook, said = read_notebook(text)
    except Exception as exc:  # nbformat raises several kinds for a broken file
        return None, messages.unreadable_notebook(where, str(exc).split("\n")[0][:200]), ()
    cells = [str(cell.get("source", "")) for cell in notebook.cells if cell.get("cell_type") == "code"]
    note = scoring_messages.notebook_warnings(where, len(said), said[0]) if said else ""
    return as_module(cells), "", (note,) if note else ()


_WARNINGS_LOCK = threading.Lock()  # warnings.catch_warnings changes the warnings module's state


def read_notebook(text: str) -> tuple[Any, list[str]]:
    """The notebook TEXT holds, as ``nbformat.reads(text, as_version=4)`` gives it, and what
    nbformat said while reading it (its warnings, one per repeated cell id, and the schema error it
    would log), each on one line: kept, never printed."""
    import nbformat

    said: list[str] = []
    with _WARNINGS_LOCK, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        notebook = nbformat.convert(nbformat.reader.reads(text), 4)
        try:
            nbformat.validate(notebook)
        except nbformat.ValidationError as exc:  # nbformat.reads logs it and goes on: so does grading
            said.append(scoring_messages.notebook_invalid(str(exc).strip().split("\n")[0][:200]))
    warned = [_RANDOM_ID.sub("", str(w.message).split("\n")[0])[:200] for w in caught
              if not issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning))]  # the library's own
    return notebook, warned + said


_RANDOM_ID = re.compile(r" Corrected to '[^']*'\.?$")  # nbformat's new id for a repeated one: random, so not kept


def saved_notebook_source(path: Path) -> str | None:
    """The code of the notebook saved at PATH as one module (read with the standard library alone,
    as a student's folder has no nbformat), or None when it cannot be read as a notebook."""
    import json

    try:
        book = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None
    if not isinstance(book, dict) or not isinstance(book.get("cells"), list):
        return None
    cells = []
    for cell in book["cells"]:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            cells.append("".join(source) if isinstance(source, list) else str(source))
    return as_module(cells)


def notebook_cells(data: bytes) -> list[str] | None:
    """The code cells of a notebook, in order (as :func:`notebook_source` joins them), or None."""
    text, _why = _json_text(data, "")
    try:
        book, _said = read_notebook(text or "")
    except Exception:  # nbformat raises several kinds for a broken file
        return None
    return [str(cell.get("source", "")) for cell in book.cells if cell.get("cell_type") == "code"]


def cell_of_line(cells: list[str], line: int) -> tuple[int, int] | None:
    """(which code cell, counting from 1, and the line in it) that LINE of the module
    :func:`as_module` makes of CELLS comes from; None for the blank lines between cells."""
    start = 1
    for number, cell in enumerate(cells, start=1):
        size = len(cell.split("\n"))
        if start <= line < start + size:
            return number, line - start + 1
        start += size + 1
    return None


MAX_ZIP_BYTES = 64 * 1024 * 1024  # what a zip handed in may weigh; a bigger one is no homework


class NotAFile(OSError):
    """A path that is a FIFO, a device, a socket or a link: never opened for its contents."""


def read_file(path: Path, most: int) -> bytes:
    """Up to MOST + 1 bytes of the regular file PATH, opened without following a link and without
    waiting on a FIFO; :class:`NotAFile` for anything but a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if path.is_symlink():
            raise NotAFile(scoring_messages.entry_is_link(shown_text(str(path)))) from exc
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotAFile(scoring_messages.entry_not_a_file(shown_text(str(path))))
        chunks, got = [], 0
        while got <= most:
            chunk = os.read(fd, min(1 << 20, most + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def zip_source(path: Path, filename: str) -> tuple[str | None, str]:
    """FILENAME from inside a zip (the shallowest one, if several), read with size checks first; a
    member that is a link is no file. A stream the decompressor refuses (``zlib.error``,
    ``LZMAError``, bz2's OSError) makes the zip unreadable, as a broken directory does."""
    data = read_file(path, MAX_ZIP_BYTES)
    if len(data) > MAX_ZIP_BYTES:
        return None, scoring_messages.too_large(shown_text(str(path)), MAX_ZIP_BYTES)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [m for m in archive.infolist() if Path(m.filename).name == filename and not m.is_dir()
                       and not stat.S_ISLNK(m.external_attr >> 16)]
            if not members:
                return None, scoring_messages.zip_without(shown_text(str(path)), filename)
            member = min(members, key=lambda m: (m.filename.count("/"), m.filename))
            if member.file_size > MAX_BYTES:
                return None, scoring_messages.too_large(f"{shown_text(str(path))}:{member.filename}", MAX_BYTES)
            with archive.open(member) as f:
                data = f.read(MAX_BYTES + 1)
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError, ValueError, EOFError, OSError, zlib.error,
            lzma.LZMAError) as exc:
        return None, scoring_messages.unreadable_zip(shown_text(str(path)), str(exc)[:200] or type(exc).__name__)
    return python_source(data, f"{shown_text(str(path))}:{shown_text(member.filename)}")


MOST_DEPTH = 32  # folders below a hand-in's top that are looked into; deeper is no homework
MOST_WALKED = 20_000  # files and folders looked at in one hand-in before the walk stops


def walk_files(folder: Path, keep_dir: Callable[[str], bool], most_depth: int = MOST_DEPTH,
               most_walked: int = MOST_WALKED) -> Iterator[Path]:
    """The regular files under FOLDER, breadth first, in name order within a folder: never through
    a link, into no folder KEEP_DIR(name) refuses, at most MOST_DEPTH folders down and MOST_WALKED
    names in all. Iterative (no recursion limit to reach); a folder that cannot be listed is skipped."""
    todo = deque([(folder, 0)])
    walked = 0
    while todo and walked < most_walked:
        here, depth = todo.popleft()
        try:
            with os.scandir(here) as listing:  # never more names than the walk may still look at
                names = sorted(itertools.islice(listing, most_walked - walked), key=lambda e: e.name)
        except OSError:
            continue
        for item in names:
            walked += 1
            try:
                if item.is_dir(follow_symlinks=False):
                    if depth < most_depth and keep_dir(item.name):
                        todo.append((Path(item.path), depth + 1))
                elif item.is_file(follow_symlinks=False):
                    yield Path(item.path)
            except OSError:
                continue


def _plain_dir(name: str) -> bool:
    return not name.startswith((".", "__"))


def find_in_folder(folder: Path, filename: str) -> Path | None:
    """The submission inside FOLDER: FILENAME (the shallowest, if it is in subfolders too), or else
    the only .py, .ipynb or .zip file there is; None when there is no such single file. Links are
    never followed, so nothing outside the folder is ever taken for the student's."""
    found = [p for p in walk_files(folder, _plain_dir) if p.suffix in SUFFIXES and _plain_dir(p.name)]
    found.sort()
    named = [p for p in found if p.name == filename]
    if named:
        return min(named, key=lambda p: (len(p.parts), str(p)))
    return found[0] if len(found) == 1 else None


def read_entry(path: Path, filename: str) -> tuple[str | None, str, str]:
    """(source, status, reason) for one thing in a class folder (or a path given on the command line).
    Never raises for what was handed in: whatever reading it raises is that entry's reason."""
    return read_entry_noted(path, filename)[:3]


Read = tuple[Optional[str], str, str, tuple[str, ...]]  # (source, status, reason, notes)


def read_entry_noted(path: Path, filename: str) -> Read:
    """:func:`read_entry`, and the notes reading it gave (what a notebook's reading warned of)."""
    try:
        return _read_entry(path, filename)
    except Exception as exc:  # a hand-in's oddity is its own row, never the end of the run
        detail = str(exc).split("\n")[0][:200]
        return None, "unreadable", scoring_messages.unreadable_entry(shown_text(str(path)), shown_text(
            f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__)), ()


def _read_entry(path: Path, filename: str) -> Read:
    if path.is_symlink():
        return None, "link", scoring_messages.entry_is_link(shown_text(str(path))), ()
    if path.is_dir():
        target = find_in_folder(path, filename)
        if target is None:
            return None, "missing", scoring_messages.no_hog_in_folder(shown_text(str(path)), filename), ()
        return _read_entry(target, filename)
    where = shown_text(str(path))
    if path.suffix not in SUFFIXES:
        return None, "unsupported", scoring_messages.unsupported_entry(where), ()
    try:
        if path.suffix == ".zip":
            source, why = zip_source(path, filename)
            return _sized((source, "ok", "", ()) if source is not None else (None, "unreadable", why, ()), where)
        data = read_file(path, MAX_BYTES)
    except NotAFile as exc:
        return None, "not a file", str(exc), ()
    except OSError as exc:
        return None, "unreadable", scoring_messages.unreadable_entry(where, exc.strerror or str(exc)), ()
    if len(data) > MAX_BYTES:
        return None, "too large", scoring_messages.too_large(where, MAX_BYTES), ()
    if path.suffix == ".ipynb":
        source, why, notes = notebook_read(data, where)
        return _sized((source, "ok", "", notes) if source is not None else (None, "unreadable", why, ()), where)
    source, why = python_source(data, where)
    return _sized((source, "ok", "", ()) if source is not None else (None, "not python", why, ()), where)


def _sized(read: Read, where: str) -> Read:
    """READ, unless its code is past :data:`MAX_SOURCE_BYTES`: then an entry that is too large, saying
    how large against the limit (the code itself is dropped: nothing analyses it)."""
    source = read[0]
    size = len(source.encode("utf-8", "surrogatepass")) if source is not None else 0
    if size > MAX_SOURCE_BYTES:
        return None, "too large", scoring_messages.source_too_large(where, size, MAX_SOURCE_BYTES), ()
    return read


# -- ids: what a student is called, in a row and in a file name ------------------------------------

MOST_ID_BYTES = 100  # well under any file system's 255, with room for ".json" and the like


def shown_text(text: str) -> str:
    """TEXT as it can be written to any file or terminal: undecodable bytes of a file name as U+FFFD,
    control characters written out."""
    return messages.printable(os.fsencode(text).decode("utf-8", "replace"), keep=" ")


def file_id(student: str, original: str) -> str:
    """The id as output files are named: STUDENT itself when it is short and plain, else its start
    and a digest of ORIGINAL (the name as found), so two ids never share a file."""
    plain = student == original and len(student.encode("utf-8")) <= MOST_ID_BYTES and "\\" not in student
    if plain and not student.startswith(".") and "/" not in student:
        return student
    digest = hashlib.sha256(os.fsencode(original)).hexdigest()[:10]
    start = student.encode("utf-8")[:MOST_ID_BYTES - 11].decode("utf-8", "ignore")
    return f"{start}-{digest}"


MOST_MANIFEST_BYTES = 64 * 1024  # a student's tests/edition.json is a few hundred bytes


def declared_by_class(folder: Path) -> str | None:
    """The edition a class folder's entries declare (each project folder in its own
    ``tests/edition.json``), or None when none declares one. Taken from the class only when every
    declaration agrees, and, for an edition other than the default, when every entry declares it;
    otherwise an :class:`InputError` says in one line which entries disagree (``--edition`` decides).
    Manifests are read as hand-ins are: never through a link, never waiting on a FIFO; one that
    cannot be read declares nothing."""
    from graders.editions.edition import DEFAULT_EDITION

    by_edition: dict[str, list[str]] = {}
    silent: list[str] = []
    for entry in class_entries(folder) if folder.is_dir() else []:
        name = folder_declares(entry) if entry.is_dir() and not entry.is_symlink() else None
        if name is None:
            silent.append(shown_text(entry.name))
        else:
            by_edition.setdefault(name, []).append(shown_text(entry.name))
    if not by_edition:
        return None
    agreed = next(iter(by_edition)) if len(by_edition) == 1 else None
    if agreed is not None and (agreed == DEFAULT_EDITION or not silent):
        return agreed
    said: dict[str | None, list[str]] = dict(sorted(by_edition.items()))
    if agreed is not None:
        said[None] = silent
    raise InputError(scoring_messages.class_editions_disagree(said))


def class_entries(folder: Path) -> list[Path]:
    """What :func:`discover` would take for entries in FOLDER: hidden names, plain files that are no
    submission, links and the kit's own output folders left out."""
    ignored = set(not_submissions(folder))
    return sorted(p for p in folder.iterdir() if _plain_dir(p.name) and p.name not in ignored
                  and not p.is_symlink() and not is_output_folder(p))


def folder_declares(folder: Path) -> str | None:
    """The edition the shallowest ``tests/edition.json`` (or ``tests/edition.toml``) under FOLDER
    names, or None when there is none or it cannot be read as a table naming one."""
    markers = [p for p in walk_files(folder, _plain_dir) if p.parent.name == "tests"
               and p.name in ("edition.json", "edition.toml")]
    if not markers:
        return None
    marker = min(markers, key=lambda m: (len(m.parts), m.suffix != ".json", str(m)))
    try:
        data = read_file(marker, MOST_MANIFEST_BYTES)
        if len(data) > MOST_MANIFEST_BYTES:
            return None
        if marker.suffix == ".json":
            table = json.loads(data.decode("utf-8-sig"))
        else:
            import tomllib  # novm: read on the instructor's side only (Python 3.11 or newer)

            table = tomllib.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    name = table.get("name") if isinstance(table, dict) else None
    return shown_text(name) if isinstance(name, str) and name else None


OUTPUT_MARKS = ("grades.csv", "leaderboard.csv")  # what the kit's class and contest outputs hold


def is_output_folder(path: Path) -> bool:
    """Whether PATH is an output folder of the kit's (from an earlier run with another --out), never
    a student's submission."""
    return not path.is_symlink() and path.is_dir() and any((path / mark).is_file() for mark in OUTPUT_MARKS)


def not_submissions(folder: Path) -> list[str]:
    """The names of the plain files in FOLDER that cannot be a submission (a README.txt, a PDF):
    listed as skipped, never graded as a student called README."""
    return sorted(p.name for p in folder.iterdir()
                  if not p.name.startswith((".", "__")) and not p.is_symlink() and p.is_file()
                  and p.suffix not in SUFFIXES)


def _same(path: Path, resolved: Path) -> bool:
    """Whether PATH leads to RESOLVED; a link that loops leads nowhere."""
    try:
        return path.resolve() == resolved
    except (OSError, RuntimeError):
        return False


def discover(folder: Path, filename: str, skip: Path | None = None) -> list[Entry]:
    """Every student's entry in FOLDER, in name order; hidden files and folders, and SKIP (an output
    folder inside the class folder), are left out. A link, a FIFO or a device is an entry with its
    reason; it is never opened. Two names that are written the same way (a line break, and the same
    name with the break written out) are two students, each shown as its output files are named.
    Each entry's :attr:`Entry.digest` is of the entry as named from inside FOLDER."""
    ignored = set(not_submissions(folder))
    skipped = skip.resolve() if skip is not None else None
    candidates = sorted(p for p in folder.iterdir()
                        if not p.name.startswith((".", "__")) and (skipped is None or not _same(p, skipped))
                        and p.name not in ignored and not is_output_folder(p))
    ids: dict[str, list[Path]] = {}
    for p in candidates:  # a file's id is its name without the suffix, even a link's or a FIFO's
        as_file = p.is_symlink() or not p.is_dir()
        ids.setdefault(p.stem if as_file and (p.suffix in SUFFIXES or p.is_file()) else p.name, []).append(p)
    entries = []
    written = Counter(shown_text(original) for original in ids)
    for original, paths in sorted(ids.items()):
        student = shown_text(original)
        files_as = file_id(student, original)
        if written[student] > 1:  # two names written alike ("a\nb" and "a\\x0ab"): each its own student
            student = files_as
        if len(paths) > 1:
            names = ", ".join(shown_text(p.name) for p in paths)
            entries += [Entry(student, p, None, "duplicate", scoring_messages.duplicate_student(
                student, names), files_as)
                        for p in paths]
            continue
        source, status, reason, notes = read_entry_noted(paths[0], filename)
        entry = Entry(student, paths[0], source, status, reason, files_as, notes)
        inside = replace(located(entry, Path(paths[0].name)), fingerprint="")  # named from inside the class folder
        entries.append(replace(entry, fingerprint=inside.digest))
    return entries


@dataclass(frozen=True)
class Submission:
    path: Path  # what the user named
    source: str
    notes: tuple[str, ...] = ()  # what reading it said (see :attr:`Entry.notes`): its report's first notes


def load_submission(path: Path, edition: Edition) -> Submission:
    """Read PATH (a folder holding the submission file, the file itself, a notebook or a zip) or
    say clearly why not, with the same reading rules as a class folder's entries."""
    if not path.exists():
        raise SubmissionError(messages.no_such_path(str(path)))
    if path.is_dir() and not (path / edition.submission).is_file():
        raise SubmissionError(scoring_messages.no_hog_in_folder(str(path), edition.submission))
    if path.is_file() and path.suffix not in SUFFIXES:
        raise SubmissionError(scoring_messages.not_python(str(path), scoring_messages.not_a_python_name()))
    source, _status, reason, notes = read_entry_noted(path, edition.submission)
    if source is None:
        raise SubmissionError(reason)
    return Submission(path, source, notes)
