"""``DistributedDataParallel``: PyTorch's DDP on ``fgrad.torch.distributed``.

At wrap time the parameters and buffers of rank 0 are broadcast to every process.  The
parameters that need gradients are grouped into buckets of about ``bucket_cap_mb`` (in
reverse registration order, which is roughly the order backward produces their gradients;
one dtype per bucket).  A post-accumulate-grad hook on each parameter counts the bucket
down; a full bucket is flattened into one buffer and its all-reduce started at once
(non-blocking, so it overlaps the rest of backward), always in bucket order so every process
issues the same sequence.  When the last bucket has been started, all are waited for and
the averaged gradients written back into ``.grad``.

``no_sync()`` skips the reduction (gradients accumulate locally until the next synced
backward).  A parameter that got no gradient leaves its bucket unfinished; the next forward
raises PyTorch's error unless ``find_unused_parameters=True``, which walks the autograd graph
of the forward's outputs and marks the unreached parameters ready at once (their gradients
stay None when no process used them).  ``module`` is the wrapped model and the state_dict
keys carry PyTorch's ``module.`` prefix.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

import fgrad.torch.distributed as dist
from fgrad.backends import world as _world
from fgrad.torch._tensor import Tensor
from fgrad.torch.autograd.grad_mode import STATE
from fgrad.torch.autograd.graph import AccumulateGrad
from ..modules.module import Module

_UNFINISHED = (
    "Expected to have finished reduction in the prior iteration before starting a new one. This error "
    "indicates that your module has parameters that were not used in producing loss. You can enable "
    "unused parameter detection by passing the keyword argument `find_unused_parameters=True` to "
    "`torch.nn.parallel.DistributedDataParallel`, and by \nmaking sure all `forward` function outputs "
    "participate in calculating loss. \nIf you already have done the above, then the distributed data "
    "parallel module wasn't able to locate the output tensors in the return value of your module's "
    "`forward` function. Please include the loss function and the structure of the return value of "
    "`forward` of your module when reporting this issue (e.g. list, dict, iterable).")


class _Bucket:
    __slots__ = ("params", "indices", "pending", "buf", "flat", "req", "dtype")

    def __init__(self, indices: list, params: list) -> None:
        self.indices = indices
        self.params = params
        self.dtype = np.dtype(params[0]._buf.dtype)
        self.pending = len(params)
        self.buf: np.ndarray | None = None
        self.flat: np.ndarray | None = None
        self.req: Any = None


def _tensors_in(obj, out: list) -> list:
    if isinstance(obj, Tensor):
        out.append(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _tensors_in(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _tensors_in(v, out)
    return out


class DistributedDataParallel(Module):
    """Data parallelism over processes (PyTorch's arguments).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group("gloo")
        >>> model = DistributedDataParallel(torch.nn.Linear(2, 1))
        >>> sorted(model.state_dict())
        ['module.bias', 'module.weight']
        >>> model(torch.ones(3, 2)).sum().backward()
        >>> model.module.weight.grad.shape
        torch.Size([1, 2])
        >>> dist.destroy_process_group()
    """

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None, dim: int = 0,
                 broadcast_buffers: bool | None = None, init_sync: bool = True, process_group: Any = None,
                 bucket_cap_mb: float | None = None, find_unused_parameters: bool = False,
                 check_reduction: bool = False, gradient_as_bucket_view: bool = False,
                 static_graph: bool = False, delay_all_reduce_named_params: Any = None,
                 param_to_hook_all_reduce: Any = None, mixed_precision: Any = None, device_mesh: Any = None,
                 skip_all_reduce_unused_params: bool = False, bucket_cap_mb_list: list[int] | None = None,
                 batched_grad_copy: bool = False, forward_sync_buffers: bool | None = None) -> None:
        super().__init__()
        pg = dist._group(process_group)
        params = [p for p in module.parameters() if p.requires_grad]
        if not params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any "
                               "parameter that requires a gradient.")
        self.module = module
        self.process_group = pg
        # (PyTorch 2.13: ``broadcast_buffers`` is deprecated for ``forward_sync_buffers``; None means True)
        self.broadcast_buffers = (forward_sync_buffers if forward_sync_buffers is not None
                                  else True if broadcast_buffers is None else broadcast_buffers)
        self.find_unused_parameters = find_unused_parameters
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb) * 1024 * 1024)
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self.dim = dim
        self.device_ids = device_ids
        self._params = params
        self._comm: _world.Communicator = pg._comm
        if init_sync:
            self._sync_module_states()
        self._buckets = self._make_buckets(params)
        self._bucket_of = {}
        for b in self._buckets:
            for p in b.params:
                self._bucket_of[id(p)] = b
        self._next_launch = 0
        self._started = False  # a synced backward began reducing and has not finished
        self._used: np.ndarray | None = None
        self._ready: set = set()
        self._handles = [p.register_post_accumulate_grad_hook(self._grad_ready) for p in params]

    # -- setup ---------------------------------------------------------------------------
    def _sync_module_states(self) -> None:
        if self._comm.size == 1:
            return
        for t in list(self.module.parameters()) + list(self.module.buffers()):
            dist.broadcast(t, src=self._comm.ranks[0], group=self.process_group)

    def _make_buckets(self, params: list) -> list:
        buckets: list = []
        current: dict = {}  # dtype -> (indices, params, bytes)
        for i in reversed(range(len(params))):
            p = params[i]
            dt = np.dtype(p._buf.dtype)
            idx, ps, size = current.get(dt, ([], [], 0))
            idx.append(i)
            ps.append(p)
            size += p._buf.size * dt.itemsize
            if size >= self.bucket_bytes_cap:
                buckets.append(_Bucket(idx, ps))
                current.pop(dt, None)
            else:
                current[dt] = (idx, ps, size)
        for idx, ps, _ in current.values():
            buckets.append(_Bucket(idx, ps))
        return buckets

    # -- forward ---------------------------------------------------------------------------
    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        if self._started:
            unready = sorted(i for b in self._buckets if b.pending for i, p in zip(b.indices, b.params)
                             if self._is_pending(b, p))
            self._reset()
            raise RuntimeError(_UNFINISHED + f"\nParameter indices which did not receive grad for rank "
                               f"{self._comm.rank}: {' '.join(map(str, unready))}")
        if self.broadcast_buffers and self._comm.size > 1:
            for b in self.module.buffers():
                dist.broadcast(b, src=self._comm.ranks[0], group=self.process_group)
        out = self.module(*inputs, **kwargs)
        if self.require_backward_grad_sync and STATE.enabled:
            self._prepare_for_backward(out)
        return out

    def _prepare_for_backward(self, out) -> None:
        self._reset()
        self._ready = set()
        if not self.find_unused_parameters:
            return
        reached = set()
        stack = [t.grad_fn for t in _tensors_in(out, []) if t.grad_fn is not None]
        seen = set()
        while stack:
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, AccumulateGrad):
                reached.add(id(node.variable))
                continue
            stack.extend(n for n, _ in node.next_functions)
        for t in _tensors_in(out, []):
            if t.grad_fn is None and t.requires_grad:
                reached.add(id(t))
        self._used = np.array([id(p) in reached for p in self._params], np.uint8)
        for p in self._params:
            if id(p) not in reached:
                self._mark_ready(p)

    def _reset(self) -> None:
        for b in self._buckets:
            b.pending = len(b.params)
            b.req = None
            b.buf = None
        self._next_launch = 0
        self._started = False
        self._ready = set()
        self._used = None

    def _is_pending(self, b: _Bucket, p) -> bool:
        return id(p) not in self._ready

    # -- backward ----------------------------------------------------------------------------
    def _grad_ready(self, p) -> None:
        if not self.require_backward_grad_sync:
            return
        if id(p) in self._ready:
            return
        self._started = True
        self._mark_ready(p)

    def _mark_ready(self, p) -> None:
        self._ready.add(id(p))
        b = self._bucket_of[id(p)]
        b.pending -= 1
        while self._next_launch < len(self._buckets) and self._buckets[self._next_launch].pending == 0:
            self._launch(self._buckets[self._next_launch])
            self._next_launch += 1
        if self._next_launch == len(self._buckets):
            self._finish()

    def _launch(self, b: _Bucket) -> None:
        if b.flat is None:  # one flat buffer per bucket, reused every step
            b.flat = np.empty(sum(p._buf.size for p in b.params), b.dtype)
        start = 0
        for p in b.params:
            n = p._buf.size
            g = p.grad
            if g is None:
                b.flat[start:start + n] = 0
            else:
                b.flat[start:start + n] = np.ravel(dist._host(g))
            start += n
        b.buf = b.flat
        b.req = self._comm.allreduce_inplace(b.buf, "sum", start_only=True)

    def _finish(self) -> None:
        comm = self._comm
        used = None
        if self._used is not None and comm.size > 1:
            used = comm.allreduce(self._used, "max")
        elif self._used is not None:
            used = self._used
        for b in self._buckets:
            if b.req is not None:
                _world.wait(b.req, f"DistributedDataParallel's gradient all_reduce on rank {comm.rank}")
            flat = b.buf
            if comm.size > 1:
                np.divide(flat, comm.size, out=flat, casting="unsafe")
            start = 0
            for i, p in zip(b.indices, b.params):
                n = p._buf.size
                chunk = flat[start:start + n].reshape(p._buf.shape)
                start += n
                if used is not None and not used[i]:
                    continue  # no process used it: its gradient stays as it was (None)
                if p.grad is None:
                    p.grad = dist.from_numpy(chunk.copy())
                else:
                    dist._write(p.grad, chunk)
        self._reset()

    # -- PyTorch's extras --------------------------------------------------------------------
    @contextlib.contextmanager
    def no_sync(self) -> Any:
        """Skip gradient synchronization inside the block (gradients accumulate locally)."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old

    def will_sync_module_buffers(self) -> bool:
        """Whether the forward broadcasts rank 0's buffers (``broadcast_buffers`` and the
        module has buffers)."""
        return bool(self.broadcast_buffers) and any(True for _ in self.module.buffers())

    def __getstate__(self):
        raise RuntimeError("DistributedDataParallel cannot be pickled; save model.module.state_dict()")


__all__ = ["DistributedDataParallel"]
