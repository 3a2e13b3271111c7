"""SQL of memory units and the tables around them (access log, links, distillation state)."""
