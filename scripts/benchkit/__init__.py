"""Shared pieces of the benchmark scripts under ``scripts/`` (scripts/README.md lists them):
timing and percentiles (:mod:`benchkit.timing`), the service in a subprocess
(:mod:`benchkit.server`), tables and the common options (:mod:`benchkit.report`), the
generated sections of docs/ (:mod:`benchkit.docsection`) and the embedder floor
(:mod:`benchkit.embed_floor`)."""
