"""The tape: graph nodes, backward programs from the core's rules, and the engine.

Every differentiable tensor operation records a node (a ``grad_fn``) holding

* an fgrad function ``fn`` of the operation's inputs (a primitive's ``bind``, or a
  composite such as ``mean = sum / n``) and a hashable ``key`` naming it,
* the inputs the backward pass needs (with their versions) and edges to the inputs' nodes.

No derivative is written here.  The first time a (key, input shapes/dtypes, differentiable
inputs) signature is seen, the JVP of ``fn`` is staged, split and transposed by the
per-signature builder the functional tape uses too (`fgrad.transforms.backward_program`),
into a program whose inputs are the primal inputs, the primal outputs and the output
cotangents; it is pruned (dead-code elimination, and the primal outputs substituted for
their recomputation, so e.g. ``exp`` saves its result as PyTorch does), and compiled by the
straight-line executor.  That program is cached and run on NumPy buffers by `Node._apply`.

With ``create_graph=True`` the same jaxpr is evaluated under a `TensorTrace`, whose tracers
wrap Tensors and whose ``process`` runs each primitive as a recorded Tensor op -- so the
backward computation is itself on the tape and derivatives of any order follow the same
rules as ``fgrad.grad``.

The engine walks the graph iteratively (no recursion), in decreasing creation order among
ready nodes, runs tensor and node hooks, accumulates into leaves' ``.grad`` and frees
saved values unless ``retain_graph``.
"""

from __future__ import annotations

from .. import _profile_state

import heapq
import itertools
import threading
import weakref

import numpy as np
from ...core.narrow_floats import dtype_kind as _dtype_kind

from ..._lru import CLOCK as _CLOCK, LRU
from ...core.array import ArrayImpl, ShapedArray, Tracer, wrap
from ...compile.native_kernels import straight_line_kernel
from ...compile.passes import inline_jit_calls, uniform_select_constants
from ...core.executor import straight_line
from ...core.ir import eval_jaxpr
from ...core.logs import get_logger
from ...core.trace import ConcretizationError, Trace, new_trace
from ...transforms.ad import JVPTrace, JVPTracer
from ...transforms.backward_program import stage
import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from .._device import DEV as _DEV
from .._tensor import Tensor, _alias, _wrap
from .._func_captures import SEEN as _CAPTURES, note as _note_capture
from .._storage import VersionCounter as _VC
from ...core.quiet import quiet
from .complex_cotangents import conj_if_complex, torch_convention
from .grad_mode import STATE
from .anomaly_mode import ANOMALY, check_node_gradients, record_forward
from . import saved_tensors as _st
from .saved_tensors import (ANY as _ANY_HOOKS, FREED, HOOKS as _HOOKS, SavedTensor,
                            allow_mutation_on_saved_tensors, disable_saved_tensors_hooks, save_on_cpu,
                            saved_tensors_hooks)
from ...transforms.ad import vjp
from collections.abc import Callable
from typing import Any, NamedTuple

_ndarray = np.ndarray
_new = object.__new__


def _is_const(a) -> bool:
    """A recorded argument that is a constant buffer (host or device), not a Tensor."""
    t = type(a)
    return t is _ndarray or t in _DEV


def _zeros(shape, dtype, di):
    """Zeros on the host (``di`` None) or on CUDA device ``di``."""
    return np.zeros(shape, dtype) if di is None else _dev.full(shape, 0, dtype, di)


def _copy(b):
    """A fresh, writeable copy of a buffer on its own device."""
    if type(b) is _ndarray or type(b) in _DEV:
        return b.copy()
    return np.array(b)
_seq = itertools.count()


