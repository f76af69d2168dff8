"""``fgrad.torch.nn.parallel``: `DistributedDataParallel` (PyTorch's DDP over MPI)."""

from .distributed import DistributedDataParallel

__all__ = ["DistributedDataParallel"]
