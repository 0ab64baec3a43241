"""What a play may be and what it does: legality, effects, pending draws, outcomes,
declared cards, rule families."""
