"""The built-in players' decisions: the decision points, picking a card, scoring a hand."""
