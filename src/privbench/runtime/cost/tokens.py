"""Token estimates without a tokenizer: text by characters, images by the providers' rules.

Why no tokenizer: a dry run must not download anything, and tokenizers differ per model;
an estimate of one stated rule is reproducible and good enough to decide whether a run is
affordable (docs/cost.md gives the rules and where they were read).

* Text: :data:`CHARS_PER_TOKEN` characters per token, rounded up (the rule of thumb OpenAI
  and Google publish for English).
* Images, by the provider of the model:
  - OpenAI (and any provider whose rule is not known): high detail — scaled to fit
    2048 × 2048, then its shortest side to 768; 85 tokens + 170 per 512-px tile.
  - Anthropic: width × height / 750 (rounded up).
  - Google Gemini: 258 tokens if both sides are at most 384 px, else 258 per 768-px tile.
"""

from __future__ import annotations

import math
from typing import Literal

CHARS_PER_TOKEN = 4
"""Characters of text per token (English prose; code and non-Latin scripts take more)."""

ImageRule = Literal["openai", "anthropic", "gemini"]

OPENAI_FIT = 2048
OPENAI_SHORT_SIDE = 768
OPENAI_TILE = 512
OPENAI_BASE_TOKENS = 85
OPENAI_TILE_TOKENS = 170
ANTHROPIC_PIXELS_PER_TOKEN = 750
GEMINI_SMALL_SIDE = 384
GEMINI_TILE = 768
GEMINI_TILE_TOKENS = 258

_PROVIDER_RULES: dict[str, ImageRule] = {
    "openai": "openai",
    "azureai": "openai",
    "anthropic": "anthropic",
    "bedrock": "anthropic",
    "google": "gemini",
    "vertex": "gemini",
}
"""Providers whose published image rule is known (bedrock and vertex: the Claude and
Gemini models they serve)."""


def text_tokens(text: str) -> int:
    """Estimated tokens of ``text``: characters / :data:`CHARS_PER_TOKEN`, rounded up."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def openai_image_tokens(width: int, height: int) -> int:
    """OpenAI's high-detail image tokens: fit 2048 × 2048, shortest side 768, 512-px tiles.

    An image is only scaled down (an image whose shortest side is under 768 px keeps its
    size, as OpenAI's examples count it).
    """
    w, h = float(width), float(height)
    if max(w, h) > OPENAI_FIT:
        scale = OPENAI_FIT / max(w, h)
        w, h = w * scale, h * scale
    if min(w, h) > OPENAI_SHORT_SIDE:
        scale = OPENAI_SHORT_SIDE / min(w, h)
        w, h = w * scale, h * scale
    tiles = math.ceil(round(w, 6) / OPENAI_TILE) * math.ceil(round(h, 6) / OPENAI_TILE)
    return OPENAI_BASE_TOKENS + OPENAI_TILE_TOKENS * tiles


def anthropic_image_tokens(width: int, height: int) -> int:
    """Anthropic's image tokens: width × height / 750, rounded up (an upper bound for images
    Anthropic scales down first: a long side over 1568 px)."""
    return math.ceil(width * height / ANTHROPIC_PIXELS_PER_TOKEN)


def gemini_image_tokens(width: int, height: int) -> int:
    """Gemini's image tokens: 258 for an image of at most 384 × 384, else 258 per 768-px tile."""
    if width <= GEMINI_SMALL_SIDE and height <= GEMINI_SMALL_SIDE:
        return GEMINI_TILE_TOKENS
    return GEMINI_TILE_TOKENS * math.ceil(width / GEMINI_TILE) * math.ceil(height / GEMINI_TILE)


def image_rule(model: str) -> tuple[ImageRule, bool]:
    """The image rule for ``model`` (``provider/name``) and whether it is the provider's own
    (False: not known, OpenAI's rule is assumed)."""
    provider = model.partition("/")[0]
    rule = _PROVIDER_RULES.get(provider)
    return (rule, True) if rule is not None else ("openai", False)


def image_tokens(model: str, width: int, height: int) -> int:
    """Estimated tokens of one ``width`` × ``height`` image sent to ``model``."""
    rule, _ = image_rule(model)
    if rule == "anthropic":
        return anthropic_image_tokens(width, height)
    if rule == "gemini":
        return gemini_image_tokens(width, height)
    return openai_image_tokens(width, height)
