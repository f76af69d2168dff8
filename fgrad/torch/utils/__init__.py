"""``fgrad.torch.utils``: data loading (``utils.data``) and hook handles (``utils.hooks``)."""

import fgrad.torch.utils.data as data  # noqa: F401
import fgrad.torch.utils.hooks as hooks

__all__ = ["data", "hooks"]
