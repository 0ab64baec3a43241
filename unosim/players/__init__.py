"""The Python side of the players: strategy and expert parameters, seat labels."""
