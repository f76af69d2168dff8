"""fgrad.torch.utils.data: datasets, samplers, collation and the DataLoader (with real worker
processes)."""

from __future__ import annotations

import collections
import os

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset,
                                    RandomSampler, SequentialSampler, Subset, SubsetRandomSampler,
                                    TensorDataset, WeightedRandomSampler, default_collate, get_worker_info,
                                    random_split)

try:
    import torch as _torch
except Exception:  # noqa: BLE001
    _torch = None


def _ds(n=10):
    return TensorDataset(ft.arange(n * 2.0).view(n, 2), ft.arange(n))


def test_tensor_dataset() -> None:
    ds = _ds()
    assert len(ds) == 10
    x, y = ds[3]
    assert ft.equal(x, ft.tensor([6.0, 7.0])) and y.item() == 3
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(ft.zeros(3), ft.zeros(4))
    x, y = ds[ft.tensor([1, 2])]
    assert x.shape == ft.Size([2, 2])


def test_sequential_loader_batches() -> None:
    batches = list(DataLoader(_ds(), batch_size=4))
    assert [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batches[0][0].shape == ft.Size([4, 2]) and batches[0][1].dtype == ft.int64
    assert len(DataLoader(_ds(), batch_size=4)) == 3
    assert len(DataLoader(_ds(), batch_size=4, drop_last=True)) == 2
    assert [b[1].tolist() for b in DataLoader(_ds(), batch_size=4, drop_last=True)] == [[0, 1, 2, 3], [4, 5,
                                                                                                       6, 7]]
    single = list(DataLoader(_ds(3), batch_size=None))
    assert single[0][1].dim() == 0  # no batching: samples converted only


def test_shuffle_is_a_permutation_and_seedable() -> None:
    def order(**kw):
        return ft.cat([b[1] for b in DataLoader(_ds(20), batch_size=3, shuffle=True, **kw)]).tolist()

    ft.manual_seed(7)
    a = order()
    ft.manual_seed(7)
    b = order()
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
    g1, g2 = ft.Generator().manual_seed(1), ft.Generator().manual_seed(1)
    assert order(generator=g1) == order(generator=g2)


def test_samplers() -> None:
    ds = _ds()
    assert list(SequentialSampler(ds)) == list(range(10))
    ft.manual_seed(0)
    perm = list(RandomSampler(ds))
    assert sorted(perm) == list(range(10))
    draws = list(RandomSampler(ds, replacement=True, num_samples=100))
    assert len(draws) == 100 and set(draws) <= set(range(10)) and len(set(draws)) > 5
    more = list(RandomSampler(ds, num_samples=25))
    assert len(more) == 25 and sorted(more[:10]) == list(range(10))
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        RandomSampler(ds, num_samples=0)
    assert sorted(SubsetRandomSampler([4, 5, 9])) == [4, 5, 9]
    w = list(WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 400))
    counts = collections.Counter(w)
    assert set(counts) <= {1, 3} and 0.6 < counts[3] / 400 < 0.9
    assert list(BatchSampler(SequentialSampler(range(7)), 3, False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(BatchSampler(SequentialSampler(range(7)), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(BatchSampler(range(7), 3, False)) == 3


def test_sampler_batch_sampler_and_argument_errors() -> None:
    ds = _ds()
    out = [b[1].tolist() for b in DataLoader(ds, batch_size=2, sampler=[9, 8, 7, 1])]
    assert out == [[9, 8], [7, 1]]
    out = [b[1].tolist() for b in DataLoader(ds, batch_sampler=[[0, 5], [2]])]
    assert out == [[0, 5], [2]]
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(ds, sampler=[0], shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        DataLoader(ds, batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(ds, persistent_workers=True)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        DataLoader(ds, prefetch_factor=2)


Point = collections.namedtuple("Point", ["x", "y"])


class Structured(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"feat": np.full(3, i, np.float32), "label": i, "w": float(i) / 2, "name": f"s{i}",
                "pt": Point(ft.tensor(i), [i, -i])}


def test_default_collate_structures() -> None:
    batch = next(iter(DataLoader(Structured(), batch_size=3)))
    assert set(batch) == {"feat", "label", "w", "name", "pt"}
    assert batch["feat"].dtype == ft.float32 and batch["feat"].shape == ft.Size([3, 3])
    assert batch["label"].dtype == ft.int64 and batch["label"].tolist() == [0, 1, 2]
    assert batch["w"].dtype == ft.float64
    assert batch["name"] == ["s0", "s1", "s2"]
    assert isinstance(batch["pt"], Point) and batch["pt"].x.tolist() == [0, 1, 2]
    assert [t.tolist() for t in batch["pt"].y] == [[0, 1, 2], [0, -1, -2]]
    out = default_collate([(ft.ones(2), 0), (ft.zeros(2), 1)])
    assert isinstance(out, list) and ft.equal(out[0], ft.tensor([[1.0, 1.0], [0.0, 0.0]]))
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors"):
        default_collate([object(), object()])
    custom = next(iter(DataLoader(_ds(), batch_size=4, collate_fn=lambda b: len(b))))
    assert custom == 4


@pytest.mark.skipif(_torch is None, reason="torch is not installed")
def test_default_collate_matches_torch() -> None:
    from torch.utils.data import default_collate as tcollate

    samples = [{"a": 1, "b": np.ones(2), "c": (1.5, "x")}, {"a": 2, "b": np.zeros(2), "c": (2.5, "y")}]
    f, t = default_collate(samples), tcollate(samples)
    assert repr(f) == repr(t)


class WhereAmI(Dataset):
    def __len__(self):
        return 12

    def __getitem__(self, i):
        info = get_worker_info()
        return ft.tensor([i, os.getpid(), -1 if info is None else info.id, -1 if info is None else info.seed])


def test_worker_processes_keep_order_and_seed() -> None:
    assert get_worker_info() is None
    rows = ft.cat(list(DataLoader(WhereAmI(), batch_size=3, num_workers=3))).tolist()
    assert [r[0] for r in rows] == list(range(12))  # in sampler order
    pids = {r[1] for r in rows}
    assert os.getpid() not in pids and len(pids) == 3  # real worker processes
    assert sorted({r[2] for r in rows}) == [0, 1, 2]
    seeds = {r[2]: r[3] for r in rows}
    assert seeds[1] == seeds[0] + 1 and seeds[2] == seeds[0] + 2  # base_seed + worker_id
    # shuffled, with workers, still a permutation of the data
    ft.manual_seed(3)
    a = ft.cat([b[:, 0] for b in DataLoader(WhereAmI(), batch_size=5, shuffle=True, num_workers=2)])
    ft.manual_seed(3)
    b = ft.cat([b[:, 0] for b in DataLoader(WhereAmI(), batch_size=5, shuffle=True)])
    assert sorted(a.tolist()) == list(range(12)) and a.tolist() == b.tolist()


def _init_fn(worker_id):
    os.environ["FGRAD_TEST_WORKER"] = str(worker_id + 100)


class EnvDataset(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return int(os.environ.get("FGRAD_TEST_WORKER", "-1"))


def test_worker_init_fn_and_persistent_workers() -> None:
    vals = ft.cat(list(DataLoader(EnvDataset(), batch_size=2, num_workers=2,
                                  worker_init_fn=_init_fn))).tolist()
    assert sorted(set(vals)) == [100, 101]
    loader = DataLoader(WhereAmI(), batch_size=4, num_workers=2, persistent_workers=True)
    pids1 = {r[1] for r in ft.cat(list(loader)).tolist()}
    pids2 = {r[1] for r in ft.cat(list(loader)).tolist()}
    assert pids1 == pids2 and len(pids1) == 2  # the same processes serve both epochs
    assert [r[0] for r in ft.cat(list(loader)).tolist()] == list(range(12))
    loader._iterator._shutdown_workers()


class Failing(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == 4:
            raise KeyError(f"bad index {i}")
        return i


def test_worker_exception_is_reraised_with_traceback() -> None:
    with pytest.raises(KeyError) as e:
        list(DataLoader(Failing(), batch_size=2, num_workers=2))
    msg = str(e.value)
    assert "Caught KeyError in DataLoader worker process" in msg and "bad index 4" in msg
    assert "Traceback" in msg
    with pytest.raises(KeyError, match="bad index 4"):
        list(DataLoader(Failing(), batch_size=2))


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))  # shard by worker


def test_iterable_dataset() -> None:
    assert [b.tolist() for b in DataLoader(Stream(7), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in DataLoader(Stream(7), batch_size=3, drop_last=True)] == [[0, 1, 2], [3, 4, 5]]
    got = sorted(ft.cat(list(DataLoader(Stream(11), batch_size=2, num_workers=2))).tolist())
    assert got == list(range(11))
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(Stream(3), shuffle=True)


def test_random_split_subset_concat() -> None:
    ds = _ds(10)
    a, b = random_split(ds, [3, 7], generator=ft.Generator().manual_seed(42))
    assert len(a) == 3 and len(b) == 7
    assert sorted(a.indices + b.indices) == list(range(10))
    c, d = random_split(ds, [3, 7], generator=ft.Generator().manual_seed(42))
    assert a.indices == c.indices
    parts = random_split(ds, [0.5, 0.3, 0.2])
    assert [len(p) for p in parts] == [5, 3, 2]
    parts = random_split(range(11), [0.5, 0.5])
    assert [len(p) for p in parts] == [6, 5]
    with pytest.raises(ValueError,
                       match="Sum of input lengths does not equal the length of the input dataset"):
        random_split(ds, [3, 3])
    s = Subset(ds, [9, 0])
    assert s[0][1].item() == 9 and len(s) == 2
    cat = ConcatDataset([_ds(3), _ds(2)])
    assert len(cat) == 5 and cat[4][1].item() == 1 and cat[-1][1].item() == 1
    assert len(_ds(3) + _ds(4)) == 7
