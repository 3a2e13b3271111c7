"""After the write: listing and correcting units, distillation, consolidation, forgetting."""
