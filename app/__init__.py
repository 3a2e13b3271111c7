"""Hindsight: a long-term memory service for LLM agents."""

__version__ = "0.1.0"
