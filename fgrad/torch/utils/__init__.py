"""``fgrad.torch.utils``: data loading (``utils.data``), hook handles (``utils.hooks``),
activation checkpointing (``utils.checkpoint``), DLPack capsules (``utils.dlpack``),
safetensors files (``utils.safetensors``), timing (``utils.benchmark``), `swap_tensors`."""

import fgrad.torch.utils.benchmark as benchmark  # noqa: F401
import fgrad.torch.utils.checkpoint as checkpoint  # noqa: F401
import fgrad.torch.utils.data as data  # noqa: F401
import fgrad.torch.utils.dlpack as dlpack  # noqa: F401
import fgrad.torch.utils.hooks as hooks
import fgrad.torch.utils.safetensors as safetensors  # noqa: F401
from fgrad.torch._swap import swap_tensors

__all__ = ["benchmark", "checkpoint", "data", "dlpack", "hooks", "safetensors", "swap_tensors"]
