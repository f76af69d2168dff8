# ruff: noqa: F401
"""``fgrad.torch.utils.data``: datasets, samplers and the DataLoader (PyTorch's API)."""

from ._collate import default_collate, default_convert
from .dataloader import DataLoader, WorkerInfo, get_worker_info
from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset,
                      TensorDataset, random_split)
from .distributed import DistributedSampler
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)

__all__ = ["DataLoader", "Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "ChainDataset",
           "StackDataset", "Subset", "random_split", "Sampler", "SequentialSampler", "RandomSampler",
           "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler", "DistributedSampler",
           "default_collate", "default_convert", "get_worker_info", "WorkerInfo"]
