"""Leaves of the import graph: config, db, errors, text, embedded PostgreSQL."""
