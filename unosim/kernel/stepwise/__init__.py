"""The game one decision at a time: turns, hidden information, tensors."""
