"""The package version: the one source pyproject.toml reads."""

__version__ = "0.1.0"
