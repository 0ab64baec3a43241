"""The `unosim` command."""

from .app import main

__all__ = ["main"]
