"""``fgrad.torch.nn.parallel``: `DistributedDataParallel` (PyTorch's DDP over MPI) and the
one-device `DataParallel`."""

from .data_parallel import DataParallel
from .distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel"]
