"""The package version: the one source pyproject.toml reads."""

__version__ = "0.2.0"
