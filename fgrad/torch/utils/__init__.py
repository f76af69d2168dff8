"""``fgrad.torch.utils``: data loading (``utils.data``) and hook handles (``utils.hooks``)."""

from . import data, hooks  # noqa: F401

__all__ = ["data", "hooks"]
