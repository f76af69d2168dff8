"""The one source of fgrad's version number (read by pyproject.toml and `fgrad.__version__`)."""

__version__ = "0.1.0"
__version_info__ = tuple(int(part) for part in __version__.split(".")[:3])
