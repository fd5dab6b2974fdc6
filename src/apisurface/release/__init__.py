"""Release workflows on compare: inputs, check, release-check, impact, migrate."""
