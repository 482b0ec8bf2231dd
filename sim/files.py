"""Reading the files a user gives: any file that cannot be read as what was expected is one line.

Every command reads its input files through here (a study, a ``@patch.toml``, a Duo board or number
table, game records, a baseline, a golden file, an agreement table, a manifest), so a missing file,
a folder, a binary or non-UTF-8 file, a truncated JSON document or a TOML syntax error all end the
same way: a ``FileError`` (a ``UserError``: exit 2) naming the file, what is wrong with it and what
was expected, e.g.::

    games.bin is a binary file, not UTF-8 text: expected game records, one JSON object a line

``what`` names what the caller expected ("a study file (TOML, see studies/)"); ``fix`` is how to
get a good one, when there is more to say than "give another file".

A leaf beside ``sim.errors``: imports nothing else of the project, so every package may use it.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sim.errors import UserError

BINARY_SNIFF = 8192  # a NUL byte in the first 8 KB: a binary file (what `file` and git do)


class FileError(UserError):
    """A file that cannot be read as what was expected; the message names the file."""


def _line(path: Path, problem: str, what: str, fix: str) -> FileError:
    return FileError(f"{path} {problem}: expected {what}" + (f"; {fix}" if fix else ""))


def read_bytes(path: str | Path, what: str, fix: str = "") -> bytes:
    """The file's bytes; ``FileError`` if it is missing, a folder, or cannot be read."""
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        where = p.parent if str(p.parent) not in ("", ".") else Path(".")
        missing = "does not exist" if where.is_dir() else f"does not exist (no folder {where})"
        raise _line(p, missing, what, fix) from None
    except IsADirectoryError:
        raise _line(p, "is a folder", what, fix or "give the path of a file") from None
    except NotADirectoryError:
        raise _line(p, "is not a path to a file (a part of it is a file, not a folder)", what, fix) from None
    except PermissionError:
        raise _line(p, "cannot be read (permission denied)", what, fix) from None
    except OSError as exc:
        raise _line(p, f"cannot be read ({exc.strerror or exc})", what, fix) from None


def decode(data: bytes, path: str | Path, what: str, fix: str = "") -> str:
    """``data`` as UTF-8 text (a byte-order mark is dropped); ``FileError`` for binary or other encodings."""
    p = Path(path)
    if b"\0" in data[:BINARY_SNIFF]:
        raise _line(p, "is a binary file, not UTF-8 text", what, fix)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _line(
            p,
            f"is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})",
            what,
            fix or "save it as UTF-8",
        ) from None


def read_text(path: str | Path, what: str, fix: str = "", empty_ok: bool = False) -> str:
    """The file as UTF-8 text; ``FileError`` if it cannot be read, is not text, or (unless ``empty_ok``) is
    empty."""
    text = decode(read_bytes(path, what, fix), path, what, fix)
    if not empty_ok and not text.strip():
        raise _line(Path(path), "is empty", what, fix)
    return text


def parse_toml(text: str, path: str | Path, what: str, fix: str = "") -> dict[str, Any]:
    """``text`` (read from ``path``) as TOML; ``FileError`` with the parser's line and column."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        reason = " ".join(str(exc).split())
        raise _line(Path(path), f"is not valid TOML ({reason})", what, fix or "fix the syntax") from None


def read_toml(path: str | Path, what: str, fix: str = "", empty_ok: bool = False) -> dict[str, Any]:
    """The file as a TOML table (see ``read_text`` and ``parse_toml``)."""
    return parse_toml(read_text(path, what, fix, empty_ok), path, what, fix)


def _cut(exc: json.JSONDecodeError, text: str) -> bool:
    """Did the JSON end before its value did (a file or line cut short, rather than a wrong character)?"""
    return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")


def _json_problem(exc: json.JSONDecodeError, text: str) -> str:
    if _cut(exc, text):
        return "ends in the middle of a JSON value (truncated?)"
    return f"is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"


def parse_json(text: str, path: str | Path, what: str, fix: str = "", kind: type = dict) -> Any:
    """``text`` as one JSON value of type ``kind`` (an object by default); ``FileError`` otherwise."""
    p = Path(path)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _line(p, _json_problem(exc, text), what, fix) from None
    if not isinstance(value, kind):
        raise _line(p, f"holds a JSON {_json_type(value)}, not a JSON {_json_type(kind())}", what, fix)
    return value


def read_json(path: str | Path, what: str, fix: str = "", kind: type = dict) -> Any:
    """The file as one JSON value of type ``kind`` (see ``parse_json``)."""
    return parse_json(read_text(path, what, fix), path, what, fix, kind)


def json_lines(text: str, path: str | Path, what: str, fix: str = "") -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of each non-blank line of ``text``: one JSON object a line.

    ``FileError`` names the first line that is not one (a truncated last line says so).
    """
    p = Path(path)
    lines = text.splitlines()
    last = max((i for i, ln in enumerate(lines, 1) if ln.strip()), default=0)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problem = (
                "ends in the middle of a JSON object (truncated?)"
                if _cut(exc, line) and n == last
                else f"is not a whole JSON object ({exc.msg} at column {exc.colno})"
            )
            raise _line(p, f"line {n} {problem}", what, fix) from None
        if not isinstance(obj, dict):
            raise _line(p, f"line {n} holds a JSON {_json_type(obj)}, not an object", what, fix)
        yield n, obj


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "number")
