"""`fgrad.version`: the version number, as ``jax.version`` (``__version__``, the string, and
``__version_info__``, a tuple of ints).

Example::

    >>> import fgrad
    >>> fgrad.version.__version__ == fgrad.__version__
    True
    >>> isinstance(fgrad.version.__version_info__, tuple)
    True
"""

from __future__ import annotations

from ._version import __version__, __version_info__

__all__ = ["__version__", "__version_info__"]
