"""``docs/commands.md``, generated from the command definitions.

Why generated: a page kept by hand drifts from the code (commands missing, options listed
that a command rejects). Here every command, argument and option, with its value kind,
default and help, is read from the commands typer builds, so the page says what
``privbench COMMAND --help`` says; the prose around the tables lives below, beside the
code. Hidden options (renamed ones kept for old scripts) stay hidden. Regenerate with::

    python -m privbench.command_docs > docs/commands.md      # or: make docs

A test fails, saying so, when the committed page is not what this prints.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import typer.main
from typer.core import TyperArgument, TyperGroup, TyperOption

from privbench.cli import app

if TYPE_CHECKING:  # typer's vendored click, which typer does not export
    from typer._click.core import Command, Context, Parameter

COMMAND_DOCS = "python -m privbench.command_docs > docs/commands.md"
"""How to regenerate the page (the test's message names it)."""

VALUE_KINDS = {"path": "PATH", "int": "N", "float": "X", "str": "TEXT"}
"""How a value is named in the option column, by the kind typer reports for it."""

ORDER = [
    "Conventions",
    "demo",
    "validate",
    "download priviq",
    "generate priviq",
    "generate spatialtrust",
    "build spatialtrust",
    "review serve",
    "review export",
    "eval priviq",
    "grade priviq",
    "eval spatialtrust",
    "grade spatialtrust",
    "Run labels (`--label`)",
    "Generation options",
    "Cost options: `--dry-run`, `--price`, `--judge-price`",
    "judge check",
    "show",
    "diff",
    "leaderboard",
    "audit",
    "report",
    "agreement",
    "survey export",
    "survey collect",
    "inspect tasks",
]
"""The page's order: command paths and the titles of :data:`SECTIONS`."""

PROSE: dict[str, str] = {
    "demo": """
Evaluates a model on both shipped suites, validates them first, and builds the report.
Offline by default: the `privbench/ocr-pii` baseline answers, the offline judge grades.
""",
    "validate": """
Checks a Priv-IQ or SpatialTrust directory (the kind is recognised by its index file)
and prints every problem, one line each, on stdout; exit 1 if there is any, 2 if `DIR`
is not a benchmark directory. A valid directory prints one summary line (Priv-IQ: items,
combinations, items per competency; SpatialTrust: images, questions, images with direct
and with indirect factors, factor boxes). When any SpatialTrust record has an `annotation`
(a dataset made by `privbench build spatialtrust`), the line ends with how many images a
person reviewed and what the others are, e.g. `; 12 of 200 images reviewed by a person
(188 not reviewed: draft 180, needs_work 8)`.
""",
    "download priviq": """
Downloads the public Priv-IQ release (the zip linked from the reference repository's
README), checks it and keeps it for `--data priviq` ([datasets.md](datasets.md#the-public-priv-iq-release)).

A copy already there is reported (`already downloaded: …`) and nothing is fetched. A
broken or interrupted (Ctrl-C: exit 130) download keeps `DIR/Priv-IQ.zip.part`, and the
next run resumes it. Exit 1 with
one line naming the address if the network fails, the zip's SHA-256 is not the pinned
one, the archive is unsafe or has no `priv-IQ.json`, or its dataset does not validate
(count and first problem; the zip is kept). It prints the item and file count, the
zip's SHA-256 and the `dataset_hash`.
""",
    "generate priviq": """
Writes a generated suite ([datasets.md](datasets.md)).
""",
    "build spatialtrust": """
Makes a SpatialTrust dataset from videos and images: frames, normalized captures, drafted
annotations, questions. Every image is a draft until a person reviews it
([build.md](build.md)).

Exit codes: 0 built; 1 bad input or drafting incomplete (the captures are kept in
`.DIR.partial`, `--resume` goes on); 130 interrupted.
""",
    "review serve": """
Serves the annotation review app on 127.0.0.1 until Ctrl-C ([review.md](review.md)): the
printed URL carries a random token that every route requires. `privbench review DIR` is
short for `privbench review serve DIR`.
""",
    "review export": """
Writes the SpatialTrust dataset of the accepted annotations in `DIR/review.sqlite`
(questions built again from them, images copied, validated, `review.json` beside), and,
where two or more annotators reviewed an image, their agreement ([review.md](review.md#agreement-between-annotators)).
""",
    "eval priviq": """
The model answers every item once; the judge grades each answer `--judge-runs` times.
`--epochs` is refused: use `--judge-runs`. The generation options (`--temperature` to
`--batch`) are described [below](#generation-options).
""",
    "grade priviq": """
Grades a `results.json` made elsewhere; writes the grade file and the two CSVs.
""",
    "eval spatialtrust": """
**Drafts.** A dataset made by `privbench build spatialtrust` starts as model-drafted
annotations. If any image's `annotation.status` is not `accepted`, `eval` and `grade
spatialtrust` stop before any model or judge call (exit 2) with one line: `DIR: N of M
images have draft annotations, not reviewed by a person; review them (privbench review
DIR) or pass --allow-drafts to run on drafts`. With `--allow-drafts` the run goes ahead,
records the figure in its log, and says `draft annotations: N of M images not reviewed
by a person` under the terminal table, in `--json` (`draft_annotations`: `{"unreviewed":
N, "images": M}`, and the sentence in `warnings`), in the exports' JSON summary, in
`show LOG` and in `privbench report`. `M` counts the dataset's images, before `--limit`.
Datasets without annotations (the shipped suite) are never stopped.
""",
    "grade spatialtrust": """
Scores a `preds.jsonl` made elsewhere.

If more than half of all questions of the file do not parse, nothing is graded (exit 1, naming
the likely cause).
""",
    "judge check": """
Grades reference-graded answers with the judge exactly as a run would, runs the bias probes
and the SpatialTrust verdict check, prints agreement with 95 % bootstrap intervals, and
writes the judge cards that `eval` and `grade` then show ([judge.md](judge.md#choosing-and-checking-a-judge-privbench-judge-check)).

`--json` prints one document: `n`, `spearman`, `icc`, `mae`, `within_0_1`,
`kappa_quadratic`, `bias` (over all items), `limits_of_agreement`, `ci` (figure →
`[low, high]`), `unscored`, `unscored_items`, `by_competency`, `disagreements`, `retest`,
`probes`, `verdicts`, the judge's identity (`judge`, `reported_models`, `protocol`,
`prompt_hash`), the set (`reference_set`, `set_hash`, `left_out`), `logs` and `cards`.

`eval` and `grade` (both benchmarks) take `--judge-card FILE` to show a given card instead
of the one found in the cache; it must be of the run's judge, protocol and prompt.
""",
    "show": r"""
Prints the tables of a finished privbench log (`.eval` or `.json`, also one finished by
`inspect eval-retry`) and calls no model. Several logs are shown one after another, each
under a `== LOG` line (with `--json`: one document `{"logs": [...]}` of the logs'
documents, in order); `--out` and `--model-name` take one log.

Terminal tables (here and in every command) never cut a number, at any width or in a
pipe (`COLUMNS` sets the width there): a table too wide wraps its text columns, and one
that still does not fit is printed long, one line per cell (row, column, value).

### Paper tables: `show LOG... --format F`

The logs (files or folders, as for `report`) must be of one benchmark; mixing Priv-IQ and
SpatialTrust logs is an error naming both sets. Priv-IQ gives Table 3 (eight
competencies + Total) and Table 5 (the combinations, most frequent first, + Total);
SpatialTrust gives Table 2 (five task scores + Overall). The numbers are the report's:
score (%), 95 % bootstrap interval over items (SpatialTrust: over images, each with its
five questions), `n`. For the runs of one dataset, the bounds are those `privbench report`
prints for the same logs (and no others) with its default `--seed 0 --bootstrap 1000`;
`report --tables` writes the tables of its own pages.

* **Rows** are runs in the order the logs were given, labelled as the report labels them
  (the model, or a grading run's predictions file; a SpatialTrust run not answered
  `direct` adds its strategy: `gpt-4o [guard]`; a `--limit` run says `· limit N`).
* **Cells**: `77.7 [74.1, 81.0]` (LaTeX `77.7\,{\scriptsize[74.1, 81.0]}`); `–` (LaTeX
  `--`) where nothing was scored. A cell over fewer items than its column's `n` adds its
  own, `n=40`.
* **`n` row** (last): the column's largest item (image) count.
* **Bold** (`\textbf{}` / `**…**`): the best score of each column, as printed (one
  decimal), among the ranked runs: the full runs over the dataset's shared item set, as
  the report ranks them (a `--limit` run is never bold). Ties are all bold. Nothing is
  bold in a column with fewer than two ranked scores (a single run is best of nothing)
  or where every ranked run shows the same score.
* Runs over different datasets (content hash) get separate tables: `table3`, then
  `table3-d2`, … Each caption names the dataset, the resamples and the seed.
* With `--out DIR` the tables are written there, one file per table (`table3.tex`,
  `table5.tex`, `table2.tex`; `.md`; `.csv`), each path printed; an existing file is
  kept unless `--overwrite`. Without it they go to stdout (CSV: one header, the `table`
  column tells the tables apart). Notes (skipped files, the offline judge's caveat) go to
  stderr.

LaTeX output is a `table` float (caption, `\label{tab:priviq-table3}`,
`tab:priviq-table5`, `tab:spatialtrust-table2`) around a booktabs `tabular`; every
character LaTeX reads as markup in a run label or dataset name is escaped. In the paper's
preamble:

```latex
\usepackage{booktabs}
% then, where the table goes:
\input{tables/table3.tex}
```

pdfLaTeX compiles it as is (labels outside Latin script need LuaLaTeX or XeLaTeX and a
font that has them). A cell with its interval is about twice as wide as the paper's, and
Table 5 has a column per combination (about twenty), so the tables are wider
than a page's text. The `tabular` is passed through a macro, `\privbenchfit`, that does
nothing unless the document defines it first; to scale every table to the text width:

```latex
\usepackage{graphicx}
\newcommand{\privbenchfit}[1]{\resizebox{\linewidth}{!}{#1}}
```

(or change the file's `table` to `table*` for both columns of a two-column paper).
Markdown is a GitHub pipe table after a bold caption line. CSV is long and numeric
([formats.md](formats.md#paper-tables)).
""",
    "audit": """
Trivial baselines, option-name leakage and distributions of one or more datasets
(default: both shipped suites); `--ocr` adds, for Priv-IQ, how much of each answer is
printed in the image; `--json`. Every figure: [audit.md](audit.md).
""",
    "report": """
One self-contained HTML report of the given logs (a directory contributes every privbench
log inside it).

`--ratings` and `--key` read ratings as [`agreement`](#privbench-agreement) does (rating
files, filled sheets, survey keys) and add the judge–human agreement section. They are
read and checked first: a file that cannot be used stops the report with one line naming
it, before anything is computed or written.
""",
    "agreement": """
Judge–human agreement ([formats.md](formats.md#ratings-and-rating-sheets)): ICC
(pingouin's ICC2), Spearman ρ and p, MAE, agreement rate, Bland–Altman bias and 95 %
limits, per survey, their average and all items pooled. Reads the rating files raters
downloaded from a blind form (one per rater, any number), filled CSV sheets, or both; the
judge's scores of a blind survey come from its key.

Human scores above 1 without `--scale` (0–10 ratings read on 0–1) stop with one line
saying to rerun with `--scale 10`. A rating file rated on another scale than `--scale`, a
rating file of a survey no key covers, an item the key does not hold and a rater rating an
item twice (the same file given twice) are one-line errors naming the file and field.
""",
    "survey export": """
A **blind** rating form of randomly drawn graded Priv-IQ samples, for validating a judge
against people ([review.md](review.md#blind-ratings-for-the-judge-study)). Writes into `--out`:

```
OUT/for_raters/survey.html   the form raters open offline: send this folder
OUT/for_raters/survey.csv    the same items as a blank sheet (no judge, no model)
OUT/survey_key.json          researcher only: opaque id → run, item, judge score
```

Items are shuffled and named by opaque ids drawn from `--seed` and `--survey`; nothing a
rater gets names a model, the judge or a judge score.
""",
    "survey collect": """
The ratings a served form saved (a lab study, [review.md](review.md#blind-ratings-for-the-judge-study)) as
rating files, one per survey and rater, in `--out` (default `ratings`), for `agreement`.
""",
}
SECTIONS: dict[str, str] = {
    "Conventions": """
* **Models** are named as inspect names them: `openai/gpt-4o`, `anthropic/…`,
  `google/…`, `vllm/…`, `ollama/…`, or `openai-api/<name>/<model>` for any
  OpenAI-compatible server, which reads `<NAME>_BASE_URL` and `<NAME>_API_KEY`.
  `privbench/ocr-pii` is the local baseline ([baseline.md](baseline.md)).
* **The judge** (`--judge`) is any such model, or `offline` for the rule-based judge
  ([judge.md](judge.md)). Default: `openai/gpt-4o` (`demo`: `offline`).
* **`--data DIR`** defaults to the shipped suite of the benchmark. `--data priviq` (and
  `validate priviq`, `audit priviq`) means the public Priv-IQ release downloaded by
  `privbench download priviq`, unless a folder named `priviq` exists in the working
  directory: that folder is then used, with a note on stderr saying where the release is.
* **`--json`** prints one JSON document on stdout and nothing else
  ([formats.md](formats.md#json-documents)).
* **Exit codes**: 0 success; 1 bad input or a run that did not complete (items failed
  after retries, exports not written); 2 a usage error (an unknown option value, a path
  that cannot be used); 130 interrupted (Ctrl-C, SIGTERM). An error is one line on stderr,
  `error: …`, naming the file and item (or line) where there is one; no traceback unless
  `PRIVBENCH_DEBUG=1` is set.
* **Before anything is paid**, `--out` and `--log-dir` are created and test-written, and
  the model and the judge each get one tiny request; an unreachable endpoint is one error
  line naming the model, its base URL and the cause.
""",
    "Run labels (`--label`)": """
Every run has a **label**, its display name: the title of the terminal tables, `label` in
`--json`, the `{model}` part of the export file names, and the run's name in `show` and
`report`. `--label NAME` on `eval` and `grade` sets it; it is recorded in the run's log,
so `show LOG` and `report` name the run the same way later (`show --model-name` and
`report --label` only change how that one command shows it). A resumed run keeps the
label it was started with (`--label` with `--resume` is refused). In a report that holds SpatialTrust runs of more than one strategy, every run's
label is followed by its strategy (`mine [guard]`) unless the label already names it as a
word (`gpt-4o guard`). Without `--label`, the
label is the model:

* `eval`: the model under test (`--model`), so exports keep the reference evaluator's
  `{model}_{judge}` names.
* `grade`: the model that made the answers, which is also `model` in `--json`:
  `--model-name NAME` if given; else, for Priv-IQ, the `"model"` the `results.json` holds
  ([formats.md](formats.md#priv-iq-answers-resultsjson)); else the name of the file, less
  a `-results`/`_results` (or `predictions`, `preds`, `answers`, `outputs`) ending:
  `results/gpt-4o.json` (the reference inference scripts') and `gpt-4o-results.json`
  (what `eval priviq --out` writes) are `gpt-4o`. A file whose name is only such a word
  (`results.json`, `preds.jsonl`) names no model: its folder's name is used
  (`runs/llava-13b/results.json` → `llava-13b`) unless that is generic too (`results`,
  `out`, `data`, `tmp`, …), and then the label is `graded answers`. The name is fixed
  when the run starts and recorded in its log.

`--model-name` says *which model* answered; `--label` says *what to call this run* (two
runs of one model with different prompts, say). With both, tables and file names use the
label and `--json` has both (`model`, `label`).
""",
    "Generation options": """
The options that shape each call, on the commands that call a model, as their tables list
them: `--temperature` (the model under test's; the judge's is `--judge-temperature`),
`--seed` (sampling seed for the model and the judge), `--max-tokens` (the model under
test's output limit; default the provider's), `--max-retries` (retries per call),
`--timeout` (seconds per attempt of a call), `--cache` (inspect's model cache: a rerun of
the same calls is free) and `--batch` (provider batch APIs where inspect supports them).
""",
    "Cost options: `--dry-run`, `--price`, `--judge-price`": """
On every command that calls a model (`eval priviq`, `eval spatialtrust`, `grade priviq`,
`grade spatialtrust`, `judge check`, `demo`, and `build spatialtrust` with a `--drafter`
model).
Counts, token rules and the price table: [cost.md](cost.md).

A finished run's summary gives its token totals per role and their cost at the same
prices (`tokens: model … in / … out; judge …`, `cost: …`); `--json` has `cost_usd`.
""",
    "inspect tasks": r"""
privbench registers five tasks with inspect:

```bash
inspect eval privbench/priviq -T data=DIR [-T judge_runs=N] [-T protocol=hardened] [-T judge=offline] \
    --model M --model-role grader=J
inspect eval privbench/priviq_grade -T predictions=results.json [-T data=DIR] [-T grades=FILE] \
    --model none/none --model-role grader=J
inspect eval privbench/spatialtrust [-T data=DIR] [-T strategy=guard] [-T box_format=F] [-T reask_unparsed=N] \
    --model M --model-role grader=J
inspect eval privbench/spatialtrust_grade -T predictions=preds.jsonl [-T data=DIR] [-T box_format=F] \
    --model none/none --model-role grader=J
inspect eval privbench/spatialtrust_draft -T captures=.OUT.partial [-T box_format=F] --model M
```

`spatialtrust_draft` is the drafting step of `build spatialtrust` on a build's staging folder
(its `build.json` lists the captures); `build spatialtrust --resume LOG` finishes a build
from such a log.

Without `-T data` the shipped suite is used. The judge is `-T judge=…` if given, else the
`grader` model role, else `openai/gpt-4o`. Other task arguments: `max_tries` (judge tries
before a run or question is unscored) and `cache`; for the SpatialTrust tasks,
`allow_drafts` (`-T allow_drafts=true`): without it a dataset with images not reviewed by
a person is refused, as `eval spatialtrust` refuses it without `--allow-drafts`; for
`priviq_grade`, `reuse_unverified_grades` (`-T reuse_unverified_grades=true`, as
`--reuse-unverified-grades`). A run's label is inspect's `--metadata label=NAME` (and a
grade run's model `--metadata graded_model=NAME`). `privbench show LOG` prints the tables
of such a log.
""",
}
INTRO = """
# Commands

Every command and option of `privbench`, and the inspect tasks it registers.
`privbench COMMAND --help` prints the same options with their defaults. File formats:
[formats.md](formats.md).

This page is generated from the command definitions: `make docs` (or `python -m
privbench.command_docs > docs/commands.md`) writes it again after a command changes.
"""


def _kind(param: TyperOption, ctx: Context) -> str:
    """``PATH``, ``N``, ``X`` or ``TEXT``: what the option takes (typer's ``<int range>``,
    ``<list[Path]>``… reduced to the value's kind)."""
    shown = str(param.display_type(ctx)).strip("<>").lower()
    for name, kind in VALUE_KINDS.items():
        if name in shown:
            return kind
    return shown.upper()


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _default(param: Parameter) -> str:
    if param.required:
        return "required"
    value = param.default
    if value is None or value is False or value == [] or value == ():
        return ""
    return "on" if value is True else f"`{value}`"


def _range(param: Parameter) -> str:
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    parts = [f"≥ {low:g}"] if low is not None else []
    parts += [f"≤ {high:g}"] if high is not None else []
    return f" ({', '.join(parts)})" if parts else ""


def _argument(param: Parameter) -> str:
    return str(param.name).upper() + ("..." if param.nargs == -1 else "")


def _row(param: Parameter, ctx: Context) -> str:
    """One table row: the option's names and value, its default, its help."""
    if isinstance(param, TyperArgument):
        return f"| `{_argument(param)}` | {_default(param)} | {_cell(param.help or '')} |"
    assert isinstance(param, TyperOption), f"{param.name}: not a typer option"
    is_flag = param.display_type(ctx) == "<bool>"
    opts = [*param.opts, *param.secondary_opts]
    opts[-1] += "" if is_flag else f" {_kind(param, ctx)}"
    names = ", ".join(f"`{o}`" for o in opts)
    repeat = " (repeatable)" if param.multiple else ""
    default = _default(param) or ("off" if is_flag else "")
    return f"| {names}{repeat} | {default} | {_cell(param.help or '')}{_range(param)} |"


def commands() -> dict[str, Any]:
    """Every visible command by its path (``eval priviq``), in definition order (Any:
    readers use the attributes typer's command classes add to click's)."""
    found: dict[str, Any] = {}

    def walk(group: TyperGroup, prefix: str) -> None:
        # list_commands/get_command: the eval and grade groups build their commands
        context = group.context_class(group, info_name=prefix.strip() or "privbench")
        for name in group.list_commands(context):
            command = group.get_command(context, name)
            if getattr(command, "hidden", False):
                continue
            if isinstance(command, TyperGroup):
                walk(command, f"{prefix}{name} ")
            else:
                found[f"{prefix}{name}"] = command

    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup), "privbench's app is a group of commands"
    walk(root, "")
    return found


