"""The entity graph over memory units: names, aliases, upkeep on the write path, profiles."""