# ---------------------------------------------------------------------------------------
# hook handles


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> h = x.register_hook(lambda g: g * 10)
        >>> h.remove(); (x * 2).sum().backward(); x.grad
        tensor([2.])
    """

    _ids = itertools.count()

    def __init__(self, container: Any, key: Any = None) -> None:
        self._ref = weakref.ref(container) if container is not None else None
        self.id = next(RemovableHandle._ids) if key is None else key

    def remove(self) -> None:
        c = self._ref() if self._ref is not None else None
        if c is not None:
            c.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class _HookDict(dict):
    """A dict that can be weakly referenced (hook storage)."""

    __slots__ = ("__weakref__",)


# ---------------------------------------------------------------------------------------
# nodes


# nodes PyTorch implements by hand in C++: ``name()`` carries the namespace
_CPP_NODES = frozenset(("CopySlices", "AccumulateGrad", "CopyBackwards", "NotImplemented"))


class Node:
    """Base class of all ``grad_fn`` objects.

    Example::

        >>> import fgrad.torch as torch
        >>> y = torch.tensor([1.0], requires_grad=True) * 2
        >>> isinstance(y.grad_fn, torch.autograd.graph.Node), y.grad_fn.name()
        (True, 'MulBackward0')
    """

    # the edges (``next_functions``) are stored flat, so that a recorded op leaves one object
    # for the garbage collector to track (the node) instead of three (the node, a tuple of
    # edges, an edge tuple per input): ``_ix`` the output indices (a tuple of ints, which the
    # collector untracks), ``_n0``/``_n1`` the first two nodes, ``_nr`` the others (a tuple)
    __slots__ = ("_n0", "_n1", "_nr", "_ix", "_seq", "__dict__", "__weakref__")

    # hooks and metadata are rare: class-level defaults, set per instance when used
    _pre = None  # node pre-hooks
    _post = None  # node post-hooks
    _tpre = None  # tensor hooks of the outputs: {output index: hooks}
    _retain = None  # retain_grad: {output index: weakref(tensor)}
    metadata_ = None

    def __init__(self) -> None:
        self._ix = ()
        self._seq = next(_seq)
        if ANOMALY.enabled:
            record_forward(self)

    @property
    def _next(self) -> tuple:
        """The edges ``((node, output index), ...)``, made from the flat fields."""
        ix = self._ix
        k = len(ix)
        if k == 1:
            return ((self._n0, ix[0]),)
        if k == 2:
            return ((self._n0, ix[0]), (self._n1, ix[1]))
        if k == 0:
            return ()
        return ((self._n0, ix[0]), (self._n1, ix[1]), *zip(self._nr, ix[2:]))

    @_next.setter
    def _next(self, edges) -> None:
        edges = tuple(edges)
        k = len(edges)
        self._n0 = edges[0][0] if k else None
        self._n1 = edges[1][0] if k > 1 else None
        self._nr = tuple([e[0] for e in edges[2:]]) if k > 2 else ()
        self._ix = tuple([e[1] for e in edges])

    def name(self) -> str:
        n = type(self).__name__
        return "torch::autograd::" + n if n in _CPP_NODES else n

    # composite nodes (F.linear is one node where PyTorch has AddmmBackward0 -> TBackward0):
    # a function ``edges -> edges as PyTorch shows them`` (see `show_as`), then its result
    _shown = None

    @property
    def next_functions(self) -> tuple:
        s = self._shown
        if s is None:
            return self._next
        if type(s) is not tuple:
            s = self._shown = tuple(s(self._next))
        return s

    @property
    def metadata(self) -> dict:
        if self.metadata_ is None:
            self.metadata_ = {}
        return self.metadata_

    def register_hook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new
        grad_inputs."""
        if self._post is None:
            self._post = _HookDict()
        h = RemovableHandle(self._post)
        self._post[h.id] = fn
        return h

    def register_prehook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre is None:
            self._pre = _HookDict()
        h = RemovableHandle(self._pre)
        self._pre[h.id] = fn
        return h

    def _register_tensor_hook(self, oi: int, fn) -> RemovableHandle:
        if self._tpre is None:
            self._tpre = {}
        d = self._tpre.get(oi)
        if d is None:
            d = self._tpre[oi] = _HookDict()
        h = RemovableHandle(d)
        d[h.id] = fn
        return h

    def _n_outputs(self) -> int:
        return 1

    def _release(self) -> None:
        pass

    def _apply(self, cts, create_graph: bool):  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, *grads: Any) -> Any:
        cts = [None if g is None else (g if STATE.enabled else g._buf) for g in grads]
        res = self._apply(cts, STATE.enabled)
        out = tuple(None if r is None else (r if isinstance(r, Tensor) else _wrap(r)) for r in res)
        return out if len(out) != 1 else out[0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"


class ShownNode(Node):
    """A node of PyTorch's graph that fgrad's graph folds into its parent (the
    ``TBackward0`` of ``F.linear``'s weight): it appears in ``next_functions`` (so code that
    walks the graph sees PyTorch's structure) but the backward pass never runs it."""

    __slots__ = ()

    def _apply(self, cts, create_graph):
        raise RuntimeError(f"{type(self).__name__} is shown for PyTorch's graph structure only; fgrad "
                           "computes its gradient inside the parent node (call the parent node instead)")

    def register_hook(self, fn):
        raise RuntimeError(f"{type(self).__name__} is shown for PyTorch's graph structure only: its hooks "
                           "would never run; register the hook on the tensor or on the parent node")

    register_prehook = register_hook


def shown_edge(name: str, *edges) -> tuple:
    """The edge ``(node, 0)`` to a `ShownNode` named ``name`` over ``edges``; ``(None, 0)``
    when no edge leads anywhere (PyTorch has no node over tensors without grad)."""
    if all(e[0] is None for e in edges):
        return (None, 0)
    node = node_class(name, ShownNode)()
    node._next = tuple(edges)
    return (node, 0)


def show_as(node, fn) -> None:
    """Show ``node``'s ``next_functions`` as ``fn(node._next)`` (PyTorch's structure)."""
    if node is not None:
        node._shown = fn


_NODE_CLASSES: dict = {}


_FN_CLASSES: dict = {}


def node_class(name: str, base: Any = None) -> Any:
    """The (cached) ``grad_fn`` class called ``name`` (e.g. ``MulBackward0``).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd import graph
        >>> graph.node_class('MulBackward0').__name__
        'MulBackward0'
        >>> graph.node_class('MulBackward0') is graph.node_class('MulBackward0')
        True
    """
    if base is None:
        cls = _FN_CLASSES.get(name)
        if cls is None:
            cls = _FN_CLASSES[name] = type(name, (FnNode,), {"__slots__": ()})
        return cls
    key = (name, base)
    cls = _NODE_CLASSES.get(key)
    if cls is None:
        cls = _NODE_CLASSES[key] = type(name, (base,), {"__slots__": ()})
    return cls


def relabel(node: Any, name: str) -> None:
    """Give ``node`` (a recorded ``grad_fn``) the class, so the ``name()``, ``name``: an
    in-place op computed as its out-of-place op plus a copy shows the op's node as PyTorch does.

    Example::

        >>> import fgrad.torch as torch
        >>> y = torch.ones(1, requires_grad=True) * 2
        >>> relabel(y.grad_fn, "SgnBackward0"); y.grad_fn.name()
        'SgnBackward0'
    """
    node.__class__ = node_class(name, None if isinstance(node, FnNode) else type(node).__mro__[1])


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: accumulates into ``variable.grad``.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> (x * 2).grad_fn.next_functions[0][0].name()
        'torch::autograd::AccumulateGrad'
    """

    __slots__ = ("variable",)

    def __init__(self, variable: Any) -> None:
        super().__init__()
        self.variable = variable
        self._seq = float("inf")

    def _apply(self, cts, create_graph):  # handled by the engine
        return ()


def grad_accumulator(t: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad node (made on first use, held weakly by the tensor)."""
    ref = t._acc
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._acc = weakref.ref(node)
    return node


def edge_of(t: Any) -> tuple:
    """The (node, output index) a gradient for ``t`` flows into.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd import graph
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> node, index = graph.edge_of(x * 2)
        >>> node.name(), index
        ('MulBackward0', 0)
    """
    if not isinstance(t, Tensor) or t._nograd_view:  # a no_grad view: gradients stop there
        return (None, 0)
    g = t._gfn
    if t._base is not None:
        g = view_grad_fn(t)
    if g is not None:
        return (g, t._oi)
    if t._rg:
        return (grad_accumulator(t), 0)
    return (None, 0)


# ---------------------------------------------------------------------------------------
# backward programs (staged from the core's vjp, cached per signature)


class _Prog:
    """A compiled VJP: ``run(inputs) -> cotangents of the differentiable inputs``.

    Built by the shared per-signature builder (`fgrad.transforms.backward_program`), as a
    function of the used inputs, outputs and cotangents (``in_used``, ``out_used``,
    ``ct_used``); ``zeros``: (position among ``diff``, shape, dtype) of the inputs whose
    cotangent is zero (filled in after the run, as PyTorch gives them zeros)."""

    __slots__ = (
        "jaxpr",
        "consts",
        "in_used",
        "out_used",
        "ct_used",
        "diff",
        "out_avals",
        "steps",
        "template",
        "n_saved",
        "zeros",
        "dev_templates",
        "tick",
        "source",
        "variants",
    )

    def without_cts(self, missing: frozenset) -> _Prog | None:
        """This program for calls where the outputs ``missing`` (positions) get no
        cotangent: staged with them as symbolic zeros (no zero arrays filled in and carried
        through, e.g. for the normal cdf GELU saves as a second output), reading the same
        saved values; None when that is not possible (the caller fills in zeros)."""
        hit = self.variants.get(missing, False)
        if hit is False:
            fn, avals, multi = self.source
            try:
                hit = _build_program(fn, avals, self.diff, multi, missing, (self.in_used, self.out_used))
            except (ConcretizationError, NotImplementedError, TypeError):
                hit = None
            self.variants[missing] = hit
        return hit

    def run(self, vals):
        res = self.steps(np, self.template + vals)
        return self._fill(res, None) if self.zeros else res

    def run_on(self, vals, di):
        """Run on CUDA device ``di`` (constants copied there once per device)."""
        dt = self.dev_templates
        if dt is None:
            dt = self.dev_templates = {}
        tmpl = dt.get(di)
        if tmpl is None:
            tmpl = dt[di] = [_dev.to_dev(c, di) if isinstance(c, _ndarray) else c for c in self.template]
        res = self.steps(_dev.backend().xp, tmpl + vals)
        return self._fill(res, di) if self.zeros else res

    def _fill(self, res, di, wrap_zeros: bool = False):
        """``res`` with zero cotangents inserted at the positions ``zeros``."""
        res = list(res)
        for k, shape, dtype in self.zeros:
            z = _zeros(shape, dtype, di)
            res.insert(k, _wrap(z) if wrap_zeros else z)
        return res

    def run_traced(self, tensors):
        """Evaluate under a TensorTrace: every primitive becomes a recorded Tensor op."""
        with new_trace(TensorTrace, "fgrad.torch create_graph backward") as tr:
            ins = [TensorTracer(tr, t) if isinstance(t, Tensor) else t for t in tensors]
            di = None
            for t in tensors:
                if isinstance(t, Tensor) and type(t._buf) in _DEV:
                    di = _dev.index_of(t._buf)
                    break
            consts = [wrap(c if di is None else _dev.to_dev(c, di)) if isinstance(c, _ndarray) else c
                      for c in self.consts]
            outs = eval_jaxpr(self.jaxpr, consts, ins)
            res = []
            for o in outs:
                if type(o) is TensorTracer and o._trace is tr:
                    res.append(o.t)
                else:
                    res.append(_wrap(_copy(o._buf if type(o) is ArrayImpl else o)))
        return self._fill(res, di, wrap_zeros=True) if self.zeros else res


# backward programs per op signature, bounded (config option ``autograd_cache_size``)
_PROGS = LRU("autograd_cache_size")
_PROGS_D = _PROGS._d  # noqa: SLF001 - read inline by `record`, the hot path
# the signature `record` looked up last and its program: (key, avals, diff, program).  Matched by
# the key's identity (a caller that keeps one key object per signature, as `_BinOp` does, so a
# loop of one op skips hashing the signature) and by equality of the avals and positions, the
# comparison a dictionary hit makes; `forget_last_program` clears it
_LAST: list = [None, None, None, None]


def forget_last_program() -> None:
    """Drop `record`'s memo of the last signature (when cached programs are changed in place).

    Example::

        >>> forget_last_program()
        >>> _LAST
        [None, None, None, None]
    """
    _LAST[:] = (None, None, None, None)
LOG = get_logger("autograd")


class _Dynamic:
    """Marks a signature whose VJP cannot be staged abstractly (linearized per call)."""

    __slots__ = ("tick",)


_DYNAMIC = _Dynamic()


def _program(ck, fn, avals, diff, multi):
    try:
        p = _build_program(fn, avals, diff, multi)
    except (ConcretizationError, NotImplementedError, TypeError) as e:
        # a rule needs concrete values: linearize per call instead (see `_record_dynamic`)
        LOG.debug("%s: backward program not staged (%s: %s); linearizing it per call",
                  ck[0], type(e).__name__, e)
        _PROGS[ck] = _Dynamic()
        return _DYNAMIC
    _PROGS[ck] = p
    return p


def get_program(key: Any, fn: Callable[..., Any], avals: Any, diff: Any, multi: bool) -> Any:
    """The cached backward program of ``fn`` at this signature (or `_DYNAMIC`).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd import graph
        >>> callable(graph.get_program)
        True
    """
    ck = (key, avals, diff)
    p = _PROGS.get(ck)
    if p is None:
        p = _program(ck, fn, avals, diff, multi)
    return _DYNAMIC if type(p) is _Dynamic else p


def _jvp_of(fn, multi: bool):
    """``fn``'s JVP as ``jvp(primals, tangents) -> (outputs, output tangents)`` (lists), in
    PyTorch's complex convention: tangents are conjugated on the way in and out, so the
    transposed program computes ``conj(vjp(conj(ct)))`` (see `complex_cotangents`; a no-op
    on real dtypes)."""

    def jvp(primals, tangents):
        tangents = [conj_if_complex(t) for t in tangents]
        with new_trace(JVPTrace, "fgrad.torch backward") as jt:
            out = fn(*[p if t is None else JVPTracer(jt, p, t) for p, t in zip(primals, tangents)])
            outs, t_outs, _ = jt.split(list(out) if multi else [out])
        return outs, [conj_if_complex(t) for t in t_outs]

    return jvp


def _build_program(fn, avals, diff, multi, zero_cts: frozenset = frozenset(), reads=None) -> _Prog | None:
    """The backward program of ``fn`` (see `_Prog`); with ``zero_cts`` and ``reads`` the
    variant of `_Prog.without_cts` (None if it would read more than ``reads``)."""
    in_avals = [ShapedArray(s, d) for s, d in avals]
    with _dev.cpu_default():  # host constants, placed per device by `run_on`
        bp = stage(_jvp_of(fn, multi), in_avals, [i in diff for i in range(len(in_avals))],
                   "fgrad.torch backward", zero_cts)
    staged = bp.recompute(reads)
    if staged is None:
        return None
    jaxpr, consts, in_used, out_used, ct_used = staged
    jaxpr, consts = inline_jit_calls(jaxpr, consts)  # (nested jit calls fuse with the rest)
    jaxpr, consts = uniform_select_constants(jaxpr, consts)  # (ReLU's select reads no zeros array)
    p = _Prog()
    p.source = (fn, avals, multi)
    p.variants = {}
    p.jaxpr = jaxpr
    p.consts = consts
    p.in_used, p.out_used, p.ct_used = in_used, out_used, ct_used
    p.diff = diff
    p.out_avals = bp.out_avals
    p.n_saved = len(in_used) + len(out_used)
    p.zeros = tuple((k, in_avals[i].shape, in_avals[i].dtype)
                    for k, (i, m) in enumerate(zip(diff, bp.in_mask)) if not m)
    p.dev_templates = None
    p.steps = straight_line(jaxpr, native=straight_line_kernel)  # (runs of big elementwise ops in C)
    p.template = list(consts)
    return p


# ---------------------------------------------------------------------------------------
# the generic node


_RELEASED = object()
_ENTRY_LEN = (2, 3, 5, 4)  # the length of a saved entry of each kind (`FnNode._saved`)


class FnNode(Node):
    """A recorded operation: its backward is the cached core VJP of its fgrad function."""

    # ``_sv``: the saved entries (see `_saved`) concatenated into one flat tuple (one object
    # for the garbage collector, not one per entry), a `_Hooked` tuple of entries when
    # saved-tensor hooks packed them, or `_RELEASED`
    __slots__ = ("_prog", "_sv", "_edge_args")

    _di = None  # CUDA device index of a node recorded on the device (None: the host)

    @property
    def _saved(self):
        """The saved entries as a tuple of tuples: ``(0, constant buffer)``, ``(1, input
        tensor, version)``, ``(2, output buffer, version counter, version, output index)``,
        ``(3, output buffer, version counter, version)`` (a result PyTorch saves that this
        backward does not read: version-checked only); `_Hooked` entries or `_RELEASED` as
        stored."""
        sv = self._sv
        if type(sv) is not tuple:
            return sv
        out = []
        i = 0
        n = len(sv)
        while i < n:
            j = i + _ENTRY_LEN[sv[i]]
            out.append(sv[i:j])
            i = j
        return tuple(out)

    @_saved.setter
    def _saved(self, entries) -> None:
        if type(entries) is _Hooked or entries is _RELEASED:
            self._sv = entries
        else:
            self._sv = tuple([x for e in entries for x in e])

    def _n_outputs(self) -> int:
        return len(self._prog.out_avals)

    def _release(self) -> None:
        if self._prog.n_saved:
            self._sv = _RELEASED

    def _unpack(self, create_graph: bool):
        s = self._sv
        if s is _RELEASED:
            raise RuntimeError(FREED)
        if type(s) is _Hooked:
            return _unpack_hooked(self, s, create_graph)
        vals = []
        i = 0
        n = len(s)
        while i < n:
            kind = s[i]
            if kind == 0:  # constant buffer
                vals.append(s[i + 1] if not create_graph else _wrap(s[i + 1]))
                i += 2
            elif kind == 1:  # saved input tensor (t, version)
                t, ver = s[i + 1], s[i + 2]
                i += 3
                if t._vc is not None and t._vc.v != ver:
                    g = t.grad_fn
                    _raise_modified(t._buf, t._vc.v, ver, None if g is None else type(g).__name__)
                vals.append(t if create_graph else t._buf)
            elif kind == 3:  # output PyTorch saves but this backward does not read: version check
                if s[i + 2].v != s[i + 3]:
                    _raise_modified(s[i + 1], s[i + 2].v, s[i + 3], type(self).__name__)
                i += 4
            else:  # saved output (buf, vc, version, k)
                buf, vc, ver, k = s[i + 1], s[i + 2], s[i + 3], s[i + 4]
                i += 5
                if vc.v != ver:
                    _raise_modified(buf, vc.v, ver, type(self).__name__)
                if create_graph:
                    o = _wrap(buf)
                    o._vc = vc
                    o._gfn = self
                    o._oi = k
                    vals.append(o)
                else:
                    vals.append(buf)
        return vals

    def _apply(self, cts, create_graph: bool):
        prog = self._prog
        if len(prog.ct_used) > 1:
            missing = frozenset([k for k in prog.ct_used if cts[k] is None])
            if missing:
                prog = prog.without_cts(missing) or prog
        vals = self._unpack(create_graph)
        for k in prog.ct_used:
            c = cts[k]
            if c is None:
                av = prog.out_avals[k]
                c = _zeros(av.shape, av.dtype, self._di)
                if create_graph:
                    c = _wrap(c)
            vals.append(c)
        if create_graph:
            res = prog.run_traced(vals)
        elif self._di is None:
            res = prog.run(vals)
        else:
            res = prog.run_on(vals, self._di)
        by_arg = dict(zip(prog.diff, res, strict=False))
        return [by_arg.get(a) for a in self._edge_args]

    # -- saved values as PyTorch shows them: grad_fn._saved_<name>, _raw_saved_<name> ---------
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_saved_"):
            return _saved_field(self, name[7:], False)
        if name.startswith("_raw_saved_"):
            return _saved_field(self, name[11:], True)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        """PyTorch's attribute list: the ``_saved_<name>`` fields this node has, not the slot."""
        names = _input_names(self)
        prog = self._prog
        fields = {names[i] for i in prog.in_used if i < len(names)}
        if type(self).__name__ in _SAVED_NAMES:
            fields.update(names)
        saved = self._saved
        if prog.out_used or (saved is not _RELEASED and saved and saved[-1][0] == 3):
            fields.add("result")
        fields -= {f for (n, f) in _NOT_SAVED if n == type(self).__name__}
        base = [a for a in super().__dir__() if a not in ("_saved", "_sv")]
        return sorted(set(base) | {"_saved_" + f for f in fields} | {"_raw_saved_" + f for f in fields})

    def _live_saved(self):
        saved = self._sv
        return None if saved is _RELEASED else saved

    def _hook_saved(self, st: SavedTensor, pack_hook, unpack_hook) -> None:
        """Pack the plain saved entry ``st`` stands for with these hooks (``register_hooks``)."""
        saved = self._saved
        i = st._at
        t, out = _entry_tensor(self, saved[i])
        p = _st.pack(t, None if out is not None else edge_of(t), out, (pack_hook, unpack_hook))
        for k in SavedTensor.__slots__:
            if k not in ("_owner", "_at"):
                setattr(st, k, getattr(p, k))
        entries = list(saved)
        entries[i] = (4, st)
        self._saved = _Hooked(entries, getattr(saved, "order", range(len(entries))))


# saved-tensor hooks -----------------------------------------------------------------------


class _Hooked(tuple):
    """A node's saved entries when some were packed by hooks (kind 4: ``(4, SavedTensor)``);
    ``order``: the entry positions in the order PyTorch packs and unpacks them."""

    def __new__(cls, entries, order):
        self = super().__new__(cls, entries)
        self.order = tuple(order)
        return self


# the names PyTorch gives the saved inputs (by argument position) of the nodes whose schema
# fgrad's arguments follow; other nodes of one tensor argument call it "self", and nodes of
# several arguments not listed name only their result (a guessed name could be wrong); the
# nodes whose saved inputs PyTorch packs and unpacks last-first
_SAVED_NAMES = {
    "PowBackward0": ("self", "exponent"), "PowBackward1": ("self", "exponent"),
    "MmBackward0": ("self", "mat2"), "BmmBackward0": ("self", "mat2"), "DotBackward0": ("self", "tensor"),
    "MvBackward0": ("self", "vec"),
    **{n: ("self", "other") for n in (
        "MulBackward0", "DivBackward0", "MaximumBackward0", "MinimumBackward0", "Atan2Backward0",
        "FmaxBackward0", "FminBackward0", "HypotBackward0", "XlogyBackward0")},
}
_OTHER_FIRST = frozenset((
    "MulBackward0", "DivBackward0", "PowBackward1", "MaximumBackward0", "MinimumBackward0",
    "Atan2Backward0", "MmBackward0", "BmmBackward0",
))
# saved values PyTorch has and fgrad's backward does not read (it reads others instead)
_NOT_SAVED = {("DivBackward0", "self"): "it computes the gradient from other and the result"}


def _input_names(node) -> tuple:
    names = _SAVED_NAMES.get(type(node).__name__)
    if names is None:
        names = ("self",) if len(node._prog.source[1]) == 1 else ()
    return names


def _pack_saved(node, saved, args, outs) -> _Hooked:
    """``saved`` (record's entries) with the tensors packed by the innermost saved-tensor
    hooks, in PyTorch's order (inputs, the two-operand ops listed in `_OTHER_FIRST` last
    operand first, then outputs); constants stay, result version checks go (PyTorch does not
    check versions through hooks)."""
    prog = node._prog
    n_in = len(prog.in_used)
    ins = list(range(n_in))
    if type(node).__name__ in _OTHER_FIRST:
        ins.reverse()
    order = ins + list(range(n_in, n_in + len(prog.out_used)))
    entries = list(saved[:len(order)])
    for j in order:
        e = entries[j]
        if e[0] == 1:
            entries[j] = (4, _st.pack(e[1], edge_of(e[1]), None))
        elif e[0] == 2:
            k = e[4]
            entries[j] = (4, _st.pack(outs[k], None, k))
    return _Hooked(entries, order)


def _unpack_hooked(node, saved, create_graph: bool) -> list:
    vals = [None] * len(saved)
    for j in saved.order:
        e = saved[j]
        kind = e[0]
        if kind == 4:
            t = e[1].value(node)
            vals[j] = t if create_graph else t._buf
        elif kind == 0:
            vals[j] = _wrap(e[1]) if create_graph else e[1]
        else:  # a plain entry (``register_hooks`` hooked another one)
            t = _entry_tensor(node, e)[0]
            vals[j] = t if create_graph else t._buf
    prog = node._prog
    return vals[:len(prog.in_used) + len(prog.out_used)]  # not a result saved for its version only


def _entry_tensor(node, e):
    """The tensor of a plain saved entry (version-checked) and its output index (None: an
    input)."""
    kind = e[0]
    if kind == 1:
        t, ver = e[1], e[2]
        if t._vc is not None and t._vc.v != ver:
            g = t.grad_fn
            _raise_modified(t._buf, t._vc.v, ver, None if g is None else type(g).__name__)
        return t, None
    buf, vc, ver = e[1], e[2], e[3]
    if vc.v != ver:
        _raise_modified(buf, vc.v, ver, type(node).__name__)
    k = e[4] if kind == 2 else 0
    o = _wrap(buf)
    o._vc = vc
    o._gfn = node
    o._oi = k
    return o, k


def _saved_field(node, field: str, raw: bool):
    """``node._saved_<field>`` (``raw``: ``_raw_saved_<field>``, the `SavedTensor`)."""
    name = type(node).__name__
    prog = node._prog
    names = _input_names(node)
    saved = node._saved
    idx = None
    if field == "result":
        if 0 in prog.out_used:
            idx = len(prog.in_used) + prog.out_used.index(0)
        elif saved is not _RELEASED and saved and saved[-1][0] == 3:  # a result PyTorch saves, checked only
            idx = len(saved) - 1
    elif field in names:
        pos = names.index(field)
        if (name, field) in _NOT_SAVED:
            raise AttributeError(f"'{name}' object has no attribute '_saved_{field}' in fgrad: "
                                 f"{_NOT_SAVED[name, field]} (PyTorch saves {field})")
        if pos in prog.in_used:
            idx = prog.in_used.index(pos)
        elif name not in _SAVED_NAMES:
            idx = -1
    else:
        idx = -1
    if idx == -1 or (idx is None and field == "result"):
        raise AttributeError(f"'{name}' object has no attribute '{'_raw' if raw else ''}_saved_{field}'")
    if saved is _RELEASED:
        raise RuntimeError(FREED)
    if idx is None:  # a value PyTorch saves only when another input requires grad
        return None
    e = saved[idx]
    if e[0] == 0:  # a constant: PyTorch keeps a Python scalar
        if raw:
            raise AttributeError(f"'{name}' object has no attribute '_raw_saved_{field}'")
        b = e[1]
        return b.item() if b.ndim == 0 else _wrap(b)
    if raw:
        if e[0] == 4:
            return e[1]
        st = SavedTensor()
        st._owner = weakref.ref(node)
        st._at = idx
        return st
    if e[0] == 4:
        return e[1].value(node)
    return _entry_tensor(node, e)[0]


def _type_name(buf) -> str:
    return "torch." + D.from_np(buf.dtype)._legacy + "Tensor"


def _raise_modified(buf, now, expected, producer) -> None:
    shape = "[" + ", ".join(str(s) for s in buf.shape) + "]"
    who = ""
    if producer:
        # PyTorch names the node without "Backward0" (MulBackward0: Mul, PowBackward1: Pow1)
        op = producer
        head, sep, tail = op.rpartition("Backward")
        if sep and (tail == "" or tail.isdigit()):
            op = head + ("" if tail == "0" else tail)
        if op == "CopySlices":
            op = "torch::autograd::CopySlices"
        who = f", which is output 0 of {op},"
    raise RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        f"[{_type_name(buf)} {shape}]{who} is at version {now}; expected version {expected} instead. Hint: "
        "enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def saved_before_write(node, vc, version: int) -> None:
    """Inputs of an in-place op that share the written tensor's version counter ``vc`` were
    saved *before* the write (PyTorch saves inputs first): give them ``version``, so that a
    backward needing them raises instead of reading the overwritten values."""
    if type(node) is _DynNode:
        node._saved = [(t, version if t._vc is vc else v) for t, v in node._saved]
        return
    sv = node._sv
    if type(sv) is _Hooked:  # packed by hooks: no version checks (as PyTorch)
        return
    sv = list(sv)  # the flat entries (see `FnNode._saved`)
    i = 0
    while i < len(sv):
        if sv[i] == 1 and sv[i + 1]._vc is vc:
            sv[i + 2] = version
        i += _ENTRY_LEN[sv[i]]
    node._sv = tuple(sv)


# nodes whose PyTorch backward reads the op's result while fgrad's reads only the inputs:
# the result is version-checked anyway, so modifying it in place raises as in PyTorch
_RESULT_SAVERS = frozenset((
    "ReluBackward0", "LogSoftmaxBackward0", "CumprodBackward0", "ProdBackward0", "ProdBackward1",
    "LinalgVectorNormBackward0", "LogsumexpBackward0",
))


def record(name: str, key: Any, fn: Callable[..., Any], args: Any, outs: Any, edges: Any = None,
           multi: bool = False, node_base: Any = None) -> Any:
    """Record an operation whose outputs ``outs`` (Tensors, already computed) are
    ``fn(*args)``.  ``args`` are Tensors or constant NumPy arrays; ``edges`` are the
    positions listed in ``next_functions`` (default: the Tensor arguments).  Returns the
    node, or None when nothing requires grad.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd import graph
        >>> callable(graph.record)
        True
    """
    if _CAPTURES[0] is not None:  # a torch.func transform notes closed-over tensors
        _note_capture(args)
    diff = ()
    avals = []
    tens = []  # the positions of the Tensor arguments (the default edges)
    i = 0
    for a in args:
        ta = type(a)
        if ta is not Tensor and (ta is _ndarray or ta in _DEV):
            avals.append((a.shape, a.dtype))
        else:
            tens.append(i)
            b = a._buf
            dt = b.dtype
            avals.append((b.shape, dt))
            if (a._rg or a._gfn is not None) and (dt.kind in "fc" or _dtype_kind(dt) in "fc"):
                diff += (i,)
        i += 1
    if not diff:
        return None
    last = _LAST
    if key is last[0] and diff == last[2] and avals == last[1]:
        prog = last[3]  # the previous op's signature again (a loop): no hashing of it
        prog.tick = next(_CLOCK)
    else:
        ck = (key, tuple(avals), diff)
        prog = _PROGS_D.get(ck)  # `_PROGS.get` inline (one call less per recorded op)
        if prog is None:
            prog = _program(ck, fn, avals, diff, multi)
        else:
            prog.tick = next(_CLOCK)  # marked as just used
        last[:] = (key, avals, diff, prog)
    if type(prog) is _Dynamic:
        return _record_dynamic(name, fn, args, outs, edges, multi, diff)
    cls = _FN_CLASSES.get(name) if node_base is None else None
    if cls is None:
        cls = node_class(name, node_base)
    node = _new(cls)  # `Node.__init__` inline (its fields are all set below)
    node._seq = next(_seq)
    if ANOMALY.enabled:
        record_forward(node)
    node._prog = prog
    o0 = outs[0]
    if o0 is not None and type(o0._buf) is not _ndarray and type(o0._buf) in _DEV:
        node._di = _dev.index_of(o0._buf)
    saved = []  # the entries of `FnNode._saved`, flat
    for i in prog.in_used:
        a = args[i]
        ta = type(a)
        if ta is not Tensor and (ta is _ndarray or ta in _DEV):
            saved += (0, a)
        else:
            vc = a._vc
            if vc is None:
                vc = a._vc = _VC()
            saved += (1, a, vc.v)
    for k in prog.out_used:
        o = outs[k]
        vc = o._vc
        if vc is None:
            vc = o._vc = _VC()
        saved += (2, o._buf, vc, vc.v, k)
    if name in _RESULT_SAVERS and outs[0] is not None:
        vc = outs[0]._get_vc()
        saved += (3, outs[0]._buf, vc, vc.v)
    node._sv = tuple(saved)
    if edges is None:
        edges = tuple(tens)
    node._edge_args = edges
    # the edges, stored flat (see `Node`): the first two nodes in slots, no edge tuples
    ns = []
    ix = []
    for i in edges:
        a = args[i]
        ta = type(a)
        if ta is not Tensor and (ta is _ndarray or ta in _DEV):
            ns.append(None)
            ix.append(0)
        elif a._base is None and a._gfn is not None:
            ns.append(a._gfn)
            ix.append(a._oi)
        else:
            n, k = edge_of(a)
            ns.append(n)
            ix.append(k)
    k = len(ns)
    node._n0 = ns[0] if k else None
    node._n1 = ns[1] if k > 1 else None
    node._nr = tuple(ns[2:]) if k > 2 else ()
    node._ix = tuple(ix)
    k = 0
    for o in outs:
        if o is not None and (o._buf.dtype.kind in "fc" or _dtype_kind(o._buf.dtype) in "fc"):
            o._gfn = node
            if o._oi != k:  # (the class default is 0: no instance dict for a single output)
                o._oi = k
            if o._nograd_view:  # a view made under an internal no_grad, now recorded
                o._nograd_view = False
        k += 1
    if _ANY_HOOKS and saved and _HOOKS.stack:  # saved-tensor hooks: one global read when none are set
        node._saved = _pack_saved(node, node._saved, args, outs)
    return node


class _DynNode(Node):
    """A node whose VJP was linearized at record time (its rules needed concrete values)."""

    __slots__ = ("_vjp", "_saved", "_edge_args", "_diff", "_multi", "_out_avals")

    _di = None

    def _n_outputs(self) -> int:
        return len(self._out_avals)

    def _release(self) -> None:
        self._vjp = None
        self._saved = _RELEASED

    def _apply(self, cts, create_graph: bool):
        if self._saved is _RELEASED:
            raise RuntimeError(FREED)
        for t, ver in self._saved:
            if t._vc is not None and t._vc.v != ver:
                g = t.grad_fn
                _raise_modified(t._buf, t._vc.v, ver, None if g is None else type(g).__name__)
        full = []
        for c, (shape, dt) in zip(cts, self._out_avals, strict=True):
            if c is None:
                c = _zeros(shape, dt, self._di)
                c = _wrap(c) if create_graph else c
            full.append(c)
        if create_graph:
            with new_trace(TensorTrace, "fgrad.torch create_graph backward") as tr:
                ins = [TensorTracer(tr, c) for c in full]
                res = self._vjp(tuple(ins) if self._multi else ins[0])
                res = [
                    r.t if type(r) is TensorTracer else _wrap(_copy(r._buf if type(r) is ArrayImpl else r))
                    for r in res
                ]
        else:
            ws = [wrap(c) for c in full]
            res = self._vjp(tuple(ws) if self._multi else ws[0])
            res = [r._buf if type(r) is ArrayImpl else (r if _is_const(r) else np.asarray(r)) for r in res]
        by_arg = dict(zip(self._diff, res, strict=True))
        return [by_arg.get(a) for a in self._edge_args]


class _LinearNode(Node):
    """The node of a linear op of one input whose transpose the op gives itself (`record_linear`)."""

    __slots__ = ("_t_host", "_t_tensor", "_in_aval")

    def _release(self) -> None:
        self._t_host = None

    def _apply(self, cts, create_graph: bool):
        if self._t_host is None:
            raise RuntimeError(FREED)
        c = cts[0]
        if create_graph:
            return [self._t_tensor(c if isinstance(c, Tensor) else _wrap(c))]
        return [self._t_host(c)]


def record_linear(name: str, x: Tensor, out: Tensor, host_transpose: Callable,
                  tensor_transpose: Callable) -> None:
    """Record ``out = L(x)`` for a linear map ``L`` given by its transpose: ``host_transpose``
    (a host cotangent buffer of ``out``'s shape -> ``x``'s) and, for ``create_graph``,
    ``tensor_transpose`` (the same on Tensors, itself differentiable).  No backward program
    is staged or cached: for maps that close over data changing every call (`embedding_bag`'s
    bags), whose programs would be traced and compiled per call.  A no-op when nothing
    requires grad.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.ones(3, requires_grad=True)
        >>> y = torch.tensor((x.detach() * 2).numpy())
        >>> record_linear("MulBackward0", x, y, lambda c: c * 2, lambda c: c * 2)
        >>> y.sum().backward(); x.grad
        tensor([2., 2., 2.])
    """
    if not STATE.enabled or not (x._rg or x._gfn is not None):
        return
    if _CAPTURES[0] is not None:
        _note_capture((x,))
    node = node_class(name, _LinearNode)()
    node._t_host = host_transpose
    node._t_tensor = tensor_transpose
    node._next = (edge_of(x),)
    out._gfn = node


def record_per_call(name: str, fn: Callable[..., Any], args: Any, outs: Any, edges: Any = None) -> Any:
    """`record` for an op whose definition ``fn`` closes over data that changes every call
    (`embedding_bag`'s bags in ``max`` mode or with ``per_sample_weights``): its VJP is
    linearized for this call only (`_record_dynamic`), so no backward program is staged,
    compiled or cached per call.  Returns the node, or None when nothing requires grad.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.ones(3, requires_grad=True)
        >>> y = torch.tensor((x.detach() * 2).numpy())
        >>> _ = record_per_call("MulBackward0", lambda v: v * 2, (x,), (y,))
        >>> y.sum().backward(); x.grad
        tensor([2., 2., 2.])
    """
    if not STATE.enabled:
        return None
    if _CAPTURES[0] is not None:
        _note_capture(args)
    diff = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor)
                 and (a._rg or a._gfn is not None) and _dtype_kind(a._buf.dtype) in "fc")
    if not diff:
        return None
    with _dev.cpu_default():  # (host operands: the definition's constants stay on the host)
        node = _record_dynamic(name, fn, args, outs, edges, False, diff)
    linearized = node._vjp

    def host_vjp(cts):  # the residuals are host arrays: the backward's constants must be too
        with _dev.cpu_default():
            return linearized(cts)

    node._vjp = host_vjp
    return node


