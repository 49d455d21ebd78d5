"""A command's call plan and what it costs: the ``--dry-run`` document, and the cost of a
finished run from the token usage its log recorded.

Why counts in three figures: some calls are certain (one model call per item), some depend
on the replies (a judge re-asked because its reply did not parse, a guard verifier call per
option the model selects). ``calls_at_least`` are the certain ones, ``calls_at_most`` adds
every call the replies could cause, and ``calls`` is the expected number the token and cost
estimate is made for (equal to both where nothing depends on the replies). Retries of a
failed request (``--max-retries``) and the one reachability request per endpoint before a
run are in none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from privbench.runtime.calls import Role
from privbench.runtime.cost.prices import (
    NO_JUDGE_PRICE,
    NO_PRICE,
    Price,
    PriceTable,
    is_local,
    load_price_table,
    price_of,
)
from privbench.runtime.cost.tokens import CHARS_PER_TOKEN

ROLES: tuple[Role, ...] = ("model", "judge")


@dataclass(frozen=True)
class CallKind:
    """Calls of one kind: how many, the input tokens of each, the output of each."""

    role: Role
    input_tokens: int
    """Estimated input tokens of one call (text and images)."""
    calls: int
    """Expected calls."""
    at_least: int
    at_most: int
    output_typical: int
    """Expected output tokens of one call (docs/cost.md)."""
    output_limit: int | None
    """The call's output limit (``--max-tokens``, a judge protocol's); None: the provider's."""
    input_tokens_at_most: int | None = None
    """Input tokens of one call at most (a re-ask carries more); None: ``input_tokens``."""

    @property
    def largest_input(self) -> int:
        return self.input_tokens if self.input_tokens_at_most is None else self.input_tokens_at_most


@dataclass(frozen=True)
class Prices:
    """The prices a command was given (``--price``, ``--judge-price``) and the table."""

    model: Price | None = None
    judge: Price | None = None
    table: PriceTable = field(default_factory=load_price_table)

    def of(self, role: Role, name: str | None) -> Price | None:
        if name is None:
            return None
        return price_of(name, self.table, self.model if role == "model" else self.judge)


@dataclass(frozen=True)
class RoleFigures:
    """The summed figures of one role."""

    calls: int
    at_least: int
    at_most: int
    input_tokens: int
    input_tokens_at_most: int
    output_tokens: int
    output_tokens_at_most: int | None


def role_figures(kinds: list[CallKind], role: Role) -> RoleFigures:
    """Sum the calls and tokens of ``role``'s kinds (at-most output None if any is unbounded)."""
    mine = [k for k in kinds if k.role == role]
    unbounded = any(k.output_limit is None and k.at_most for k in mine)
    return RoleFigures(
        calls=sum(k.calls for k in mine),
        at_least=sum(k.at_least for k in mine),
        at_most=sum(k.at_most for k in mine),
        input_tokens=sum(k.calls * k.input_tokens for k in mine),
        input_tokens_at_most=sum(k.at_most * k.largest_input for k in mine),
        output_tokens=sum(k.calls * typical_output(k) for k in mine),
        output_tokens_at_most=None
        if unbounded
        else sum(k.at_most * (k.output_limit or 0) for k in mine),
    )


def typical_output(kind: CallKind) -> int:
    """A call's expected output, never above its limit."""
    if kind.output_limit is None:
        return kind.output_typical
    return min(kind.output_typical, kind.output_limit)


@dataclass
class CallPlan:
    """What a command will send: to which model and judge, how many calls of which kinds."""

    command: str
    model: str | None
    """The model under test (None: none is called, as in a grade run)."""
    judge: str | None
    """The judge (None: none is called, as with the offline judge)."""
    kinds: list[CallKind] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(
        self,
        role: Role,
        input_tokens: int,
        calls: int,
        *,
        at_least: int | None = None,
        at_most: int | None = None,
        output_typical: int,
        output_limit: int | None,
        input_tokens_at_most: int | None = None,
    ) -> None:
        """Calls of one kind (``at_least``/``at_most`` default to ``calls``)."""
        if calls == 0 and not at_most:
            return
        self.kinds.append(
            CallKind(
                role,
                input_tokens,
                calls,
                calls if at_least is None else at_least,
                calls if at_most is None else at_most,
                output_typical,
                output_limit,
                input_tokens_at_most,
            )
        )

    def name(self, role: Role) -> str | None:
        return self.model if role == "model" else self.judge


