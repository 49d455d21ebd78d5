"""The benchmarks privbench evaluates, one package per suite."""
