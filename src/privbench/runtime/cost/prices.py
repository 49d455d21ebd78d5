"""Prices per model: the shipped table (with its date), ``--price`` overrides, local models.

Why a dated table: prices change; a cost printed without the day its prices were read is a
guess presented as a fact. The table (``privbench/data/prices.json``) holds a handful of
common models; a dated snapshot (``openai/gpt-4o-2024-08-06``) takes its alias's price.
Models that run on this machine (the ``privbench/…`` baseline, ``ollama/…``, ``vllm/…``,
``hf/…``, ``llama-cpp-python/…``) and the offline judge cost nothing. Every other model —
``openai-api/…`` too, which may be a paid service — has no known price: its cost is null,
never a guess, until ``--price IN/OUT`` gives one.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from typing import Literal

from privbench.runtime.errors import UsageError
from privbench.runtime.judge_names import OFFLINE_JUDGE

PriceSource = Literal["table", "option", "local"]

LOCAL_PROVIDERS = ("privbench", "ollama", "vllm", "hf", "llama-cpp-python", "none")
"""Providers that run on this machine (``none``: a grade run's absent model under test)."""
NO_PRICE = "no price known: pass --price IN/OUT (USD per million input/output tokens)"
NO_JUDGE_PRICE = "no price known: pass --judge-price IN/OUT (USD per million input/output tokens)"

_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|\d{3,4}|latest)$")
"""A dated snapshot suffix (``-2024-08-06``, ``-20250929``, ``-002``) or ``-latest``."""


@dataclass(frozen=True)
class Price:
    """USD per million input and output tokens, and where the figure came from."""

    input: float
    output: float
    source: PriceSource

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """USD of ``input_tokens`` and ``output_tokens`` at this price."""
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000

    def record(self) -> dict[str, float | str]:
        return {"input": self.input, "output": self.output, "source": self.source}


FREE = Price(0.0, 0.0, "local")


@dataclass(frozen=True)
class PriceTable:
    """The shipped prices and the day they were read."""

    price_date: str
    models: dict[str, tuple[float, float]]


def load_price_table() -> PriceTable:
    """The table shipped in the package (``data/prices.json``)."""
    text = resources.files("privbench").joinpath("data/prices.json").read_text(encoding="utf-8")
    data = json.loads(text)
    models = {
        str(name): (float(entry["input"]), float(entry["output"]))
        for name, entry in data["models"].items()
    }
    return PriceTable(str(data["price_date"]), models)


def parse_price(text: str, option: str = "--price") -> Price:
    """``IN/OUT`` (USD per million input / output tokens, e.g. ``2.5/10``) as a price; a
    one-line usage error naming ``option`` otherwise."""
    parts = text.split("/")
    try:
        if len(parts) != 2:
            raise ValueError
        values = (float(parts[0]), float(parts[1]))
    except ValueError:
        raise UsageError(
            f"{option}: write IN/OUT in USD per million input/output tokens (e.g. 2.5/10), "
            f"not '{text}'"
        ) from None
    if not all(math.isfinite(v) and v >= 0 for v in values):
        raise UsageError(f"{option}: prices must be finite and not negative, not '{text}'")
    return Price(values[0], values[1], "option")


def is_local(model: str) -> bool:
    """Whether ``model`` runs here and costs nothing (the offline judge, local providers)."""
    return model == OFFLINE_JUDGE or model.partition("/")[0] in LOCAL_PROVIDERS


def table_price(model: str, table: PriceTable) -> Price | None:
    """The table's price of ``model`` or of the alias a dated snapshot of it belongs to."""
    found = table.models.get(model) or table.models.get(_SNAPSHOT.sub("", model))
    return None if found is None else Price(found[0], found[1], "table")


def price_of(model: str, table: PriceTable, override: Price | None = None) -> Price | None:
    """What ``model`` costs: ``override`` if given, nothing if local, else the table's (or
    None: unknown)."""
    if override is not None:
        return override
    if is_local(model):
        return FREE
    return table_price(model, table)
