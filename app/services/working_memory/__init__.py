"""Working memory: the per-session window, its ranking into a budget, task closure."""
