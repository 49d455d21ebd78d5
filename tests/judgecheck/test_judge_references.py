"""Reference grade files and the shipped calibration set that ``privbench judge check`` grades.

The reader is checked on every accepted form and on every defect a file can have (each named
by file, line and field, all in one error); the shipped set on its size, parts, hash and the
parts the offline judge was tuned on; its dataset card on every count and figure, recomputed
here from the files, so a wrong number in the card fails.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from pathlib import Path
from statistics import fmean
from types import SimpleNamespace

import pandas as pd
import pytest
from helpers.paths import REPO

from privbench.agreement_measures import mean_absolute_error, share_within, spearman
from privbench.analysis import survey
from privbench.analysis.rating_files import KEY_FILE, RATERS_FOLDER, rating_document
from privbench.analysis.survey import FORM_FILE, SHEET_FILE, SurveyFiles, export_survey
from privbench.judgecheck.references import (
    SHIPPED_SET_NAME,
    ReferenceItem,
    calibration_parts,
    parse_reference_line,
    read_reference_grades,
    reference_hash,
    shipped_calibration_set,
)
from privbench.judges.choice import OFFLINE_JUDGE as OFFLINE
from privbench.judges.offline.measured_agreement import (
    BETWEEN_GRADERS,
    GRADED_FILES,
    SECOND_GRADER,
    UNSEEN,
)
from privbench.runtime.errors import DatasetError
from privbench.shipped import JUDGE_CALIBRATION
from privbench.suites.priviq.competencies import COMPETENCIES

ROOT = REPO
CARD = JUDGE_CALIBRATION / "README.md"
PARTS = json.loads((JUDGE_CALIBRATION / "parts.json").read_text(encoding="utf-8"))
PRIVIQ_PARTS = [entry["part"] for entry in PARTS["priviq"]]

LINE = {"question": "Which article?", "reference": "Article 33.", "prediction": "Art. 33"}


def _write(path: Path, *lines: object) -> Path:
    path.write_text(
        "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n",
        encoding="utf-8",
    )
    return path


def _error(paths: list[Path]) -> DatasetError:
    with pytest.raises(DatasetError) as caught:
        read_reference_grades(paths)
    return caught.value


# --- JSONL ---------------------------------------------------------------------------------


def test_jsonl_lines_with_a_score_or_scores(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "refs.jsonl",
        {**LINE, "id": "a", "score": 1, "competency": "CntxPriv+VizPriv", "style": "ignored"},
        "",
        {**LINE, "scores": [0.5, 0.7], "competency": ["Law", "general privacy knowledge"]},
        {**LINE, "id": "c", "prediction": "", "score": 0.0},
    )
    got = read_reference_grades([path])
    assert got.name == "refs.jsonl" and got.left_out == {}
    a, line3, c = got.items
    assert a == ReferenceItem(
        "a", LINE["question"], LINE["reference"], "Art. 33", (1.0,), ("VizPriv", "CntxPriv")
    )
    assert line3.id == "line-3" and line3.scores == (0.5, 0.7)
    assert line3.score == pytest.approx(0.6) and line3.competencies == ("Law", "Know")
    assert c.prediction == "" and c.competencies == () and c.part is None
    assert len(got.hash) == 16 and got.hash == reference_hash(got.items)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{not json", ":1:2: invalid JSON"),
        ("[1, 2]", ":1: the line is a list, not a JSON object"),
        ({"reference": "r", "prediction": "p", "score": 1}, ":1: item line-1: field 'question' is missing"),
        ({**LINE, "question": 7, "score": 1}, "field 'question' must be a string, not a number"),
        ({**LINE, "reference": "  ", "score": 1}, "field 'reference' is empty"),
        ({**LINE, "prediction": None, "score": 1}, "field 'prediction' must be a string, not null"),
        (LINE, "field 'score' is missing"),
        ({**LINE, "score": 1.2}, "field 'score' 1.2 is outside 0–1"),
        ({**LINE, "score": -0.1}, "field 'score' -0.1 is outside 0–1"),
        ('{"question": "q", "reference": "r", "prediction": "p", "score": NaN}', "field 'score' nan is not a finite number"),
        ({**LINE, "score": True}, "field 'score' must be a number in 0–1, not a boolean"),
        ({**LINE, "score": "0.5"}, "field 'score' must be a number in 0–1, not a string"),
        ({**LINE, "scores": []}, "field 'scores' is an empty list: give at least one grade"),
        ({**LINE, "scores": 0.5}, "field 'scores' must be a list of numbers in 0–1 (one per rater), not a number"),
        ({**LINE, "score": 1, "id": " "}, ":1: field 'id' is empty"),
        ({**LINE, "scores": [0.5, False]}, "field 'scores[1]' must be a number in 0–1, not a boolean"),
        ({**LINE, "score": 1, "scores": [1]}, "'score' and 'scores' are both given"),
        ({**LINE, "score": 1, "competency": "Law+Lore"}, "field 'competency' unknown competency 'Lore'"),
        ({**LINE, "score": 1, "competency": 3}, "field 'competency' must be a string such as"),
        ({**LINE, "score": 1, "id": 5}, ":1: field 'id' must be a non-empty string, not a number"),
    ],
)  # fmt: skip
def test_each_defect_names_file_line_and_field(tmp_path: Path, line: object, expected: str) -> None:
    path = _write(tmp_path / "refs.jsonl", line)
    message = str(_error([path]))
    assert message.startswith(f"{path}:1") and expected in message, message
    assert "\n" not in message and "Traceback" not in message


def test_every_problem_of_every_file_in_one_error(tmp_path: Path) -> None:
    first = _write(tmp_path / "a.jsonl", {**LINE, "id": "x", "score": 2}, {**LINE, "id": "y"})
    second = _write(tmp_path / "b.jsonl", {**LINE, "id": "z", "score": 1, "competency": "Foo"})
    error = _error([first, second])
    assert [str(p) for p in error.problems] == [
        f"{first}:1: item x: field 'score' 2 is outside 0–1",
        f"{first}:2: item y: field 'score' is missing (or give 'scores', one per rater)",
        f"{second}:1: item z: field 'competency' unknown competency 'Foo' (known: "
        + ", ".join(COMPETENCIES)
        + ")",
    ]
    assert "(and 2 more" in str(error)


def test_duplicate_ids_within_and_across_files(tmp_path: Path) -> None:
    first = _write(tmp_path / "a.jsonl", {**LINE, "id": "x", "score": 1})
    second = _write(tmp_path / "b.jsonl", {**LINE, "score": 1}, {**LINE, "id": "x", "score": 0})
    assert str(_error([first, second])) == f"{second}:2: item x: duplicate id (also at {first}:1)"
    # two files without ids: their default ids meet, and the error says which lines
    assert "item line-1: duplicate id" in str(_error([second, second]))


def test_empty_missing_and_unreadable_files(tmp_path: Path) -> None:
    empty = _write(tmp_path / "empty.jsonl", "", "  ")
    assert str(_error([empty])).startswith(f"{empty}: empty: no lines")
    assert str(_error([tmp_path / "nope.jsonl"])) == f"{tmp_path / 'nope.jsonl'}: file not found"
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8 text" in str(_error([binary]))
    assert "a folder" in str(_error([tmp_path]))
    assert str(_error([])) == "reference grades: no file given"


def test_the_hash_is_order_independent_and_follows_every_grade(tmp_path: Path) -> None:
    rows = [{**LINE, "id": f"i{n}", "score": n / 10} for n in range(5)]
    forward = read_reference_grades([_write(tmp_path / "f.jsonl", *rows)])
    backward = read_reference_grades([_write(tmp_path / "b.jsonl", *reversed(rows))])
    assert forward.hash == backward.hash and forward.name != backward.name
    regraded = [dict(row) for row in rows]
    regraded[3]["score"] = 0.4
    other = read_reference_grades([_write(tmp_path / "r.jsonl", *regraded)])
    assert other.hash != forward.hash
    assert parse_reference_line({**LINE, "score": 1}, "f:1", "line-1")[1] == []


# --- the blind human study -----------------------------------------------------------------

TEXTS = {
    f"v{n}": (f"Question {n}?", f"Reference {n} <AND> detail.", f"N/A answer {n}") for n in range(4)
}


@pytest.fixture
def study(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SurveyFiles:
    """A survey exported by ``survey export`` itself, from graded samples given in place of
    logs (what the export reads of them: run, item, judge score, texts, image, competencies)."""
    graded = pd.DataFrame(
        [
            {"run": run, "item": item, "score": 0.5, "question": q, "reference": r, "answer": a}
            | {"image": "", "competencies": ["VizPriv"]}
            for run in ("m1", "m2")
            for item, (q, r, a) in TEXTS.items()
        ]
    )
    monkeypatch.setattr(survey, "load_results", lambda logs: SimpleNamespace(priviq=graded))
    return export_survey([tmp_path / "logs"], tmp_path / "study", n=4, seed=3, raters=2, scale=10)


def _payload(files: SurveyFiles) -> list[dict[str, str]]:
    items = survey.payload_of_form(files.form.read_text(encoding="utf-8"))["items"]
    assert isinstance(items, list)
    return items


def test_the_filled_blind_sheet_gives_texts_and_every_raters_score(study: SurveyFiles) -> None:
    sheet = pd.read_csv(study.sheet, dtype=str, keep_default_na=False)
    ids = list(dict.fromkeys(sheet["item_id"]))
    scores = {("rater1", ids[0]): "7", ("rater2", ids[0]): "9", ("rater1", ids[1]): "4.5"}
    sheet["score"] = [
        scores.get((r, i), "") for r, i in zip(sheet["rater"], sheet["item_id"], strict=True)
    ]
    sheet.to_csv(study.sheet, index=False)
    got = read_reference_grades([study.sheet])  # the key beside it says 0–10
    assert [item.id for item in got.items] == ids[:2]  # items nobody rated are left out
    first = {item["id"]: item for item in _payload(study)}[ids[0]]
    assert got.items[0].scores == (0.7, 0.9) and got.items[1].scores == (0.45,)
    assert (got.items[0].question, got.items[0].reference, got.items[0].prediction) == (
        first["question"],
        first["reference"],
        first["answer"],
    )
    assert got.items[0].prediction.startswith("N/A answer")  # verbatim, not read as missing
    # without the key the scale is 0–1, and a 7 says what is missing
    (study.key).rename(study.key.with_suffix(".bak"))
    message = str(_error([study.sheet]))
    assert re.match(
        rf"{re.escape(str(study.sheet))}:\d+: item k-\w+: field 'score' 7.0 is outside 0–1", message
    )
    assert f"no {KEY_FILE} beside the sheet" in message


def test_rating_files_take_their_texts_from_the_form(study: SurveyFiles, tmp_path: Path) -> None:
    ids = [item["id"] for item in _payload(study)]
    raters = study.form.parent
    for rater, shift in (("P2", 1), ("P1", 0)):
        ratings = {opaque: float(n + shift) for n, opaque in enumerate(ids[:3])}
        document = rating_document(study.survey, rater, 10, {**ratings, ids[3]: None})
        (raters / f"ratings-{rater}.json").write_text(json.dumps(document), encoding="utf-8")
    files = [raters / "ratings-P2.json", raters / "ratings-P1.json"]
    got = read_reference_grades(files)  # the form lies beside them, in for_raters
    assert [item.id for item in got.items] == ids[:3]
    assert [item.scores for item in got.items] == [(0.0, 0.1), (0.1, 0.2), (0.2, 0.3)]
    assert got.name == "ratings-P2.json + ratings-P1.json"
    # elsewhere, the form is given with them
    moved = tmp_path / "back"
    moved.mkdir()
    for path in files:
        path.rename(moved / path.name)
    again = read_reference_grades([study.form, *(moved / path.name for path in files)])
    assert again.hash == got.hash
    alone = str(_error([moved / "ratings-P1.json"]))
    assert alone == (
        f"{moved / 'ratings-P1.json'}: holds ratings but not the texts they rate: pass the "
        f"survey's {RATERS_FOLDER}/{FORM_FILE} with it (or the filled {SHEET_FILE} instead)"
    )
    twice = str(_error([study.form, moved / "ratings-P1.json", moved / "ratings-P1.json"]))
    assert "rater 'P1' rates this survey in" in twice


def test_what_cannot_give_reference_grades_says_what_to_pass(
    study: SurveyFiles, tmp_path: Path
) -> None:
    key = str(_error([study.key]))
    assert key.startswith(f"{study.key}: a survey key holds the judge's scores, not reference")
    assert f"pass the filled {RATERS_FOLDER}/{SHEET_FILE}" in key
    form = str(_error([study.form]))
    assert form == (
        f"{study.form}: holds the texts but no ratings: pass the raters' rating files with it "
        f"(or the filled {SHEET_FILE} instead)"
    )
    long = tmp_path / "ratings.csv"
    long.write_text("item_id,rater,score\nv1,alice,0.5\n", encoding="utf-8")
    assert "ratings without the texts they rate" in str(_error([long]))
    blank = str(_error([study.sheet]))
    assert blank == f"{study.sheet}: no item has a human score (column 'score')"
    page = tmp_path / FORM_FILE
    page.write_text("<html></html>", encoding="utf-8")
    assert "not a survey form written by survey export" in str(_error([page]))


# --- the shipped calibration set -----------------------------------------------------------


def test_the_shipped_set_holds_every_part_once() -> None:
    got = shipped_calibration_set()
    assert got.name == SHIPPED_SET_NAME == PARTS["name"] and got.left_out == {}
    counts = Counter(item.part for item in got.items)
    assert list(counts) == PRIVIQ_PARTS
    assert counts == {part.part: part.rows for part in calibration_parts()}
    assert len(got.items) == 2053
    assert got.hash == shipped_calibration_set().hash
    twice = [item for item in got.items if len(item.scores) == 2]
    assert {item.part for item in twice} == set(SECOND_GRADER) and len(twice) == 320
    assert all(len(item.scores) == 1 for item in got.items if item.part not in SECOND_GRADER)
    assert all(item.competencies for item in got.items)


def test_leaving_out_the_parts_the_offline_judge_was_tuned_on() -> None:
    got = shipped_calibration_set(leave_out_tuned_on=OFFLINE)
    assert {item.part for item in got.items} == set(UNSEEN) and len(got.items) == 320
    assert got.left_out == {
        part.part: part.rows for part in calibration_parts() if part.part not in UNSEEN
    }
    assert sum(got.left_out.values()) == 2053 - 320
    assert got.hash != shipped_calibration_set().hash
    assert shipped_calibration_set(leave_out_tuned_on="openai/gpt-4o").left_out == {}


def test_parts_json_describes_the_files() -> None:
    for benchmark in ("priviq", "spatialtrust"):
        for part in calibration_parts(benchmark):
            lines = [line for line in part.file.read_text("utf-8").splitlines() if line.strip()]
            assert len(lines) == part.rows, part
            assert part.written_by and part.graded_by and set(part.tuned_on) <= {OFFLINE}
    for entry in PARTS["priviq"] + PARTS["spatialtrust"]:
        if entry["statement"] is not None:
            assert (JUDGE_CALIBRATION / entry["statement"]).is_file()
    shipped = {part.part: part.file for part in calibration_parts()}
    assert {part: GRADED_FILES[part] for part in shipped} == shipped
    assert [p.part for p in calibration_parts() if OFFLINE not in p.tuned_on] == list(UNSEEN)
    assert sorted(p.name for p in JUDGE_CALIBRATION.rglob("*.jsonl")) == sorted(
        p.file.name for b in ("priviq", "spatialtrust") for p in calibration_parts(b)
    )


def test_every_graded_priviq_file_has_the_reference_row_format() -> None:
    """The development sets in tests/data too: one row format for every graded file."""
    for path in GRADED_FILES.values():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            row = json.loads(line)
            assert {"answer", "grade"}.isdisjoint(row), (path, number)
            item, problems = parse_reference_line(row, f"{path}:{number}", f"line-{number}")
            assert problems == [] and item is not None and item.id == row["id"]
            assert all(round(score * 10) == pytest.approx(score * 10) for score in item.scores)


def test_the_calibration_set_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "data/**/*" in config["tool"]["setuptools"]["package-data"]["privbench"]
    assert JUDGE_CALIBRATION.is_relative_to(ROOT / "src" / "privbench" / "data")


# --- the dataset card: every number recomputed from the files --------------------------------

STYLES = ("gpt-4o", "claude", "gemini", "small-open", "llava-7b", "deepseek-vl-1.3b")
GRID = [n / 10 for n in range(11)]


def _rows(part: str) -> list[dict[str, object]]:
    path = JUDGE_CALIBRATION / "priviq" / f"{part}.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _first(row: dict[str, object]) -> float:
    scores = row.get("scores")
    return float(scores[0] if isinstance(scores, list) else row["score"])  # type: ignore[arg-type]


def _table(header: list[str], body: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in body]
    return "\n".join(lines)


def _codes(row: dict[str, object]) -> list[str]:
    return str(row["competency"]).split("+")


def card_tables() -> list[str]:
    """The card's tables as the files give them (``print("\\n\\n".join(card_tables()))``)."""
    rows = {part: _rows(part) for part in PRIVIQ_PARTS}
    everything = [row for part in PRIVIQ_PARTS for row in rows[part]]
    tuned = {p.part: ", ".join(p.tuned_on) or "—" for p in calibration_parts()}
    hard = {entry["part"]: "yes" if entry["hard"] else "" for entry in PARTS["priviq"]}

    def parts_row(name: str, some: list[dict[str, object]]) -> list[object]:
        pairs = len({(r["question"], r["reference"]) for r in some})
        kinds = len({r["kind"] for r in some})
        steering = sum("steering" in str(r["kind"]) for r in some)
        return [name, len(some), pairs, kinds, steering]

    header = ["part", "rows", "(question, reference) pairs", "kinds", "steering rows", "hard"]
    parts = _table(
        [*header, "tuned on"],
        [[*parts_row(p, rows[p]), hard[p], tuned[p]] for p in PRIVIQ_PARTS]
        + [[*parts_row("**all**", everything), "", ""]],
    )

    def competency_row(name: str, some: list[dict[str, object]]) -> list[object]:
        counts = Counter(code for r in some for code in _codes(r))
        return [name, *(counts[c] for c in COMPETENCIES), sum(len(_codes(r)) > 1 for r in some)]

    competencies = _table(
        ["part", *COMPETENCIES, "rows with 2+ codes"],
        [competency_row(p, rows[p]) for p in PRIVIQ_PARTS]
        + [competency_row("**all**", everything)],
    )

    def style_row(name: str, some: list[dict[str, object]]) -> list[object]:
        counts = Counter(str(r["style"]) for r in some)
        assert set(counts) <= set(STYLES)
        return [name, *(counts[s] or "" for s in STYLES)]

    styles = _table(
        ["part", *STYLES],
        [style_row(p, rows[p]) for p in PRIVIQ_PARTS] + [style_row("**all**", everything)],
    )

    def score_row(name: str, some: list[dict[str, object]]) -> list[object]:
        counts = Counter(round(_first(r), 1) for r in some)
        return [name, *(counts[g] for g in GRID), f"{fmean(_first(r) for r in some):.3f}"]

    scores = _table(
        ["part", *(f"{g:.1f}" for g in GRID), "mean"],
        [score_row(p, rows[p]) for p in PRIVIQ_PARTS] + [score_row("**all**", everything)],
    )
    spatial_rows = []
    for part in calibration_parts("spatialtrust"):
        lines = part.file.read_text("utf-8").splitlines()
        questions = Counter(json.loads(line)["question"] for line in lines if line.strip())
        tuned_on = ", ".join(part.tuned_on) or "—"
        spatial_rows.append([part.part, part.rows, questions["q4"], questions["q5"], tuned_on])
    spatial = _table(["part", "rows", "q4", "q5", "tuned on"], spatial_rows)
    return [parts, competencies, styles, scores, spatial]