def _record_dynamic(name, fn, args, outs, edges, multi, diff):

    vals = [wrap(a) if _is_const(a) else wrap(a._buf) for a in args]

    def f(*d):
        full = list(vals)
        for i, v in zip(diff, d, strict=True):
            full[i] = v
        return fn(*full)

    _, f_vjp = vjp(f, *[vals[i] for i in diff])
    node = node_class(name, _DynNode)()
    node._vjp = torch_convention(f_vjp)  # PyTorch's complex convention: conj in and out
    node._diff = diff
    node._multi = multi
    node._out_avals = tuple((o._buf.shape, o._buf.dtype) for o in outs)
    ob = outs[0]._buf if outs and outs[0] is not None else None
    if type(ob) in _DEV:
        node._di = _dev.index_of(ob)
    node._saved = [(args[i], args[i]._get_vc().v) for i in diff]
    if edges is None:
        edges = tuple([i for i, a in enumerate(args) if not _is_const(a)])
    node._edge_args = edges
    node._next = tuple(edge_of(args[i]) if not _is_const(args[i]) else (None, 0) for i in edges)
    for k, o in enumerate(outs):
        if o is not None and _dtype_kind(o._buf.dtype) in "fc":
            o._gfn = node
            if o._oi != k:
                o._oi = k
    return node


