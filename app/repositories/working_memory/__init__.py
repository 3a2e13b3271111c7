"""Working memory storage: the durable transcript (PostgreSQL) and the hot window (Redis)."""
