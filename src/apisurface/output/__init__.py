"""Rendering reports: text, Markdown, JSON, CI formats, HTML, explanations."""
