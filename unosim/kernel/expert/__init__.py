"""The searching player: its rounds, deals, moves, parameters, search and value."""
