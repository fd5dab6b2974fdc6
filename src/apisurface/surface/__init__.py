"""Building the public surface: visit each module, link them, apply POLICY section 2."""
