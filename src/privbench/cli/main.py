"""The ``privbench`` command line: every command group, in the order ``--help`` lists it.

A thin layer over the Python API: each module of :mod:`privbench.cli` declares the
options of one command group and prints what the API returns (see
:mod:`privbench.cli.output` for ``--json``, errors and exit codes).
"""

from __future__ import annotations

import typer

from privbench.cli import (
    agreement,
    build,
    dataset,
    demo,
    diff,
    eval_grade,
    generate,
    judge,
    leaderboard,
    report,
    review,
    show,
    survey,
)
from privbench.cli.declared_help import DeclaredHelp

app = typer.Typer(
    name="privbench",
    help="Measure how well (multimodal) language models handle privacy.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _group(help_text: str, cls: type[typer.core.TyperGroup] | None = None) -> typer.Typer:
    """One command group: each lists its subcommands when called without one."""
    return typer.Typer(cls=cls, help=help_text, no_args_is_help=True)


grade_app = _group("Grade answers a model produced elsewhere.", eval_grade.GradeCommands)
survey_app = _group("Rating sheets for judge–human agreement studies.")
eval_app = _group("Run a model on a benchmark and grade its answers.", eval_grade.EvalCommands)
generate_app = _group("Generate benchmark suites in the two formats.", generate.GenerateCommands)
build_app = _group("Make a benchmark dataset from your own captures.")
judge_app = _group("Check a judge against reference grades before trusting its scores.")
download_app = _group(
    "Download a benchmark's public release (then use it with --data priviq).",
    generate.DownloadCommands,
)
review_app = _group(
    "Review a built dataset's annotations in the browser (privbench review DIR).",
    review.ServeByDefault,
)

app.add_typer(grade_app, name="grade")
app.add_typer(eval_app, name="eval")
app.add_typer(survey_app, name="survey")
app.add_typer(generate_app, name="generate")
app.add_typer(build_app, name="build")
app.add_typer(judge_app, name="judge")
app.add_typer(download_app, name="download")
app.add_typer(review_app, name="review")

app.command()(dataset.validate)
app.command(cls=DeclaredHelp)(dataset.audit)
app.command(cls=DeclaredHelp)(show.show)
build.add_commands(build_app)
review_app.command("serve", cls=DeclaredHelp)(review.review_serve_command)
app.command(cls=DeclaredHelp)(report.report)
app.command()(diff.diff)
app.command()(leaderboard.leaderboard)
app.command()(agreement.agreement)
survey_app.command("export", cls=DeclaredHelp)(survey.survey_export)
survey_app.command("collect")(survey.survey_collect)
app.command()(demo.demo)
review_app.command("export")(review.review_export_command)
judge_app.command("check", cls=DeclaredHelp)(judge.judge_check_command)


def main() -> None:
    """Console-script entry point (collections tuned for one short command)."""
    from privbench.runtime.gc_tuning import command_process

    with command_process():
        app()
