"""Take API keys and URL credentials out of a run's inspect log once the run has ended.

Why: inspect records what an endpoint said, and an endpoint may echo the key it was sent
(``401 Incorrect API key provided: sk-...``, or in a 500 body) into a sample's error, its
traceback, its retries and its events; the header keeps each model's base URL, user info
(``http://user:pw@host``) included. Redacting what privbench *prints* is not enough: the
log is shared, uploaded and read later by ``privbench show`` or ``inspect view`` in a shell
that has no key set, where nothing can tell the key from any other text. So every run's
log is scrubbed on disk before privbench hands it back (``running._run``), with the rules
of :mod:`privbench.runtime.redaction`.

How, and why not ``read_eval_log``/``write_eval_log``: reading and writing a whole log
through inspect's models costs seconds per thousand samples and would be paid by every
run, nearly all of which hold no secret. Instead each member of the ``.eval`` zip (each
JSON document of a ``.json`` log) is decompressed and searched as text; only a member
that may hold a secret is parsed, its strings redacted (images, which are ``data:`` URIs,
are never touched), and only if some string changed is the file rewritten — member by
member, same names, same compression, same order — to a temporary file that replaces
the log atomically. A traceback's ANSI rendering (``traceback_ansi``), which may split a
key with colour codes or a line wrap, is replaced by the redacted plain traceback.

Limits: a log is scrubbed when the run returns, so while a run is going (and after a
``kill -9``) the samples it has flushed may still hold an echoed key; ``--resume`` scrubs
the log it starts from (``running.resume_task``), and ``python -m
privbench.runtime.log_secrets LOG...`` scrubs one never resumed, or one written by an older
privbench — with the key's variable set in that shell if the key is not ``sk-...``-shaped.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log
from pydantic import JsonValue

from privbench.runtime.redaction import Secrets, current_secrets

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_DATA_URI = re.compile(r"data:[\w.+-]+/[\w.+-]+;base64,")


class _Scrubber:
    """Redacts the strings of parsed JSON, returning the same object when nothing changed."""

    def __init__(self, secrets: Secrets) -> None:
        self.secrets = secrets

    def text(self, value: str) -> str:
        if _DATA_URI.match(value) or not self.secrets.found_in(value):
            return value
        redacted = self.secrets.redact(value)
        return value if redacted == value else redacted

    def ansi(self, rendered: str, plain: object, plain_changed: bool) -> str:
        """A traceback's ANSI rendering: the redacted plain traceback where it held a secret."""
        stripped = _ANSI.sub("", rendered)
        if not (
            plain_changed
            or self.secrets.found_in(stripped)
            or self.secrets.found_in(stripped.replace("\n", ""))
        ):
            return rendered
        redacted = self.secrets.redact(plain if isinstance(plain, str) else stripped)
        return rendered if redacted == rendered else redacted

    def value(self, value: JsonValue) -> JsonValue:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            items = [self.value(item) for item in value]
            return value if all(a is b for a, b in zip(items, value, strict=True)) else items
        if isinstance(value, dict):
            return self.mapping(value)
        return value

    def mapping(self, value: dict[str, JsonValue]) -> dict[str, JsonValue]:
        cleaned = {key: self.value(item) for key, item in value.items()}
        rendered = value.get("traceback_ansi")
        if isinstance(rendered, str):
            plain = cleaned.get("traceback")
            changed = plain is not value.get("traceback")
            cleaned["traceback_ansi"] = self.ansi(rendered, plain, changed)
        same = all(cleaned[key] is item for key, item in value.items())
        return value if same else cleaned


def _without_images(text: str) -> str:
    """JSON text without its base64 payloads (images: most of a log's bytes, never a key).

    ``str.find`` and ``in`` run at memory speed where a regex over the payloads would take
    seconds per thousand samples.
    """
    if ";base64," not in text:
        return text
    parts: list[str] = []
    start = 0
    while (found := text.find(";base64,", start)) != -1:
        end = text.find('"', found)
        end = len(text) if end == -1 else end
        payload = text[found + 8 : end]
        parts.append(text[start : found + 8])
        if " " in payload or "\\" in payload:  # text, not base64: keep it, it is searched
            parts.append(payload)
        start = end
    parts.append(text[start:])
    return "".join(parts)


