"""Unpack a downloaded zip safely, and find the dataset folder inside it.

Why checked before anything is written: a member named ``/etc/x`` or ``../../x``
("zip-slip") would write outside the target folder. Every member name is checked first;
one bad name refuses the whole archive, so nothing half-unpacked is left behind.

Why the dataset root is searched for: a release may unpack to its files directly, to one
top folder (``Priv-IQ/``, ``privIQ/``) or deeper; the folder that holds the index file
(``priv-IQ.json``) is the dataset, wherever it is. Archives made on a Mac carry
``__MACOSX/`` copies and ``._`` resource files that are not data: they are skipped.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from privbench.runtime.errors import PrivbenchError

_DRIVE = re.compile(r"^[A-Za-z]:")


def member_problem(name: str) -> str | None:
    """Why an archive member must not be unpacked (an absolute path, ``..``), or None."""
    path = name.replace("\\", "/")
    if path.startswith("/") or _DRIVE.match(path):
        return "an absolute path"
    if ".." in path.split("/"):
        return "a '..' component"
    if "\0" in path:
        return "a NUL character"
    return None


def is_metadata(name: str) -> bool:
    """A Mac archiver's ``__MACOSX/`` entry or ``._`` resource file: not part of the data."""
    parts = PurePosixPath(name.replace("\\", "/")).parts
    return bool(parts) and (parts[0] == "__MACOSX" or parts[-1].startswith("._"))


def _depth(folder: str) -> int:
    return 0 if not folder else folder.count("/") + 1


def dataset_roots(names: Iterable[str], index_file: str) -> list[str]:
    """The shallowest folders (POSIX, ``""`` for the top) that hold ``index_file``.

    One folder is the dataset; several at the same depth are ambiguous (the caller says
    so); a deeper copy (a backup inside the dataset) does not compete with a shallower one.
    """
    found = {
        PurePosixPath(name.replace("\\", "/")).parent.as_posix()
        for name in names
        if not is_metadata(name) and PurePosixPath(name.replace("\\", "/")).name == index_file
    }
    roots = sorted("" if root == "." else root for root in found)
    if not roots:
        return []
    shallowest = min(_depth(root) for root in roots)
    return [root for root in roots if _depth(root) == shallowest]


def member_names(archive: Path, label: str) -> list[str]:
    """Every member name of ``archive``; a one-line error if it is not a zip."""
    try:
        with zipfile.ZipFile(archive) as handle:
            return handle.namelist()
    except (zipfile.BadZipFile, OSError) as error:
        raise PrivbenchError(f"{label}: not a zip archive ({error})") from None


def _chosen(member: zipfile.ZipInfo, prefix: str) -> bool:
    """A file of the dataset: under ``prefix``, not a folder entry, not metadata."""
    name = member.filename.replace("\\", "/")
    return not member.is_dir() and not is_metadata(name) and name.startswith(prefix)


def _check_space(members: list[zipfile.ZipInfo], destination: Path, label: str) -> None:
    """Refuse an archive whose files would not fit on the disk (a zip bomb, a full disk)."""
    needed = sum(member.file_size for member in members)
    existing = next(p for p in (destination, *destination.parents) if p.exists())
    free = shutil.disk_usage(existing).free
    if needed > free:
        raise PrivbenchError(
            f"{label}: unpacked it needs {needed:,} bytes, {free:,} are free on "
            f"{existing}; nothing was unpacked"
        )


def unpack(archive: Path, destination: Path, root: str, label: str) -> int:
    """Unpack the members under ``root`` of ``archive`` into ``destination``; files written.

    Every name is checked before anything is written (``label`` names the archive in the
    error); directories are made as needed, metadata entries skipped.
    """
    try:
        with zipfile.ZipFile(archive) as handle:
            members = handle.infolist()
            for member in members:
                problem = member_problem(member.filename)
                if problem is not None:
                    raise PrivbenchError(
                        f"{label}: member '{member.filename}' has {problem} and would be "
                        "written outside the folder; nothing was unpacked"
                    )
            prefix = f"{root}/" if root else ""
            chosen = [member for member in members if _chosen(member, prefix)]
            _check_space(chosen, destination, label)
            base = destination.resolve()
            written = 0
            for member in chosen:
                name = member.filename.replace("\\", "/")
                target = destination / name[len(prefix) :]
                if not target.resolve().is_relative_to(base):  # a link already in the way
                    raise PrivbenchError(f"{label}: member '{name}' leaves the folder")
                target.parent.mkdir(parents=True, exist_ok=True)
                with handle.open(member) as source, target.open("wb") as out:
                    shutil.copyfileobj(source, out, 1 << 20)
                written += 1
            return written
    except zipfile.BadZipFile as error:
        raise PrivbenchError(f"{label}: corrupt zip archive ({error})") from None
