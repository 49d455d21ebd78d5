"""What a privbench run records in its inspect log, as typed models every reader shares.

Why typed records: the scorers write a score's metadata and the tasks write the run's
identity; the terminal tables, the exports, ``show``, the analysis tables and the report
all read them back. Decoding those dicts by hand in each reader let the readers drift
apart (one counted a judge's replies per run, another once per sample). Each record is a
pydantic model: written with :meth:`~pydantic.BaseModel.model_dump`, read with
``from_score`` / ``from_log``, which also accept the shapes older privbench versions
logged, so old logs stay readable.

Here live the records every benchmark shares, one meaning per module:

- :mod:`.base`: the record base classes, the logged sample, inspect's thinned values;
- :mod:`.benchmark`: the benchmarks a log can belong to (and how an older log says so);
- :mod:`.call_counts`: retried calls and replaced replies of one sample;
- :mod:`.task`: what a task writes into its log's header (:class:`~.task.TaskRecord`);
- :mod:`.identity`: the run's identity as every reader reads it (:class:`~.identity.RunIdentity`);
- :mod:`.judge_card`: the judge card and its one check (:func:`~.judge_card.check_card`);
- :mod:`.judge_agreement`: the card's figures a run records, and their sentences;
- :mod:`.versions`: the model versions the providers reported.

Each benchmark's score records live in its own folder (``privbench.suites.<name>.record``);
the names a run is shown and exported under in :mod:`privbench.runtime.run_names`.
"""