def _scrub_document(text: str, secrets: Secrets, indent: int | None = None) -> str | None:
    """A JSON document with its secrets redacted, or None when it holds none."""
    if not secrets.found_in(_without_images(text)):
        return None
    document = json.loads(text)
    cleaned = _Scrubber(secrets).value(document)
    if cleaned is document:
        return None
    # the separators inspect writes with: an unchanged document dumps to the same bytes
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(cleaned, ensure_ascii=False, indent=indent, separators=separators)


def _replace(path: Path, write: Callable[[Path], object]) -> None:
    """Write through ``write(temporary_path)``, then move the result over ``path``."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(handle)
    try:
        write(Path(temporary))
        os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _scrub_eval(path: Path, secrets: Secrets) -> bool:
    changed: dict[str, bytes] = {}
    with zipfile.ZipFile(path) as source:
        for info in source.infolist():
            if not info.filename.endswith(".json"):
                continue
            cleaned = _scrub_document(source.read(info).decode("utf-8"), secrets)
            if cleaned is not None:
                changed[info.filename] = cleaned.encode("utf-8")
    if not changed:
        return False

    def write(temporary: Path) -> None:
        with zipfile.ZipFile(path) as source, zipfile.ZipFile(temporary, "w") as target:
            target.comment = source.comment
            for info in source.infolist():
                data = changed.get(info.filename)
                member = zipfile.ZipInfo(info.filename, info.date_time)
                member.compress_type = info.compress_type
                member.external_attr = info.external_attr
                target.writestr(member, source.read(info) if data is None else data)

    _replace(path, write)
    return True


def _scrub_json(path: Path, secrets: Secrets) -> bool:
    cleaned = _scrub_document(path.read_text(encoding="utf-8"), secrets, indent=2)
    if cleaned is None:
        return False
    _replace(path, lambda temporary: temporary.write_text(cleaned, encoding="utf-8"))
    return True


def _local_path(location: str | Path) -> Path | None:
    text = str(location)
    if text.startswith("file://"):
        text = text.removeprefix("file://")
    elif "://" in text:
        return None  # a remote log (s3://...): privbench writes only local logs
    return Path(text)


def scrub_log(location: str | Path) -> bool:
    """Redact every known secret from the log file at ``location``, in place.

    Returns whether the file was rewritten (it is left untouched when it holds none).
    """
    path = _local_path(location)
    if path is None or not path.is_file():
        return False
    import inspect_ai.log  # noqa: F401  (registers zstd, the compression of .eval members)

    secrets = current_secrets()
    if path.suffix == ".eval":
        return _scrub_eval(path, secrets)
    if path.suffix == ".json":
        return _scrub_json(path, secrets)
    return False


def scrubbed(log: EvalLog) -> EvalLog:
    """``log`` after its file is scrubbed: read again (header only if it was) if rewritten."""
    if not log.location or not scrub_log(log.location):
        return log
    return read_eval_log(log.location, header_only=log.samples is None)


def main(argv: list[str] | None = None) -> int:
    """``python -m privbench.runtime.log_secrets LOG...``: scrub logs written earlier."""
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python -m privbench.runtime.log_secrets LOG...", file=sys.stderr)
        return 2
    status = 0
    for location in paths:
        if not Path(location).is_file():
            print(f"error: {location}: no such log file", file=sys.stderr)
            status = 1
            continue
        try:
            rewritten = scrub_log(location)
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            print(f"error: {location}: cannot scrub ({type(error).__name__})", file=sys.stderr)
            status = 1
            continue
        print(f"{location}: {'secrets redacted' if rewritten else 'nothing to redact'}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
