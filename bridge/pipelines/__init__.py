"""The runs: export, import, sync and follow, with their sources and their state."""
