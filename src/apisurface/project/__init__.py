"""Reading the world: locate the package, its config, files, archives, index pages and git."""
