"""Writing a generated suite to disk the same way every time.

Why: ``privbench generate`` promises byte-identical output for the same arguments, so
images are saved as PNG without time stamps or other varying chunks, JSON with a fixed
layout, and an existing suite is only replaced when the caller says so.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image

from privbench.runtime.errors import UsageError


def prepare(out: Path, index_file: str, force: bool) -> Path:
    """An empty ``out/images``; refuses to write into a non-empty directory without ``force``."""
    if out.exists() and any(out.iterdir()):
        if not force:
            raise UsageError(f"{out}: not empty (pass --force to replace the suite in it)")
        (out / index_file).unlink(missing_ok=True)
        shutil.rmtree(out / "images", ignore_errors=True)
    (out / "images").mkdir(parents=True, exist_ok=True)
    return out / "images"


def save_png(image: Image.Image, path: Path) -> None:
    """PNG with only the pixel data (Pillow writes no time stamp), maximally compressed."""
    image.save(path, format="PNG", optimize=True)