# ---------------------------------------------------------------------------------------
# views whose base was modified in place


def view_grad_fn(t):
    vc = t._vc
    if vc is None or vc.v == t._vver or t._nograd_view:
        return t._gfn
    base = t._base
    if base._gfn is None and not base._rg:
        return t._gfn
    from .._dispatch import regenerate_view_grad_fn

    regenerate_view_grad_fn(t)
    return t._gfn


# ---------------------------------------------------------------------------------------
# TensorTrace: run fgrad primitives as recorded Tensor ops (create_graph=True)


class TensorTracer(Tracer):
    """A tracer of `TensorTrace`: a primitive's operand or result that stands for a `Tensor`.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd import graph
        >>> graph.TensorTracer.__name__
        'TensorTracer'
    """
    __slots__ = ("t",)

    def __init__(self, trace: Any, t: Any) -> None:
        self._trace = trace
        self.t = t

    @property
    def aval(self) -> ShapedArray:
        b = self.t._buf
        return ShapedArray(b.shape, b.dtype)


class TensorTrace(Trace):
    """Each primitive applied to this trace's tracers runs eagerly on the tensors' buffers
    and is recorded on the tape (so the computation can be differentiated again).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd import graph
        >>> issubclass(graph.TensorTracer, object) and callable(graph.TensorTrace)
        True
    """

    __slots__ = ()

    def process(self, prim: Any, args: Any, params: Any) -> Any:
        for a in args:
            if type(a) is TensorTracer and a._trace is self:
                break
        else:
            return self.parent.process(prim, args, params)
        targs = []
        for a in args:
            if type(a) is TensorTracer and a._trace is self:
                targs.append(a.t)
            elif type(a) is ArrayImpl:
                targs.append(a._buf)
            elif isinstance(a, Tracer):
                targs.append(a._concrete("a create_graph backward")._buf)
            else:
                targs.append(a)
        from .._dispatch import apply_primitive

        res = apply_primitive(prim, params, targs)
        if prim.multiple_results:
            return [TensorTracer(self, r) for r in res]
        return TensorTracer(self, res)

    def concretize(self, tracer: Any, what: Any) -> Any:
        return wrap(tracer.t._buf)


