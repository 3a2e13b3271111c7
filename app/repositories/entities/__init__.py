"""SQL of the entity graph: writes (links on store, alias folds, upkeep after deletes) and
reads (lists, profiles, units linked to names)."""
