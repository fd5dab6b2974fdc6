"""Comparing two surfaces: diff, classify by the rule table, recommend the bump, report."""
