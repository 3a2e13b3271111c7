"""The job worker: claims queued jobs (pgqueuer, PostgreSQL) and runs them with the same
services the API uses; also runs periodic tasks (the silence scan of task closure).

``hindsight worker`` runs it as its own process; ``hindsight serve`` runs it in-process when
``WORKER__IN_PROCESS`` is true (by default exactly when DATABASE_URL is unset, the embedded
default)."""
