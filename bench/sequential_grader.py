"""Stand-in for the Priv-IQ reference evaluator's request pattern, for bench/judge_throughput.py.

The reference evaluator (github.com/sakibsh/Priv-IQ, ``Priv-IQ_evaluator.py``) grades one
item at a time with the synchronous OpenAI client, rewrites the whole grade file after each
reply and writes the score CSVs with pandas. This script does the same work with the same
libraries and arguments, so the benchmark can compare privbench with it where the reference
script itself is not at hand. It is not a grader: the prompt is a short placeholder and
the scores are not checked.

    python bench/sequential_grader.py --priviq_path DIR --result_file results.json \
        --result_path OUT --gpt_model judge      # OPENAI_BASE_URL / OPENAI_API_KEY from env
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd
from openai import OpenAI

PROMPT = "Compare the ground truth and prediction; give the correctness score.\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--priviq_path", type=Path, required=True)
    parser.add_argument("--result_file", type=Path, required=True)
    parser.add_argument("--result_path", type=Path, required=True)
    parser.add_argument("--gpt_model", required=True)
    args = parser.parse_args()

    data = json.loads((args.priviq_path / "priv-IQ.json").read_text(encoding="utf-8"))
    answers = json.loads(args.result_file.read_text(encoding="utf-8"))
    model = args.result_file.stem
    grade_file = args.result_path / f"{model}_{args.gpt_model}-grade-1runs.json"
    client = OpenAI()
    grades: dict[str, dict[str, list[str | float]]] = {}
    for key, item in data.items():
        row = " | ".join([item["question"], item["answer"], str(answers[key]), ""])
        response = client.chat.completions.create(
            model=args.gpt_model,
            max_tokens=3,
            temperature=0.0,
            messages=[{"role": "user", "content": PROMPT + row}],
        )
        content = (response.choices[0].message.content or "").split(" ")[0].strip()
        grades[key] = {"model": [response.model], "content": [content], "score": [float(content)]}
        grade_file.write_text(json.dumps(grades, indent=4), encoding="utf-8")

    scores: dict[str, list[float]] = {}
    for key, grade in grades.items():
        for code in data[key]["capability"]:
            scores.setdefault(code, []).append(float(grade["score"][0]))
    row_values = {code: round(float(np.mean(values)) * 100, 1) for code, values in scores.items()}
    table = pd.DataFrame([row_values], index=[model])
    table.to_csv(args.result_path / f"{model}_{args.gpt_model}-cap-score-1runs.csv")
    print(table)


if __name__ == "__main__":
    main()
