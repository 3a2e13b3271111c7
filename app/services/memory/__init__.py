"""Memory units: the write path (dedupe, conflicts, TTL), recall and its scoring."""