def combined(command: str, plans: list[CallPlan]) -> CallPlan:
    """One plan of several runs a command makes in turn (``demo``: both benchmarks); the
    model and the judge are the first plan's."""
    first = plans[0]
    notes = list(dict.fromkeys(note for plan in plans for note in plan.notes))
    kinds = [kind for plan in plans for kind in plan.kinds]
    return CallPlan(command, first.model, first.judge, kinds, notes)


def _round(value: float) -> float:
    return round(value, 4)


def _role_cost(figures: RoleFigures, price: Price | None) -> tuple[float | None, float | None]:
    if price is None:
        return None, None
    if figures.output_tokens_at_most is not None:
        at_most: float | None = price.cost(
            figures.input_tokens_at_most, figures.output_tokens_at_most
        )
    else:  # no output limit: unbounded, unless nothing is charged
        at_most = 0.0 if price.input == price.output == 0 else None
    return price.cost(figures.input_tokens, figures.output_tokens), at_most


def _total(values: list[float | None]) -> float | None:
    return None if any(v is None for v in values) else _round(sum(v or 0.0 for v in values))


class RoleTokens(TypedDict):
    """One role's tokens in a dry run: typical and at most (None: no output limit set)."""

    input: int
    output: int
    input_at_most: int
    output_at_most: int | None


class DryRunDocument(TypedDict):
    """The ``--dry-run --json`` document (:func:`dry_run_document`)."""

    dry_run: bool
    command: str
    model: str | None
    judge: str | None
    calls: dict[Role, int]
    calls_at_least: dict[Role, int]
    calls_at_most: dict[Role, int]
    tokens: dict[Role, RoleTokens]
    cost_usd: float | None
    cost_usd_at_most: float | None
    cost_usd_by_role: dict[Role, float | None]
    """Only the roles called; None: no price known."""
    prices: dict[Role, dict[str, float | str] | None]
    price_date: str
    chars_per_token: int
    notes: list[str]


def dry_run_document(plan: CallPlan, prices: Prices) -> DryRunDocument:
    """The ``--dry-run --json`` document: calls, tokens and cost per role, and why a figure
    is missing."""
    figures = {role: role_figures(plan.kinds, role) for role in ROLES}
    price = {role: prices.of(role, plan.name(role)) for role in ROLES}
    costs = {role: _role_cost(figures[role], price[role]) for role in ROLES}
    called = [role for role in ROLES if figures[role].at_most]
    notes = list(plan.notes)
    for role in called:
        if price[role] is None:
            notes.append(f"{role} {plan.name(role)}: {_no_price(role, plan)}")
        if figures[role].output_tokens_at_most is None:
            notes.append(
                f"{role}: output at most unknown (no output limit is set: the provider's "
                "applies; --max-tokens sets one)"
            )
    return {
        "dry_run": True,
        "command": plan.command,
        "model": plan.model,
        "judge": plan.judge,
        "calls": {role: figures[role].calls for role in ROLES},
        "calls_at_least": {role: figures[role].at_least for role in ROLES},
        "calls_at_most": {role: figures[role].at_most for role in ROLES},
        "tokens": {
            role: {
                "input": figures[role].input_tokens,
                "output": figures[role].output_tokens,
                "input_at_most": figures[role].input_tokens_at_most,
                "output_at_most": figures[role].output_tokens_at_most,
            }
            for role in ROLES
        },
        "cost_usd": _total([costs[r][0] for r in called]),
        "cost_usd_at_most": _total([costs[r][1] for r in called]),
        "cost_usd_by_role": {
            role: None if costs[role][0] is None else _round(costs[role][0] or 0.0)
            for role in called
        },
        "prices": {role: _price_record(price[role]) for role in called},
        "price_date": prices.table.price_date,
        "chars_per_token": CHARS_PER_TOKEN,
        "notes": notes,
    }