# ---------------------------------------------------------------------------------------
# the engine


def _nodes_of(n) -> tuple:
    """The nodes of ``n``'s edges (None where an edge leads nowhere), from its flat fields."""
    k = len(n._ix)
    if k == 1:
        return (n._n0,)
    if k == 2:
        return (n._n0, n._n1)
    return () if k == 0 else (n._n0, n._n1, *n._nr)


def _call_tensor_hooks(hooks, g, create_graph):
    for fn in list(hooks.values()):
        r = fn(g if isinstance(g, Tensor) else _wrap(g))
        if r is not None:
            if tuple(getattr(r, "shape", ())) != tuple(g.shape):  # PyTorch's check, word for word
                name = getattr(fn, "__name__", type(fn).__name__)
                raise RuntimeError(
                    f"hook '{name}' has changed the size of value (it returned shape {list(r.shape)} "
                    f"for a gradient of shape {list(g.shape)}; a tensor hook must return None or a "
                    f"gradient of the same shape)"
                )
            g = r if create_graph else (r._buf if isinstance(r, Tensor) else np.asarray(r))
    return g


def _as_tensor(g):
    return g if isinstance(g, Tensor) else _wrap(g)


def run_backward(*args: Any, **kwargs: Any) -> Any:
    """`_run_backward` with NumPy's floating-point reports off: a backward pass through
    IEEE special values (``1/0``, ``0 * inf``) gives them silently, as PyTorch does.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd import graph
        >>> callable(graph.run_backward)
        True
    """
    if _profile_state.recorder is not None:  # torch.profiler: the backward pass as one range
        with _profile_state.recorder.range("autograd::engine::evaluate_function"):
            return _quiet_backward(*args, **kwargs)
    return _quiet_backward(*args, **kwargs)


