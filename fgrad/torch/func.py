"""Bridge between `fgrad.torch` and fgrad's functional transforms.

* `functional_call(module, params, args)` runs a Module with its parameters/buffers replaced
  by the given values.  Values may be Tensors (PyTorch semantics: autograd flows to them;
  inside a torch.func transform they hold tracers and the outputs are Tensors too) or
  fgrad arrays / tracers -- then the module's Tensor ops run their fgrad definitions on the
  traced values (functional mode) and the outputs come back as fgrad arrays, so a
  Module's loss can go through ``fgrad.grad``, ``fgrad.vmap`` and ``fgrad.jit``.
* The torch.func transforms keep the caller's dict key order and, applied to tensors that
  require grad, are recorded by autograd as one node (``_Transformed``).
* `_to_array` / `_from_array` (private): Tensor <-> `fgrad.Array` without copying.
* `grad`, `vmap`, `vjp`, `jacrev`, `jacfwd`, `hessian`: ``torch.func``-style wrappers of the
  fgrad transforms for functions of Tensors.

Example::

    >>> import fgrad, fgrad.torch as torch
    >>> from fgrad.torch.func import functional_call
    >>> lin = torch.nn.Linear(3, 1)                                        # doctest: +SKIP
    >>> loss = lambda p, x: functional_call(lin, p, (x,)).sum()            # doctest: +SKIP
    >>> fgrad.grad(loss)(dict(lin.named_parameters()), torch.ones(2, 3))    # doctest: +SKIP
"""

from __future__ import annotations

import collections.abc
import functools
import contextlib
import typing

import numpy as np

from ..core.array import Array, ArrayImpl, Tracer, wrap
from ._device import DEV as _DEV, cpu_default as _cpu_default
from ._ops_shape import stack as _stack
from ._tensor import Tensor, _wrap
from ._tensor import refresh_functional_view as _refresh_view
from ..transforms.jvp_trace import FORWARD_MARK as _FORWARD_MARK
from .autograd.complex_cotangents import conj_if_complex
from .autograd.function import Function as _Function
from .autograd.grad_mode import STATE as _GRAD, enable_grad
from ._func_captures import SEEN as _CAPTURES, start as _start_capture
from ..core.narrow_floats import dtype_kind as _dtype_kind
import fgrad

_nd = np.ndarray


def _to_array(t: Tensor) -> Array:
    """The tensor's data as an `fgrad.Array` (no copy: the array sees later in-place
    changes to the tensor, so treat it as a snapshot only while the tensor is unchanged)."""
    if t._fbase is not None and t._fver != t._fbase._fver:  # a view whose base was written
        _refresh_view(t)
    b = t._buf
    return wrap(b) if type(b) is _nd or type(b) in _DEV else b


def _from_array(a: typing.Any) -> Tensor:
    """A Tensor over an `fgrad.Array`'s buffer (no copy) or holding a tracer (a Tensor:
    itself)."""
    if isinstance(a, Tensor):
        return a
    if type(a) is ArrayImpl:  # (a reduction's value may hold a NumPy scalar: a Tensor holds an array)
        b = a._buf
        return _wrap(b if type(b) is _nd or type(b) in _DEV else np.asarray(b))
    if isinstance(a, Tracer):
        return _wrap(a)
    if isinstance(a, np.ndarray) or type(a) in _DEV:
        return _wrap(a)
    return _wrap(np.asarray(a))


def _to_tensor(v):
    if isinstance(v, Tensor):
        return v
    if isinstance(v, Array):
        return _from_array(v)
    if isinstance(v, np.ndarray):
        return _wrap(v)
    return v


def _is_functional_value(v) -> bool:
    return isinstance(v, Array) or (
        isinstance(v, Tensor) and not isinstance(v._buf, _nd) and type(v._buf) not in _DEV
    )


def _resolve(module, name):
    """The module holding the tensor ``name`` and its last name; a path through a missing
    submodule raises ``get_submodule``'s error ("Sequential has no attribute `0`"), as
    PyTorch's functional_call."""
    prefix, _, attr = name.rpartition(".")
    return (module.get_submodule(prefix) if hasattr(module, "get_submodule") else module), attr