def _usage(path: str, command: Command) -> str:
    arguments = [
        _argument(p) if p.required else f"[{_argument(p)}]"
        for p in command.params
        if p.param_type_name == "argument"
    ]
    return " ".join([f"privbench {path}", "[OPTIONS]", *arguments])


def command_section(path: str, command: Command) -> str:
    """One command: heading, usage, its help, the options table, then its prose."""
    ctx = command.context_class(command, info_name=path.split()[-1])
    params = [p for p in command.params if not getattr(p, "hidden", False)]
    lines = [f"## `privbench {path}`", "", f"`{_usage(path, command)}`", ""]
    lines += [" ".join((command.help or "").split()), ""]
    if params:
        lines += ["| option | default | |", "|---|---|---|"]
        lines += [_row(p, ctx) for p in params]
        lines.append("")
    if path in PROSE:
        lines += [PROSE[path].strip(), ""]
    return "\n".join(lines)


def render() -> str:
    """The whole page: the introduction, then :data:`ORDER` (a command missing from it
    comes at the end, so that none is ever left out)."""
    found = commands()
    order = [*ORDER, *(path for path in found if path not in ORDER)]
    parts = [INTRO.strip(), ""]
    for entry in order:
        if entry in found:
            parts.append(command_section(entry, found[entry]))
        elif entry in SECTIONS:
            parts += [f"## {entry}", "", SECTIONS[entry].strip(), ""]
    return "\n".join(parts).rstrip() + "\n"


def main() -> None:
    """Print the page (``python -m privbench.command_docs > docs/commands.md``)."""
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