def _run_backward(
    roots,
    grads,
    retain_graph: bool,
    create_graph: bool,
    inputs=None,
    allow_unused: bool = True,
    accumulate: bool = True,
):
    """Propagate ``grads`` (buffers, or Tensors when create_graph) from the root edges
    ``roots`` [(node, output index)].  With ``inputs`` (Tensors), return their gradients
    (and, if ``accumulate``, accumulate into them only)."""
    # -- discover the graph and count dependencies ------------------------------------
    deps: dict = {}  # node -> number of edges into it from the graph (its presence: seen)
    stack = []
    for node, _ in roots:
        if node is not None and node not in deps:
            deps[node] = 0
            stack.append(node)
    get = deps.get
    while stack:
        n = stack.pop()
        for nxt in _nodes_of(n):
            if nxt is None:
                continue
            d = get(nxt)
            if d is None:
                deps[nxt] = 1
                stack.append(nxt)
            else:
                deps[nxt] = d + 1
    # -- capture targets -----------------------------------------------------------------
    captures = None
    needed = None
    if inputs is not None:
        captures = {}
        targets = []
        for i, t in enumerate(inputs):
            if type(t) is GradientEdge:
                node, key = t.node, (id(t.node), t.output_nr)
            elif t._gfn is None and t._base is None or (t._base is not None and view_grad_fn(t) is None):
                ref = t._acc
                node = ref() if ref is not None else None
                key = (id(node), 0) if node is not None else None
            else:
                node = t.grad_fn
                key = (id(node), t._oi)
            targets.append((node, key))
            if key is not None:
                captures.setdefault(key, []).append(i)
        # nodes on a path to a target
        target_ids = {id(n) for n, k in targets if n is not None}
        needed = set()
        post = []
        vis = set()
        for node, _ in roots:
            if node is None or id(node) in vis:
                continue
            st = [(node, iter(node._next))]
            vis.add(id(node))
            while st:
                n, it = st[-1]
                for nxt, _ in it:
                    if nxt is not None and id(nxt) not in vis:
                        vis.add(id(nxt))
                        st.append((nxt, iter(nxt._next)))
                        break
                else:
                    st.pop()
                    post.append(n)
        for n in post:  # post-order: a node runs only if a target lies strictly below it
            if any(nx is not None and (id(nx) in needed or id(nx) in target_ids) for nx, _ in n._next):
                needed.add(id(n))
        results = [None] * len(inputs)
    # -- seed --------------------------------------------------------------------------
    bufs: dict = {}
    given = set()
    for (node, oi), g in zip(roots, grads, strict=False):
        if node is None:
            continue
        given.add(id(g))
        lst = bufs.get(node)
        if lst is None:
            lst = bufs[node] = [None] * node._n_outputs()
        lst[oi] = g if lst[oi] is None else _add(lst[oi], g)
    ready = []
    counter = itertools.count()
    for node, _ in roots:
        if (
            node is not None
            and deps.get(node, 0) == 0
            and node in bufs
            and not any(r[2] is node for r in ready)
        ):
            heapq.heappush(ready, (-node._seq, next(counter), node))
    prev_mode = STATE.enabled
    STATE.enabled = bool(create_graph)
    tasks = _RUNNING.tasks
    tasks.append((next(_task_ids), deps, needed,
                   None if captures is None else {id(n) for n, k in targets if n is not None}))
    try:
        while ready:
            _, _, node = heapq.heappop(ready)
            cts = bufs.pop(node, None)
            if cts is None:
                cts = [None] * node._n_outputs()
            # tensor hooks, retain_grad, captures
            tpre = node._tpre
            if tpre:
                for oi, hooks in tpre.items():
                    if cts[oi] is not None and hooks:
                        cts[oi] = _call_tensor_hooks(hooks, cts[oi], create_graph)
            ret = node._retain
            if ret:
                for oi, ref in ret.items():
                    t = ref()
                    if t is not None and cts[oi] is not None:
                        _retain(t, cts[oi], create_graph, given)
            if type(node) is AccumulateGrad:
                _accumulate(
                    node,
                    cts[0],
                    create_graph,
                    captures,
                    results if captures is not None else None,
                    accumulate,
                    given,
                )
                continue
            if captures is not None:
                for oi in range(len(cts)):
                    idxs = captures.get((id(node), oi))
                    if idxs and cts[oi] is not None:
                        for i in idxs:
                            results[i] = _as_tensor(cts[oi])
                if id(node) not in needed:
                    continue
            if node._pre:
                for fn in list(node._pre.values()):
                    r = fn(tuple(None if c is None else _as_tensor(c) for c in cts))
                    if r is not None:
                        cts = [None if c is None else (c if create_graph else c._buf) for c in r]
            for c in cts:
                if c is not None:
                    in_cts = node._apply(cts, create_graph)
                    break
            else:
                in_cts = [None] * len(node._ix)
            if node._post:
                gi = tuple(None if c is None else _as_tensor(c) for c in in_cts)
                go = tuple(None if c is None else _as_tensor(c) for c in cts)
                for fn in list(node._post.values()):
                    r = fn(gi, go)
                    if r is not None:
                        gi = r
                in_cts = [None if c is None else (c if create_graph else c._buf) for c in gi]
            if ANOMALY.enabled and ANOMALY.check_nan:
                check_node_gradients(node, cts, in_cts)
            if not retain_graph:
                node._release()
            for nxt, idx, c in zip(_nodes_of(node), node._ix, in_cts, strict=False):
                if nxt is None:
                    continue
                if c is not None:
                    lst = bufs.get(nxt)
                    if lst is None:
                        lst = bufs[nxt] = [None] * nxt._n_outputs()
                    lst[idx] = c if lst[idx] is None else _add(lst[idx], c)
                d = deps[nxt] - 1
                deps[nxt] = d
                if d == 0:
                    if nxt in bufs:
                        heapq.heappush(ready, (-nxt._seq, next(counter), nxt))
                    else:
                        _skip(nxt, deps, bufs, ready, counter, retain_graph)
    finally:
        STATE.enabled = prev_mode
        tasks.pop()
    if captures is not None:
        if not allow_unused:
            for i, r in enumerate(results):
                if r is None:
                    raise RuntimeError(
                        f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                        "Set allow_unused=True if this is the desired behavior."
                    )
        return results
    return None