@contextlib.contextmanager
def _reparametrize(module, values: dict, strict: bool = False):
    saved = []
    try:
        for name, v in values.items():
            mod, attr = _resolve(module, name)
            t = _to_tensor(v)
            params = getattr(mod, "_parameters", None)
            buffers = getattr(mod, "_buffers", None)
            if params is not None and attr in params:
                saved.append((params, attr, params[attr], "dict"))
                params[attr] = t
            elif buffers is not None and attr in buffers:
                saved.append((buffers, attr, buffers[attr], "dict"))
                buffers[attr] = t
            else:
                if strict:
                    raise RuntimeError(f"functional_call: unexpected key {name!r}")
                old = mod.__dict__.get(attr, _MISSING)
                saved.append((mod, attr, old, "attr"))
                object.__setattr__(mod, attr, t)
        yield
    finally:
        for container, attr, old, kind in reversed(saved):
            if kind == "dict":
                container[attr] = old
            elif old is _MISSING:
                object.__delattr__(container, attr)
            else:
                object.__setattr__(container, attr, old)


_MISSING = object()


def _simple_map(f, x):
    if isinstance(x, (list, tuple)):
        return type(x)(_simple_map(f, e) for e in x)
    if isinstance(x, dict):
        return {k: _simple_map(f, v) for k, v in x.items()}
    return f(x)


def functional_call(
    module: fgrad.torch.nn.Module,
    parameter_and_buffer_dicts: collections.abc.Mapping[str, typing.Any]
    | collections.abc.Sequence[collections.abc.Mapping[str, typing.Any]],
    args: typing.Any = None, kwargs: dict[str, typing.Any] | None = None, *, tie_weights: bool = True,
    strict: bool = False
) -> typing.Any:
    """Call ``module(*args, **kwargs)`` with parameters/buffers replaced by the given values.

    With fgrad arrays (or tracers) as values the outputs are fgrad arrays, so the call can be
    differentiated/vectorized/compiled by fgrad transforms."""
    if isinstance(parameter_and_buffer_dicts, (list, tuple)):
        values: dict = {}
        for d in parameter_and_buffer_dicts:
            values.update(d)
    else:
        values = dict(parameter_and_buffer_dicts)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    # fgrad arrays in, fgrad arrays out; Tensors in (torch.func's transforms hand the function
    # Tensors over tracers), Tensors out, as in PyTorch
    arrays_in = any(isinstance(v, Array) for v in values.values()) or any(isinstance(a, Array) for a in args)
    functional = arrays_in or any(_is_functional_value(v) for v in values.values())
    args = tuple(_to_tensor(a) if isinstance(a, (Array, np.ndarray)) else a for a in args)
    kwargs = kwargs or {}
    with _reparametrize(module, values, strict), enable_grad() if functional else contextlib.nullcontext():
        out = module(*args, **kwargs)  # traced: an outer no_grad does not stop the transform's derivative
    return _simple_map(lambda x: _to_array(x) if isinstance(x, Tensor) else x, out) if arrays_in else out


# -- torch.func-style transforms --------------------------------------------------------


def _forward_marked(transform):
    """``transform`` (an fgrad forward-mode transform) making `ForwardTrace` JVP traces: under
    them ``torch.no_grad`` keeps tangents, as PyTorch's forward mode ignores grad mode."""

    @functools.wraps(transform)
    def run(*args, **kwargs):
        mark, _FORWARD_MARK[0] = _FORWARD_MARK[0], True
        try:
            return transform(*args, **kwargs)
        finally:
            _FORWARD_MARK[0] = mark

    return run


def _tensor_fn(func):
    """Wrap a function of Tensors as a function of fgrad arrays (``f.orders``: the key order
    of the dicts it returned, which the transform's output keeps)."""

    def f(*arrays, **kwargs):
        ins = _simple_map(lambda a: _from_array(a) if isinstance(a, Array) else a, arrays)
        with enable_grad():  # a transform ignores an outer no_grad; an inner one stops gradients
            out = func(*ins, **kwargs)
        f.orders = _key_orders(out)
        return _simple_map(lambda x: _to_array(x) if isinstance(x, Tensor) else x, out)

    f.orders = {}
    return f


def _key_orders(*trees) -> dict:
    """The key order of every dict in ``trees``, by key set (fgrad's pytrees sort dict keys;
    torch.func keeps them in insertion order)."""
    orders: dict = {}

    def visit(x):
        if isinstance(x, dict):
            orders.setdefault(frozenset(x), list(x))
            for v in x.values():
                visit(v)
        elif type(x) in (list, tuple):
            for v in x:
                visit(v)

    for t in trees:
        visit(t)
    return orders


