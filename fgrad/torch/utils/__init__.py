"""``fgrad.torch.utils``: data loading (``utils.data``), hook handles (``utils.hooks``),
activation checkpointing (``utils.checkpoint``)."""

import fgrad.torch.utils.checkpoint as checkpoint  # noqa: F401
import fgrad.torch.utils.data as data  # noqa: F401
import fgrad.torch.utils.hooks as hooks

__all__ = ["checkpoint", "data", "hooks"]