_quiet_backward = quiet(_run_backward)

# the backward passes running in this thread (innermost last): (id, deps, needed, target node ids)
class _Running(threading.local):
    def __init__(self) -> None:
        self.tasks: list = []


_RUNNING = _Running()
_task_ids = itertools.count()


def current_graph_task_id() -> int:
    """The id of the backward pass running now (-1 outside one): PyTorch's
    ``torch._C._current_graph_task_id``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.autograd.graph.current_graph_task_id()
        -1
    """
    tasks = _RUNNING.tasks
    return tasks[-1][0] if tasks else -1


def will_engine_execute_node(node: Node | GradientEdge) -> bool:
    """Whether the running backward pass will execute ``node`` (it is on the graph and,
    with ``inputs=``, on a path to one of them): PyTorch's ``torch._C._will_engine_execute_node``.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> y = x * 2
        >>> seen = []
        >>> h = y.register_hook(lambda g: seen.append(
        ...     torch.autograd.graph.will_engine_execute_node(y.grad_fn)))
        >>> y.sum().backward(); seen
        [True]
    """
    tasks = _RUNNING.tasks
    if not tasks:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    if isinstance(node, GradientEdge):
        node = node.node
    _, deps, needed, targets = tasks[-1]
    if node not in deps:
        return False
    return needed is None or id(node) in needed or id(node) in targets