def _in_order(x, orders: dict):
    if isinstance(x, dict):
        return {k: _in_order(x[k], orders) for k in orders.get(frozenset(x), list(x))}
    if type(x) in (list, tuple):
        return type(x)(_in_order(v, orders) for v in x)
    return x


def _concrete_leaf_needing_grad(a) -> bool:
    return (isinstance(a, Tensor) and a.requires_grad and (type(a._buf) is _nd or type(a._buf) in _DEV))


class _Transformed(_Function):
    """A torch.func transform's call as one node of PyTorch's autograd graph: its forward
    is ``fgrad.vjp`` of the transformed function in the tracked tensors, its backward that
    vjp (so an ensemble run through ``vmap`` trains with ``loss.backward()``)."""

    @staticmethod
    def forward(ctx, transformed, args, meta, *tracked):
        closed = meta.get("closed", [])  # tensors the function closes over: the last inputs
        where = {id(t): k for k, t in enumerate(tracked[:len(tracked) - len(closed)])}

        def fn(*arrays):
            full = _simple_map(lambda a: arrays[where[id(a)]] if id(a) in where
                               else _to_array(a) if isinstance(a, Tensor) else a, args)
            bufs = [t._buf for t in closed]
            try:  # the closed-over tensors hold the traced inputs while the function runs
                for t, a in zip(closed, arrays[len(arrays) - len(closed):]):
                    t._buf = a
                res = transformed(*full)
            finally:
                for t, b in zip(closed, bufs):
                    t._buf = b
            leaves, meta["tree"] = fgrad.tree_util.tree_flatten(res)
            meta["diff"] = [_dtype_kind(v.dtype) in "fc" for v in leaves]
            return ([v for v, d in zip(leaves, meta["diff"]) if d],
                    [v for v, d in zip(leaves, meta["diff"]) if not d])

        ctx.host = all(type(t._buf) is _nd for t in tracked)  # (CPU tensors: host constants)
        with _cpu_default() if ctx.host else contextlib.nullcontext():
            diff_out, ctx.f_vjp, other = fgrad.vjp(fn, *(_to_array(t) for t in tracked), has_aux=True)
        ctx.diff = meta["diff"]
        diff_out, other = iter(diff_out), iter(other)
        return tuple(_from_array(next(diff_out) if d else next(other)) for d in meta["diff"])

    @staticmethod
    def backward(ctx, *grads):
        cts = [conj_if_complex(_to_array(g)) for g, d in zip(grads, ctx.diff) if d]
        with _cpu_default() if ctx.host else contextlib.nullcontext():
            pulled = ctx.f_vjp(cts)
        return (None, None, None, *(_from_array(conj_if_complex(g)) for g in pulled))


def _call(transformed, tfn, args, extra_orders=()):
    """Run ``transformed`` (a transform of ``tfn``, a function of fgrad arrays) on the
    Tensors ``args``: Tensors out, dicts in PyTorch's key order, and recorded by autograd
    when an input requires grad."""
    orders = _key_orders(args, *extra_orders)
    tracked = _tracked_args(args)
    out, closed = _noting_closures(lambda: _run_recorded(transformed, args, tracked, []), tracked)
    if closed:  # run again with them as inputs of the autograd node, as PyTorch records them
        del out
        _start_capture()  # (inner transforms note nothing)
        try:
            out = _run_recorded(transformed, args, tracked, closed)
        finally:
            _CAPTURES[0] = None
    for k, v in tfn.orders.items():
        orders.setdefault(k, v)
    return _in_order(out, orders)


def _tracked_args(args) -> list:
    """The concrete Tensors requiring grad among ``args`` (none under no_grad)."""
    tracked: list = []
    if _GRAD.enabled:
        _simple_map(lambda a: tracked.append(a) if _concrete_leaf_needing_grad(a) else None, args)
    return tracked


def _noting_closures(run, tracked: list) -> tuple:
    """``(run(), closed)``: ``closed`` lists the Tensors requiring grad, other than
    ``tracked``, that the ops ``run`` ran read from outside the traced function (`_func_captures`);
    empty under no_grad and inside another transform (the outermost one notes them)."""
    if not _GRAD.enabled or _CAPTURES[0] is not None:
        return run(), []
    seen = _start_capture()
    try:
        out = run()
    finally:
        _CAPTURES[0] = None
    ids = {id(t) for t in tracked}
    return out, [t for t in list(seen.values()) if id(t) not in ids]


