"""Whole rounds, chunks of games, matches and their aggregates."""
