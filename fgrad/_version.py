"""The one source of fgrad's version number (read by pyproject.toml and `fgrad.__version__`)."""

__version__ = "0.1.0"
