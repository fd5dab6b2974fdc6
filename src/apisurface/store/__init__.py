"""Persistence: snapshot files, the analysis cache, atomic writes."""
