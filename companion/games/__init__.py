"""One folder per game, each holding that game's rules as pure functions (see base.py)."""