def _run_recorded(transformed, args, tracked: list, closed: list):
    """``transformed`` on ``args`` as Tensors, one autograd node when tensors among
    ``tracked`` (arguments) or ``closed`` (tensors the function closes over) require grad."""
    if not tracked and not closed:
        return _to_tensors(transformed(*_to_arrays(args)))
    meta: dict = {"closed": closed}
    flat = _Transformed.apply(transformed, args, meta, *tracked, *closed)
    return fgrad.tree_util.tree_unflatten(meta["tree"], list(flat))


def _to_arrays(args):
    return _simple_map(lambda a: _to_array(a) if isinstance(a, Tensor) else a, args)


def _to_tensors(out):
    return _simple_map(lambda a: _from_array(a) if isinstance(a, Array) else a, out)


def _torch_convention(grads):
    """PyTorch's complex gradients are the conjugate of the core's (JAX's) ones."""
    return _simple_map(conj_if_complex, grads)


def grad(func: collections.abc.Callable[..., typing.Any], argnums: int | tuple[int, ...] = 0,
         has_aux: bool = False) -> collections.abc.Callable[..., typing.Any]:

    tfn = _tensor_fn(func)
    g = fgrad.grad(tfn, argnums=argnums, has_aux=has_aux)

    def run(*args, **kw):
        def transformed(*a):
            res = g(*a, **kw)
            return (_torch_convention(res[0]), res[1]) if has_aux else _torch_convention(res)

        return _call(transformed, tfn, args)

    return run


def grad_and_value(func: collections.abc.Callable[..., typing.Any], argnums: int | tuple[int, ...] = 0,
                   has_aux: bool = False) -> collections.abc.Callable[..., typing.Any]:

    tfn = _tensor_fn(func)
    g = fgrad.value_and_grad(tfn, argnums=argnums, has_aux=has_aux)

    def run(*args, **kw):
        def transformed(*a):
            v, gr = g(*a, **kw)
            return _torch_convention(gr), v

        return _call(transformed, tfn, args)

    return run


def vmap(func: collections.abc.Callable[..., typing.Any], in_dims: typing.Any = 0, out_dims: typing.Any = 0,
         randomness: str = "error", *,
         chunk_size: int | None = None) -> collections.abc.Callable[..., typing.Any]:

    tfn = _tensor_fn(func)
    v = fgrad.vmap(tfn, in_axes=in_dims, out_axes=out_dims)
    return lambda *args: _call(v, tfn, args)


def _check_chunk_size(name: str, chunk_size) -> None:
    """torch.func's check and message (a float chunk size fails later there; here at once)."""
    if chunk_size is None:
        return
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
        raise TypeError(f"{name}: `chunk_size` should be an int or None, got "
                        f"{type(chunk_size).__name__}")
    if chunk_size <= 0:
        raise ValueError(f"{name}: `chunk_size` should be greater than 0.")


