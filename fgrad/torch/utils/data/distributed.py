"""``DistributedSampler``: each process's share of a dataset's indices, as PyTorch's.

The shuffled order is PyTorch's exactly: ``torch.randperm(len(dataset))`` under a CPU
generator seeded with ``seed + epoch`` -- a Fisher-Yates shuffle drawing from MT19937
(``random() % (n - i)``), which NumPy's legacy ``RandomState`` reproduces bit for bit (same
seeding, same 32-bit outputs).  So a PyTorch program and its fgrad port feed every process
the same samples in the same order.
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np

import fgrad.torch.distributed as dist
from .sampler import Sampler
from typing import Any


def torch_randperm(n: int, seed: int) -> list:
    """``torch.randperm(n, generator=torch.Generator().manual_seed(seed)).tolist()`` on the CPU
    (for n below 2**32 / 20, PyTorch's small-n algorithm).

    Example::

        >>> torch_randperm(5, 0)
        [4, 0, 1, 3, 2]
    """
    if n >= (2**32 - 1) // 20:
        raise NotImplementedError("DistributedSampler: PyTorch shuffles datasets of 2**32/20 or more "
                                  "samples with another algorithm, not reproduced here")
    raw = np.random.RandomState(seed & 0xFFFFFFFF)._bit_generator.random_raw(max(n - 1, 0))
    perm = list(range(n))
    for i, r in enumerate(raw.tolist()):
        z = i + r % (n - i)
        perm[i], perm[z] = perm[z], perm[i]
    return perm


class DistributedSampler(Sampler):
    """The indices of process ``rank`` out of ``num_replicas`` (PyTorch's arguments and
    sequences): shuffled by ``seed + epoch`` (call `set_epoch` every epoch), padded by
    repeating indices to a multiple of ``num_replicas`` (or truncated with ``drop_last``),
    then every ``num_replicas``-th index from ``rank``.

    Example::

        >>> list(DistributedSampler(range(5), num_replicas=2, rank=1, shuffle=False))
        [1, 3, 0]
    """

    def __init__(self, dataset: Any, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        if num_replicas is None:
            if not dist.is_available():
                raise RuntimeError("Requires distributed package to be available")
            num_replicas = dist.get_world_size()
        if rank is None:
            if not dist.is_available():
                raise RuntimeError("Requires distributed package to be available")
            rank = dist.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(self.dataset)
        if self.drop_last and n % self.num_replicas != 0:
            self.num_samples = math.ceil((n - self.num_replicas) / self.num_replicas)
        else:
            self.num_samples = math.ceil(n / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        n = len(self.dataset)
        indices = torch_randperm(n, self.seed + self.epoch) if self.shuffle else list(range(n))
        if not self.drop_last:
            padding = self.total_size - len(indices)
            if padding <= len(indices):
                indices += indices[:padding]
            else:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        else:
            indices = indices[:self.total_size]
        assert len(indices) == self.total_size
        indices = indices[self.rank:self.total_size:self.num_replicas]
        assert len(indices) == self.num_samples
        return iter(indices)

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Reshuffle: the next iteration uses ``seed + epoch``."""
        self.epoch = epoch


__all__ = ["DistributedSampler"]
