"""``torch.signal``: signal processing (``torch.signal.windows``)."""

from . import windows

__all__ = ["windows"]
