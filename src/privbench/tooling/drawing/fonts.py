"""Fonts for the generated suites, from PyPI packages only (nothing is downloaded).

* Latin, Greek, Cyrillic: Noto Sans (``fontpkg-noto-sans``);
* Arabic: Noto Sans Arabic (``fontpkg-noto-sans-arabic``), shaped and laid out right to
  left by Pillow's bundled libraqm;
* Chinese and Japanese: Noto Sans CJK TC (``cvttf-notosanscjk-regular``).

:func:`missing_glyphs` checks with fontTools that a font really covers a text, which the
tests run on every script the suites use.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Literal

from fontTools.ttLib import TTFont
from PIL import ImageFont

Script = Literal["latin", "cyrillic", "arabic", "cjk"]


@functools.cache
def font_path(script: Script) -> Path:
    """The font file that renders ``script``."""
    if script in ("latin", "cyrillic"):
        import fontpkg

        return Path(fontpkg.path("Noto Sans"))
    if script == "arabic":
        import fontpkg

        return Path(fontpkg.path("Noto Sans Arabic"))
    import cvttf_NotoSansCJK_Regular

    return Path(os.path.dirname(cvttf_NotoSansCJK_Regular.__file__)) / "NotoSansCJKtc-Regular.otf"


@functools.cache
def font(script: Script, size: int) -> ImageFont.FreeTypeFont:
    """A FreeType font with raqm layout (shaping, bidi) for ``script`` at ``size`` px."""
    return ImageFont.truetype(str(font_path(script)), size, layout_engine=ImageFont.Layout.RAQM)


def script_of(text: str) -> Script:
    """The script a text needs (the first non-Latin one found decides)."""
    for char in text:
        code = ord(char)
        if 0x0600 <= code <= 0x06FF or 0x0750 <= code <= 0x077F or 0xFB50 <= code <= 0xFEFF:
            return "arabic"
        if 0x3040 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xFF00 <= code <= 0xFFEF:
            return "cjk"
        if 0x0400 <= code <= 0x04FF:
            return "cyrillic"
    return "latin"


@functools.cache
def _cmap(path: Path) -> frozenset[int]:
    with TTFont(str(path), fontNumber=0, lazy=True) as ttfont:
        return frozenset(ttfont.getBestCmap())


def missing_glyphs(script: Script, text: str) -> list[str]:
    """Characters of ``text`` (other than spaces) the script's font has no glyph for."""
    cmap = _cmap(font_path(script))
    return sorted({c for c in text if not c.isspace() and ord(c) not in cmap})