def _no_price(role: Role, plan: CallPlan) -> str:
    if role == "judge" and plan.model is not None:
        return NO_JUDGE_PRICE
    return NO_PRICE


def _price_record(price: Price | None) -> dict[str, float | str] | None:
    return None if price is None else price.record()


def _usd(value: object) -> str:
    return "unknown" if not isinstance(value, int | float) else f"${value:,.2f}"


def dry_run_lines(document: DryRunDocument) -> list[str]:
    """The dry run for people: one line per role called, the cost, the notes."""
    lines = [f"dry run of privbench {document['command']}: nothing is sent, no log is written"]
    for role in ROLES:
        at_most = document["calls_at_most"][role]
        if not at_most:
            continue
        tokens = document["tokens"][role]
        name = document["model"] if role == "model" else document["judge"]
        out_most = tokens["output_at_most"]
        lines.append(
            f"{role} {name}: {document['calls'][role]:,} call(s) (at most {at_most:,}); "
            f"~{tokens['input']:,} input / ~{tokens['output']:,} output tokens (at most "
            f"{tokens['input_at_most']:,} / {'unknown' if out_most is None else f'{out_most:,}'})"
            f"; {_usd(document['cost_usd_by_role'].get(role))}"
        )
    if not any(document["calls_at_most"].values()):
        lines.append("no model or judge call: nothing to pay")
    lines.append(
        f"estimated cost {_usd(document['cost_usd'])} (at most "
        f"{_usd(document['cost_usd_at_most'])}); prices as of {document['price_date']}, "
        f"text at {document['chars_per_token']} characters per token (docs/cost.md)"
    )
    lines += [f"note: {note}" for note in document["notes"]]
    return lines


# --- a finished run --------------------------------------------------------------------


class RunCost(TypedDict):
    """What a finished run cost, as its ``--json`` document and exports carry it."""

    cost_usd: float | None
    """The total (None: a role that used tokens has no known price)."""
    cost_usd_by_role: dict[str, float | None]
    prices: dict[str, dict[str, float | str] | None]
    """Role → the price applied (None: none known)."""
    price_date: str


def run_cost(
    tokens: Mapping[str, Mapping[str, int]],
    names: Mapping[Role, str | None],
    prices: Prices,
) -> RunCost:
    """``cost_usd`` (and per role, the prices, their date) of a run's recorded token usage.

    ``tokens``: role → ``{"input", "output", ...}`` as the log's usage records give them;
    ``names``: role → the model that role was (None: not called). A role with tokens but no
    known price makes the total null.
    """
    by_role: dict[str, float | None] = {}
    used: dict[str, dict[str, float | str] | None] = {}
    for role in ROLES:
        counts = tokens.get(role) or {}
        name = names.get(role)
        if name is None or not (counts.get("input") or counts.get("output")):
            continue
        price = prices.of(role, name)
        used[role] = _price_record(price)
        by_role[role] = (
            None
            if price is None
            else _round(price.cost(int(counts.get("input", 0)), int(counts.get("output", 0))))
        )
    return {
        "cost_usd": _total(list(by_role.values())),
        "cost_usd_by_role": by_role,
        "prices": used,
        "price_date": prices.table.price_date,
    }


def cost_line(document: RunCost, names: Mapping[Role, str | None]) -> str:
    """The summary line of a run's cost (what is unknown says how to give its price)."""
    by_role: Mapping[str, float | None] = document["cost_usd_by_role"]
    if not by_role:
        return "cost: $0.00 (no paid tokens recorded)"
    parts = [f"{role} {_usd(value)}" for role, value in by_role.items()]
    line = (
        f"cost: {_usd(document['cost_usd'])} ({', '.join(parts)}; prices as of "
        f"{document['price_date']})"
    )
    for role in ROLES:
        if role in by_role and by_role[role] is None:
            option = "--judge-price" if role == "judge" and names.get("model") else "--price"
            line += f"; {role} {names.get(role)}: no price known: pass {option} IN/OUT"
    return line


def paid(name: str | None) -> bool:
    """Whether calls to ``name`` may cost money (a model that is not local)."""
    return name is not None and not is_local(name)
