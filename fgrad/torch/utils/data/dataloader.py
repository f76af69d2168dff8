"""`DataLoader`: batches from a dataset, in this process or in worker processes.

With ``num_workers=0`` batches are fetched and collated in the calling process.  With
``num_workers > 0`` that many worker processes (``multiprocessing``, the platform's default
start method unless ``multiprocessing_context`` says otherwise) each take index batches from
their own queue, fetch and collate them, and send the batches back over a shared result
queue; the loader hands them out in sampler order (``in_order=True``), keeping
``prefetch_factor * num_workers`` batches in flight.  Each worker seeds ``random``, NumPy and
fgrad.torch with ``base_seed + worker_id`` (``base_seed`` drawn from the loader's generator),
and `get_worker_info` tells dataset code which worker it runs in.  An exception in a worker
is re-raised in the main process with the worker's traceback.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.utils.data import DataLoader, TensorDataset
    >>> ds = TensorDataset(torch.arange(10.))
    >>> [b[0].tolist() for b in DataLoader(ds, batch_size=4)]
    [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0]]
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import queue
import random
import sys
import threading
import traceback
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

import fgrad.torch as torch

from ._collate import default_collate, default_convert
from .dataset import Dataset, IterableDataset, TensorDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, _rand_int64

__all__ = ["DataLoader", "get_worker_info", "WorkerInfo"]

_STATUS_CHECK_INTERVAL = 5.0


# ---------------------------------------------------------------------------------------
# worker side


@dataclass
class WorkerInfo:
    """What `get_worker_info` returns inside a worker process.

    Example::

        >>> import fgrad.torch as torch
        >>> info = torch.utils.data.WorkerInfo(id=0, num_workers=2, seed=7, dataset=range(4))
        >>> info.id, info.num_workers, info.seed
        (0, 2, 7)
    """

    id: int
    num_workers: int
    seed: int
    dataset: Any


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """The current worker's id, the number of workers, its seed and its copy of the dataset;
    None in the main process.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.utils.data.get_worker_info() is None  # in the main process
        True
    """
    return _worker_info


class _ExceptionWrapper:
    """An exception from a worker, with its formatted traceback."""

    def __init__(self, exc_info=None, where: str = "in background") -> None:
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        try:
            exception = self.exc_type(msg)
        except Exception:  # noqa: BLE001 — exception types with other constructors
            raise RuntimeError(msg) from None
        raise exception


class KeyErrorMessage(str):
    """A str whose repr is itself (so KeyError messages print with newlines)."""

    def __repr__(self) -> str:
        return self


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    seed: int | None = None


class _MapDatasetFetcher:
    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool) -> None:
        self.dataset, self.auto_collation, self.collate_fn, self.drop_last = \
            dataset, auto_collation, collate_fn, drop_last

    def fetch(self, possibly_batched_index):
        if self.auto_collation:
            ds = self.dataset
            index = possibly_batched_index
            if (type(ds) is TensorDataset and self.collate_fn is default_collate and type(index) is list
                    and all(type(i) is int for i in index) and not any(t.requires_grad for t in ds.tensors)):
                # default_collate's stack of the rows ``t[i]``, gathered in one index per tensor:
                # the same values, dtypes and (new, contiguous) layouts, one op instead of
                # ``batch_size`` views and a stack (a list of plain ints, as BatchSampler gives)
                return [t[index] for t in ds.tensors]
            getitems = getattr(self.dataset, "__getitems__", None)
            if getitems:
                data = getitems(possibly_batched_index)
            else:
                data = [self.dataset[idx] for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)


class _IterableDatasetFetcher:
    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool) -> None:
        self.dataset, self.auto_collation, self.collate_fn, self.drop_last = \
            dataset, auto_collation, collate_fn, drop_last
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def _make_fetcher(kind: str, dataset, auto_collation, collate_fn, drop_last):
    cls = _MapDatasetFetcher if kind == "map" else _IterableDatasetFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)


def _seed_worker(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
    np.random.seed(seed % (2 ** 32))


def _worker_loop(kind, dataset, index_queue, data_queue, done_event, auto_collation, collate_fn,
                 drop_last, base_seed, init_fn, worker_id, num_workers, parent_pid) -> None:
    global _worker_info
    try:
        seed = base_seed + worker_id
        _seed_worker(seed)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
        init_exception = None
        fetcher = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _make_fetcher(kind, dataset, auto_collation, collate_fn, drop_last)
        except Exception:  # noqa: BLE001 — sent to the main process
            init_exception = _ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
        iteration_end = False
        while True:
            try:
                r = index_queue.get(timeout=_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                if os.getppid() != parent_pid:  # the main process is gone
                    break
                continue
            if r is None:
                break
            if isinstance(r, _ResumeIteration):
                if r.seed is not None:
                    _seed_worker(r.seed + worker_id)
                data_queue.put((r, None))
                iteration_end = False
                if fetcher is not None and kind == "iterable":
                    fetcher = _make_fetcher(kind, dataset, auto_collation, collate_fn, drop_last)
                continue
            if done_event.is_set() or iteration_end:
                continue
            idx, index = r
            if init_exception is not None:
                data: Any = init_exception
                init_exception = None
            else:
                try:
                    data = fetcher.fetch(index)
                except Exception as e:  # noqa: BLE001 — sent to the main process
                    if isinstance(e, StopIteration) and kind == "iterable":
                        data = _IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = _ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data
    except KeyboardInterrupt:
        pass
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()


# ---------------------------------------------------------------------------------------
# samplers for iterable datasets


class _InfiniteConstantSampler(Sampler):
    def __iter__(self):
        while True:
            yield None


# ---------------------------------------------------------------------------------------
# the loader


class DataLoader:
    """``DataLoader(dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
    num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
    worker_init_fn=None, multiprocessing_context=None, generator=None, *, prefetch_factor=None,
    persistent_workers=False, in_order=True)`` — see the module docstring.

    Example::

        >>> import fgrad.torch as torch
        >>> ds = torch.utils.data.TensorDataset(torch.arange(5.0), torch.tensor([0, 1, 0, 1, 0]))
        >>> for x, y in torch.utils.data.DataLoader(ds, batch_size=2):
        ...     print(x, y)
        tensor([0., 1.]) tensor([0, 1])
        tensor([2., 3.]) tensor([0, 1])
        tensor([4.]) tensor([0])
    """

    def __init__(self, dataset: Dataset[Any] | Sequence[Any] | Iterable[Any], batch_size: int | None = 1,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[Any] | None = None,
                 batch_sampler: Sampler | Iterable[Sequence[Any]] | None = None, num_workers: int = 0,
                 collate_fn: Callable[[list[Any]], Any] | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context: str | Any | None = None, generator: torch.Generator | None = None,
                 *, prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let "
                             "num_workers "
                             "> 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = "iterable"
            if isinstance(shuffle, bool) and shuffle:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, but "
                                 "got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, but "
                                 "got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler "
                                 "option, "
                                 f"but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = "map"
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, "
                                 "sampler, "
                                 "and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None:
            if drop_last:
                raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive "
                                 "with "
                                 "drop_last")
        if sampler is None:
            if self._dataset_kind == "iterable":
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._iterator = None

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self) -> int:
        if self._dataset_kind == "iterable":
            length = len(self.dataset)
            if self.batch_size is not None:
                from math import ceil

                length = length // self.batch_size if self.drop_last else ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        return _MultiProcessIter(self)

    def __iter__(self) -> Iterator[Any]:
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def check_worker_number_rationality(self) -> None:
        pass


class _BaseIter:
    def __init__(self, loader: DataLoader) -> None:
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._collate_fn = loader.collate_fn
        self._timeout = loader.timeout
        self._generator = loader.generator
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._base_seed = _rand_int64(loader.generator)

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter: bool = False) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0

    def _next_index(self):
        return next(self._sampler_iter)

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        return data


class _SingleProcessIter(_BaseIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._fetcher = _make_fetcher(self._dataset_kind, self._dataset, self._auto_collation,
                                      self._collate_fn, self._drop_last)

    def _next_data(self):
        index = self._next_index()
        return self._fetcher.fetch(index)


class _MultiProcessIter(_BaseIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        self._persistent_workers = loader.persistent_workers
        ctx = loader.multiprocessing_context
        if ctx is None:
            ctx = mp.get_context()
        elif isinstance(ctx, str):
            ctx = mp.get_context(ctx)
        self._worker_result_queue = ctx.Queue()
        self._workers_done_event = ctx.Event()
        self._index_queues = []
        self._workers = []
        self._shutdown = False
        parent = os.getpid()
        for i in range(self._num_workers):
            index_queue = ctx.Queue()
            index_queue.cancel_join_thread()
            w = ctx.Process(
                target=_worker_loop,
                args=(self._dataset_kind, self._dataset, index_queue, self._worker_result_queue,
                      self._workers_done_event, self._auto_collation, self._collate_fn, self._drop_last,
                      self._base_seed, loader.worker_init_fn, i, self._num_workers, parent),
                daemon=True)
            w.start()
            self._index_queues.append(index_queue)
            self._workers.append(w)
        self._lock = threading.Lock()
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter: bool = False) -> None:
        super()._reset(loader, first_iter)
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info: dict = {}
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            resume = _ResumeIteration(_rand_int64(loader.generator))
            for q in self._index_queues:
                q.put(resume)
            remaining = self._num_workers
            while remaining > 0:
                ok, data = self._get_data()
                if isinstance(data[0], _ResumeIteration):
                    remaining -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_get_data(self, timeout: float = _STATUS_CHECK_INTERVAL):
        try:
            return True, self._worker_result_queue.get(timeout=timeout)
        except queue.Empty:
            failed = [w for w in self._workers if w.exitcode is not None and not w.is_alive()
                      and self._workers_status[self._workers.index(w)]]
            if failed:
                pids = ", ".join(str(w.pid) for w in failed)
                self._shutdown_workers()
                raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from None
            return False, None

    def _get_data(self):
        if self._timeout > 0:
            ok, data = self._try_get_data(self._timeout)
            if ok:
                return ok, data
            self._shutdown_workers()
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
        while True:
            ok, data = self._try_get_data()
            if ok:
                return ok, data

    def _next_data(self):
        while True:
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info is not None:
                    worker_id = info[0]
                    if len(info) == 2 or self._workers_status[worker_id]:
                        break
                    del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:
                data = self._task_info.pop(self._rcvd_idx)[1]
                self._rcvd_idx += 1
                return self._process_data(data)
            _, (idx, data) = self._get_data()
            self._tasks_outstanding -= 1
            if self._dataset_kind == "iterable" and isinstance(data, _IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                if not self._in_order:
                    del self._task_info[idx]
                    return self._process_data(data)
                self._task_info[idx] += (data,)
            else:
                del self._task_info[idx]
                self._rcvd_idx += 1
                return self._process_data(data)

    def _try_put_index(self) -> None:
        if self._tasks_outstanding >= self._prefetch_factor * self._num_workers:
            return
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_queue_idx = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_queue_idx]:
                break
        else:
            return
        self._index_queues[worker_queue_idx].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_queue_idx,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process_data(self, data):
        self._try_put_index()
        if isinstance(data, _ExceptionWrapper):
            data.reraise()
        return data

    def _mark_worker_as_unavailable(self, worker_id: int, shutdown: bool = False) -> None:
        q = self._index_queues[worker_id]
        q.put(None)
        self._workers_status[worker_id] = False

    def _shutdown_workers(self) -> None:
        if self._shutdown:
            return
        self._shutdown = True
        try:
            self._workers_done_event.set()
            for q in self._index_queues:
                try:
                    q.put(None)
                except (ValueError, OSError):
                    pass
            for w in self._workers:
                w.join(timeout=_STATUS_CHECK_INTERVAL)
            for q in self._index_queues:
                q.cancel_join_thread()
                q.close()
            self._worker_result_queue.cancel_join_thread()
            self._worker_result_queue.close()
        finally:
            for w in self._workers:
                if w.is_alive():
                    w.terminate()

    def __del__(self) -> None:
        try:
            self._shutdown_workers()
        except Exception:  # noqa: BLE001 — interpreter shutdown
            pass
