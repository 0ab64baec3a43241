"""Cards and rules: what a game is, as data."""