class GradientEdge(NamedTuple):
    """Where a tensor's gradient is computed in the graph: ``(node, output_nr)``
    (PyTorch's ``torch.autograd.graph.GradientEdge`` named tuple).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> e = torch.autograd.graph.get_gradient_edge(x * 2)
        >>> e.node.name(), e.output_nr
        ('MulBackward0', 0)
    """

    node: Node
    output_nr: int


def _grad_fn_or_acc(t: Any) -> Node:
    if isinstance(t, GradientEdge):
        return t.node
    node, _ = edge_of(t)
    if node is None:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require "
                           "gradients")
    return node


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The `GradientEdge` (grad_fn or leaf accumulator, output index) of ``tensor``.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> torch.autograd.graph.get_gradient_edge(x).node.name()
        'torch::autograd::AccumulateGrad'
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require "
                           "gradients")
    node, oi = edge_of(tensor)
    return GradientEdge(node, oi)


def increment_version(tensor: Tensor | Any) -> None:
    """Bump the version counter of ``tensor`` (or of each tensor of an iterable), for data
    modified in place behind autograd's back: a backward pass that saved it then raises.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.ones(2)
        >>> torch.autograd.graph.increment_version(x); x._version
        1
    """
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if not t._inf:
            t._get_vc().v += 1


class _MultiHandle:
    __slots__ = ("handles",)

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for h in self.handles:
            h.remove()

    def __enter__(self) -> _MultiHandle:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


def register_multi_grad_hook(tensors: Any, fn: Callable[..., Any], *, mode: str = "all") -> _MultiHandle:
    """Call ``fn`` once per backward pass over several tensors: with ``mode="all"``, after
    the gradients of all of them that the pass computes, as ``fn(grads)`` (None for those
    off the pass); with ``mode="any"``, as ``fn(grad)`` with the first one computed.

    Example::

        >>> import fgrad.torch as torch
        >>> a = torch.ones(2, requires_grad=True)
        >>> b = torch.ones(2, requires_grad=True)
        >>> c = a * b
        >>> d = a * b
        >>> h = torch.autograd.graph.register_multi_grad_hook(
        ...     (a, b, c, d), lambda gs: print([g is not None for g in gs]))
        >>> c.sum().backward(retain_graph=True)
        [True, True, True, False]
        >>> c.sum().backward(inputs=(a,), retain_graph=True)
        [True, False, True, False]
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "any":
        ran: dict = {}

        def any_hook(grad):
            task = current_graph_task_id()
            if ran.get(task):
                return
            ran.clear()
            ran[task] = True
            fn(grad)

        return _MultiHandle(tuple(t.register_hook(any_hook) for t in tensors if t.requires_grad))
    nodes = [_grad_fn_or_acc(t) for t in tensors]
    n = len(nodes)
    state: dict = {}  # graph task id -> [count, expected, buffer]

    def inner(idx):
        def hook(grad):
            task = current_graph_task_id()
            st = state.get(task)
            if st is None:
                st = state[task] = [0, sum(map(will_engine_execute_node, nodes)), [None] * n]
            st[0] += 1
            st[2][idx] = grad
            if st[0] == st[1]:
                del state[task]
                fn(st[2])

        return hook

    return _MultiHandle(tuple(t.register_hook(inner(i)) for i, t in enumerate(tensors)))


def _skip(node, deps, bufs, ready, counter, retain_graph) -> None:
    """A node reached with no gradient at all: release it and propagate 'done'."""
    stack = [node]
    while stack:
        n = stack.pop()
        if not retain_graph:
            n._release()
        for nxt in _nodes_of(n):
            if nxt is None:
                continue
            d = deps[nxt] - 1
            deps[nxt] = d
            if d == 0:
                if nxt in bufs:
                    heapq.heappush(ready, (-nxt._seq, next(counter), nxt))
                else:
                    stack.append(nxt)


def _add(a, b):
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        from .._ops import add

        return add(_as_tensor(a), _as_tensor(b))
    if a.shape != b.shape:
        return np.add(a, b)
    return np.add(a, b)


def _own(g, given):
    """A buffer safe to store as a user-visible .grad."""
    if isinstance(g, Tensor):
        if id(g) in given:
            from .._ops import clone

            g = clone(g)
        given.add(id(g))
        return g
    if type(g) is _ndarray:
        if id(g) in given or not (g.flags.owndata and g.flags.writeable):
            g = g.copy()
    elif type(g) in _DEV:
        if id(g) in given or not g.flags.owndata:
            g = g.copy()
    else:
        g = _copy(g)
    given.add(id(g))
    return g


def _retain(t, g, create_graph, given) -> None:
    if t._grad is None:
        g = _own(g, given)
        t._grad = g if isinstance(g, Tensor) else _wrap(g)
    else:
        from .._ops import add

        t._grad = add(t._grad, _as_tensor(g))


def _accumulate(node, g, create_graph, captures, results, accumulate, given) -> None:
    if g is None:
        return
    var = node.variable
    if captures is not None and (id(node), 0) not in captures:  # not an input: PyTorch runs no hook
        return
    hooks = var._hooks
    if hooks:
        g = _call_tensor_hooks(hooks, g, create_graph)
    if captures is not None:
        idxs = captures.get((id(node), 0))
        if idxs:
            for i in idxs:
                results[i] = _as_tensor(g)
        if not accumulate or not idxs:
            return
    old = var._grad
    if old is None:
        g = _own(g, given)
        var._grad = g if isinstance(g, Tensor) else _wrap(g)
        if var._grad._buf.shape != var._buf.shape:
            gb = var._grad._buf
            var._grad = _wrap(_copy(_dev.xp_of(gb).broadcast_to(gb, var._buf.shape)))
    elif create_graph or STATE.enabled:
        from .._ops import add

        var._grad = add(old, _as_tensor(g))
    else:
        ob = old._buf
        gb = g._buf if isinstance(g, Tensor) else g
        if (type(ob) is _ndarray and ob.flags.writeable) or (type(ob) in _DEV and ob.shape == var._buf.shape):
            np.add(ob, gb, out=ob, casting="unsafe")
            old._get_vc().v += 1
        else:
            var._grad = _wrap(np.add(ob, gb))
    post = var._post_acc_hooks
    if post:
        for fn in list(post.values()):
            fn(var)


__all__ = [
    "GradientEdge",
    "get_gradient_edge",
    "increment_version",
    "register_multi_grad_hook",
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
    "allow_mutation_on_saved_tensors",
    "current_graph_task_id",
    "will_engine_execute_node",
    "Node",
    "AccumulateGrad",
    "RemovableHandle",
    "record",
    "run_backward",
    "TensorTrace",
    "TensorTracer",
    "node_class",
    "edge_of",
    "get_program",
    "_alias",
]
