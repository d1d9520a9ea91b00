"""The package's version, read from its installed metadata (``pyproject.toml`` writes it once)."""

from importlib.metadata import version

__all__ = ["__version__"]

__version__ = version("mtcompute")