def jacrev(func: collections.abc.Callable[..., typing.Any], argnums: int | tuple[int, ...] = 0, *,
           has_aux: bool = False, chunk_size: int | None = None,
           _preallocate_and_copy: bool = False) -> collections.abc.Callable[..., typing.Any]:
    """``torch.func.jacrev``: ``chunk_size=k`` computes ``k`` rows of the Jacobian at a time
    (``1``: one vjp per output element, in a loop; None: all rows in one vmap).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.func.jacrev(torch.sin, chunk_size=1)(torch.zeros(2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    _check_chunk_size("jacrev", chunk_size)
    tfn = _tensor_fn(func)
    j = fgrad.jacrev(tfn, argnums=argnums, has_aux=has_aux, chunk_size=chunk_size)
    return lambda *args: _call(j, tfn, args)


def jacfwd(func: collections.abc.Callable[..., typing.Any], argnums: int | tuple[int, ...] = 0,
           has_aux: bool = False, *, randomness: str = "error",
           chunk_size: int | None = None) -> collections.abc.Callable[..., typing.Any]:
    """``torch.func.jacfwd``; ``chunk_size`` (an fgrad extension: PyTorch 2.13's jacfwd has
    none) as in `jacrev`, over the input elements.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.func.jacfwd(torch.sin, chunk_size=1)(torch.zeros(2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    _check_chunk_size("jacfwd", chunk_size)
    tfn = _tensor_fn(func)
    j = _forward_marked(fgrad.jacfwd(tfn, argnums=argnums, has_aux=has_aux, chunk_size=chunk_size))
    return lambda *args: _call(j, tfn, args)


def hessian(func: collections.abc.Callable[..., typing.Any],
            argnums: int | tuple[int, ...] = 0) -> collections.abc.Callable[..., typing.Any]:

    tfn = _tensor_fn(func)
    h = _forward_marked(fgrad.hessian(tfn, argnums=argnums))
    return lambda *args: _call(h, tfn, args)


def vjp(func: collections.abc.Callable[..., typing.Any], *primals: typing.Any,
        has_aux: bool = False) -> tuple[typing.Any, ...]:

    tfn = _tensor_fn(func)
    tracked = _tracked_args(primals)
    res, closed = _noting_closures(lambda: fgrad.vjp(tfn, *_to_arrays(primals), has_aux=has_aux), tracked)
    if tracked or closed:  # autograd records the forward and every vjp_fn call (PyTorch's)
        return _recorded_vjp(tfn, primals, has_aux)
    out, f_vjp = res[0], res[1]

    def vjp_fn(ct):
        return _to_tensors(_torch_convention(f_vjp(_torch_convention(_to_arrays(ct)))))

    if has_aux:
        return _to_tensors(out), vjp_fn, _to_tensors(res[2])
    return _to_tensors(out), vjp_fn


def _recorded_vjp(tfn, primals: tuple, has_aux: bool) -> tuple:
    """`vjp` when the primals or tensors the function closes over require grad: the forward
    and each ``vjp_fn`` call are transforms recorded by autograd (`_call`), ``vjp_fn``
    differentiating the function again at the primals."""
    res = _call(tfn, tfn, primals)
    out = res[0] if has_aux else res
    primal_fn = (lambda *a: tfn(*a)[0]) if has_aux else tfn

    def pulled(p, ct):
        return _torch_convention(fgrad.vjp(primal_fn, *p)[1](_torch_convention(ct)))

    def vjp_fn(ct):
        return _call(pulled, tfn, (tuple(primals), ct))

    return (out, vjp_fn, res[1]) if has_aux else (out, vjp_fn)


def jvp(func: collections.abc.Callable[..., typing.Any], primals: tuple[typing.Any, ...],
        tangents: tuple[typing.Any, ...], *, strict: bool = False,
        has_aux: bool = False) -> tuple[typing.Any, ...]:
    """Forward-mode derivative: ``(func(*primals), J(primals) @ tangents)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.func.jvp(torch.sin, (torch.tensor(0.0),), (torch.tensor(2.0),))
        (tensor(0.), tensor(2.))
    """
    if strict:
        raise NotImplementedError("torch.func.jvp(strict=True): fgrad does not track whether an output "
                                  "is independent of the inputs; call with strict=False (its tangent is "
                                  "then zero)")
    tfn = _tensor_fn(func)
    res = _call(lambda p, t: _forward_marked(fgrad.jvp)(tfn, tuple(p), tuple(t), has_aux=has_aux), tfn,
                (tuple(primals), tuple(tangents)))
    return tuple(res)


def linearize(func: collections.abc.Callable[..., typing.Any], *primals: typing.Any
              ) -> tuple[typing.Any, collections.abc.Callable[..., typing.Any]]:
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is the JVP at ``primals`` without
    re-running ``func`` (its linearization is kept), as ``torch.func.linearize``.

    Example::

        >>> import fgrad.torch as torch
        >>> out, jvp_fn = torch.func.linearize(torch.sin, torch.tensor([1.0, 2.0]))
        >>> out, jvp_fn(torch.ones(2))
        (tensor([0.8415, 0.9093]), tensor([ 0.5403, -0.4161]))
    """
    tfn = _tensor_fn(func)
    tracked = _tracked_args(primals)
    linearized = _forward_marked(fgrad.linearize)
    (out, f_jvp), closed = _noting_closures(lambda: linearized(tfn, *_to_arrays(primals)), tracked)
    if tracked or closed:  # autograd records the forward and every jvp_fn call (PyTorch's)
        out = _call(tfn, tfn, primals)
        jvp_at = _forward_marked(fgrad.jvp)
        f_jvp = None

    def jvp_fn(*tangents: typing.Any) -> typing.Any:
        if len(tangents) != len(primals):
            raise RuntimeError(f"linearize: expected {len(primals)} tangents (one per primal), got "
                               f"{len(tangents)}")
        for p, t in zip(primals, tangents, strict=True):
            if isinstance(p, Tensor) and isinstance(t, Tensor) and tuple(p.shape) != tuple(t.shape):
                raise RuntimeError(f"linearize: tangent of shape {list(t.shape)} for a primal of shape "
                                   f"{list(p.shape)}: they must match")
        if f_jvp is None:
            return _call(lambda p, t: jvp_at(tfn, tuple(p), tuple(t))[1], tfn, (tuple(primals), tangents))
        return _to_tensors(f_jvp(*_to_arrays(tangents)))

    return _to_tensors(out), jvp_fn


def functionalize(func: collections.abc.Callable[..., typing.Any], *,
                  remove: str = "mutations") -> collections.abc.Callable[..., typing.Any]:
    """``func`` with its mutations of intermediates removed (``torch.func.functionalize``).
    The result computes the same values; fgrad's transforms already run tensor programs
    functionally (in-place ops and views rebind traced values), so the function is returned
    wrapped as is; input mutations still happen, as in PyTorch.

    Example::

        >>> import fgrad.torch as torch
        >>> def f(x):
        ...     y = x.clone()
        ...     y.add_(1)
        ...     return y
        >>> torch.func.functionalize(f)(torch.tensor([1.0]))
        tensor([2.])
    """
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. Valid "
            "options are:\n     remove='mutations': all inplace and out= operators will be removed from the "
            "program, and replaced with their out-of-place equivalents.\n     remove='mutations_and_views': "
            "In addition to the above, all aliasing operators {view} will be replaced with their "
            "non-aliasing counterparts, {view}_copy.\n")

    @functools.wraps(func)
    def functionalized(*args: typing.Any, **kwargs: typing.Any) -> typing.Any:
        return func(*args, **kwargs)

    return functionalized


def replace_all_batch_norm_modules_(root: fgrad.torch.nn.Module) -> fgrad.torch.nn.Module:
    """Make every batch norm in ``root`` stop tracking running statistics (in place), so that
    ``vmap`` over a batch works (``torch.func.replace_all_batch_norm_modules_``).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.func.replace_all_batch_norm_modules_(torch.nn.Sequential(torch.nn.BatchNorm1d(3)))
        >>> m[0].running_mean is None, m[0].track_running_stats
        (True, False)
    """
    for module in root.modules():  # (nn's _BatchNorm subclasses; nn builds on this module)
        if any(c.__name__ == "_BatchNorm" for c in type(module).__mro__):
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root


def stack_module_state(models: collections.abc.Sequence[fgrad.torch.nn.Module]) -> tuple[dict, dict]:
    """The parameters and buffers of ``models`` (modules of one structure) stacked along a new
    leading axis, as ``torch.func.stack_module_state``: ``(params, buffers)`` dicts keyed by
    name, for ``vmap`` over an ensemble with `functional_call`.  Stacked parameters are new
    leaves that require grad when the models' do.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.func import stack_module_state
        >>> params, buffers = stack_module_state([torch.nn.Linear(2, 3) for _ in range(4)])
        >>> params["weight"].shape, params["weight"].requires_grad, params["weight"].is_leaf
        (torch.Size([4, 3, 2]), True, True)
    """
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if len({type(m) for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]

    def stacked_leaf(tensors, name):
        grads = [t.requires_grad for t in tensors]
        if any(grads) and not all(grads):
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        out = _stack(tensors).detach()
        return out.requires_grad_() if all(grads) else out

    params = {k: stacked_leaf([p[k] for p in all_params], k) for k in all_params[0]}
    buffers = {k: _stack([b[k] for b in all_buffers]) for k in all_buffers[0]}
    return params, buffers


__all__ = [
    "stack_module_state",
    "functional_call",
    "_to_array",
    "_from_array",
    "grad",
    "grad_and_value",
    "vmap",
    "jacrev",
    "jacfwd",
    "hessian",
    "vjp",
    "jvp",
    "linearize",
    "functionalize",
    "replace_all_batch_norm_modules_",
]
