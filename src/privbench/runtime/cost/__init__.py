"""Cost before paying: how many calls a command will make, how many tokens, what it costs.

Why here, at the bottom: both benchmarks, the judge check and the dataset build plan their
calls with the same pieces — a token estimate for text and images (:mod:`.tokens`), the
shipped price table and ``--price`` overrides (:mod:`.prices`), and the plan with its
``--dry-run`` document (:mod:`.plan`). Everything here is a pure function of plain values;
the benchmarks read their data and call in.
"""
