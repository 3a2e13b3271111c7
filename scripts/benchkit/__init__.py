"""Shared pieces of the benchmark scripts under ``scripts/``: timing and percentiles
(:mod:`benchkit.timing`), the service in a subprocess (:mod:`benchkit.server`), the generated
sections of docs/BENCHMARKS.md (:mod:`benchkit.docsection`) and the embedder floor
(:mod:`benchkit.embed_floor`)."""