def test_the_cards_tables_are_what_the_files_give() -> None:
    card = CARD.read_text(encoding="utf-8")
    for table in card_tables():
        assert table in card, f"the card lacks (or has other numbers than):\n{table}"


def _second_grading() -> dict[str, float]:
    rows = [row for part in SECOND_GRADER for row in _rows(part)]
    first = [float(row["scores"][0]) for row in rows]  # type: ignore[index]
    second = [float(row["scores"][1]) for row in rows]  # type: ignore[index]
    return {
        "n": len(rows),
        "rho": spearman(first, second)[0],
        "mae": mean_absolute_error(first, second),
        "within": share_within(first, second, 0.1),
        "identical": sum(a == b for a, b in zip(first, second, strict=True)),
        "second_lower": fmean(first) - fmean(second),
    }


def test_the_between_grader_figures_are_recomputed() -> None:
    got = _second_grading()
    recorded = PARTS["second_grading"]
    assert recorded["parts"] == list(SECOND_GRADER) and got["n"] == recorded["n"] == 320
    assert got["rho"] == pytest.approx(recorded["rho"], abs=5e-5)
    assert got["mae"] == pytest.approx(recorded["mae"], abs=5e-5)
    assert got["within"] == pytest.approx(recorded["within_0_1"], abs=5e-5)
    assert got["identical"] == recorded["identical"]
    assert (BETWEEN_GRADERS.rho, BETWEEN_GRADERS.mae, BETWEEN_GRADERS.within) == (
        recorded["rho"],
        recorded["mae"],
        recorded["within_0_1"],
    )
    sentence = (
        f"ρ {got['rho']:.4f}, MAE {got['mae']:.4f}, {100 * got['within']:.1f} % within ±0.1 "
        f"(n = {got['n']}); identical grades {got['identical']} "
        f"({100 * got['identical'] / got['n']:.1f} %); the second grader's mean is "
        f"{got['second_lower']:.3f} lower"
    )
    assert sentence in CARD.read_text(encoding="utf-8"), sentence


def test_the_card_counts_in_its_prose() -> None:
    """The totals the card states in words."""
    card = CARD.read_text(encoding="utf-8")
    total = sum(p.rows for p in calibration_parts())
    unseen = sum(p.rows for p in calibration_parts() if OFFLINE not in p.tuned_on)
    assert f"{total:,} graded answers in {len(PRIVIQ_PARTS)} parts" in card
    assert f"{unseen} answers" in card and f"{total - unseen:,} answers" in card
    assert "SPEC" not in card and not re.search(r"issue \d", card)
