"""The package's version: the one place it is written. ``pyproject.toml`` reads it from here
(``[tool.setuptools.dynamic]``), so the installed package metadata says the same
(``importlib.metadata.version("mtcompute")``, which a test compares).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
