"""Comparisons, tournaments, tuning and challenge studies over simulated games."""
