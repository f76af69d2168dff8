"""Mutable array references: JAX's ``jax.Ref`` family (``new_ref``, ``empty_ref``,
``freeze``, ``free_ref`` and ``fgrad.ref.get/set/swap/addupdate``).

A `Ref` holds an array that can be overwritten: ``r[...]`` reads it, ``r[idx] = v`` writes
(``v`` must have the ref's dtype -- a Python scalar of the same kind is cast -- and exactly
the indexed shape, as in JAX), ``r[idx] += v`` reads, adds and writes.

Under the transforms (JAX's rules):

* a Ref made *inside* a transformed function is ordinary local state: grad, vmap and jit
  see through it;
* a Ref made *outside* may be read anywhere; under ``jit`` reads and writes happen when the
  compiled program runs (effects in program order), so a jitted step may update a closed-over
  or argument Ref; storing a differentiated value (``grad``) or a vmapped value into it raises
  JAX's error (`fgrad.ops.refs.RefEffectError`, an ``Exception``);
* a Ref passed to ``vmap`` as a mapped argument reads one example per call; writing into it
  is not supported (NotImplementedError) -- pass it with ``in_axes=None`` or close over it.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> r = fgrad.new_ref(fnp.zeros(3))
    >>> r[1] = 2.0
    >>> r[:2] += 1.0
    >>> r
    Ref([1., 3., 0.], dtype=float64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .core.array import Array, ArrayImpl, ShapedArray, Tracer, get_aval
from .core.narrow_floats import dtype_kind
from .core.trace import state
from .numpy import asarray, zeros
from .ops.refs import differentiated_error, ref_load_p, ref_store_p, vmapped_error
from .transforms.batching import BatchTrace, BatchTracer
from .transforms.staging import StagingTrace
from .tree_util import register_array_node

__all__ = ["AbstractRef", "Ref", "addupdate", "empty_ref", "free_ref", "freeze", "get", "new_ref", "set",
           "swap"]


class AbstractRef:
    """The type of a `Ref`: ``Ref{float64[3]}`` (JAX's ``jax.ref.AbstractRef``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.new_ref(fnp.zeros(3)).aval
        Ref{float64[3]}
    """

    def __init__(self, inner_aval: ShapedArray) -> None:
        self.inner_aval = inner_aval

    shape = property(lambda self: self.inner_aval.shape)
    dtype = property(lambda self: self.inner_aval.dtype)
    weak_type = property(lambda self: self.inner_aval.weak_type)
    ndim = property(lambda self: len(self.inner_aval.shape))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractRef) and self.inner_aval == other.inner_aval

    def __hash__(self) -> int:
        return hash(("Ref", self.inner_aval))

    def __repr__(self) -> str:
        return f"Ref{{{self.dtype.name}[{','.join(map(str, self.shape))}]}}"


def _bottom(trace) -> bool:
    return trace is None or trace.parent is None


def _is_static_index(idx: Any) -> bool:
    parts = idx if isinstance(idx, tuple) else (idx,)
    def static(p: Any) -> bool:
        if p is None or p is Ellipsis:
            return True
        if isinstance(p, slice):
            return all(b is None or isinstance(b, (int, np.integer)) for b in (p.start, p.stop, p.step))
        return isinstance(p, (int, np.integer)) and not isinstance(p, bool)

    return all(static(p) for p in parts)


class Ref:
    """A mutable array reference (JAX's ``jax.Ref``); make one with `new_ref`.  Not an array:
    read it with ``ref[...]`` (arithmetic on the Ref itself is a TypeError, as in JAX).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> r = fgrad.new_ref(fnp.arange(3.0))
        >>> r[0] = 5.0
        >>> r[...], r.shape, r.dtype
        (Array([5., 1., 2.], dtype=float64), (3,), dtype('float64'))
    """

    __slots__ = ("_value", "_trace", "_base", "_mapped", "__weakref__")

    def __init__(self, value: Any, *, _base: Ref | None = None, _mapped: bool = False) -> None:
        self._value = value
        trace = state.trace
        self._trace = None if _bottom(trace) else trace  # the transform it belongs to
        self._base = _base  # a Ref argument seen inside a transform: the caller's Ref
        self._mapped = _mapped

    # -- type ------------------------------------------------------------------------------------
    @property
    def aval(self) -> AbstractRef:
        return AbstractRef(get_aval(self._value))

    shape = property(lambda self: get_aval(self._value).shape)
    dtype = property(lambda self: get_aval(self._value).dtype)
    weak_type = property(lambda self: get_aval(self._value).weak_type)
    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))

    @property
    def sharding(self) -> Any:
        return self._read().sharding

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self) -> str:
        value = self._value
        if isinstance(value, Tracer):
            return f"Ref({value!r})"
        text = repr(value)
        return "Ref" + text[len("Array"):] if text.startswith("Array") else f"Ref({text})"

    # -- not an array ------------------------------------------------------------------------------
    def __array__(self, *args: Any, **kwargs: Any):
        raise TypeError("A Ref is not an array: read its value with ref[...] (or fgrad.freeze(ref)) "
                        "before converting it")

    def __iter__(self):
        raise TypeError("A Ref is not iterable: read its value with ref[...] first")

    def __bool__(self) -> bool:
        raise TypeError("A Ref has no truth value: read its value with ref[...] first")

    @property
    def at(self):
        raise NotImplementedError("Ref.at: update a Ref in place with ref[idx] = value (or "
                                  "fgrad.ref.addupdate); .at[] is the functional update of Arrays")

    # -- where a read or write happens ---------------------------------------------------------------
    def _staged(self) -> bool:
        """True when a jit-staged program lies between the current trace and the Ref's own
        (reads and writes then become effects of that program); checks the Ref is in scope."""
        own = self._trace
        if own is not None and not own.alive:
            raise ValueError(f"a Ref of type {self.aval} made inside {own.origin} was used after that "
                             "transform returned; return ref[...] instead of the Ref")
        staged, t = False, state.trace
        while t is not None and t is not own:
            if type(t) is StagingTrace and not t.partial:
                staged = True
            t = t.parent
        if t is None and own is not None:
            raise ValueError(f"a Ref of type {self.aval} made inside {own.origin} was used outside it")
        if staged and not isinstance(self._value, ArrayImpl):
            raise NotImplementedError(
                f"a Ref of type {self.aval} made inside {own.origin} was used inside a jit-compiled "
                "function nested in that transform; fgrad stages Refs into jit only when they hold "
                "concrete arrays (make the Ref outside the transforms, or inside the jitted function)")
        return staged

    def _newer_traces(self) -> list:
        out, t = [], state.trace
        while t is not None and t is not self._trace:
            out.append(t)
            t = t.parent
        return out

    def _read(self) -> Any:
        if self._base is not None:
            return self._value
        if self._staged():
            return ref_load_p.bind(ref=self)
        return self._value

    def _write(self, new: Any) -> None:
        if self._base is not None:
            if self._mapped:
                raise NotImplementedError(
                    f"writing into a Ref of type {self._base.aval} passed to vmap as a mapped argument is "
                    "not supported by fgrad; pass it with in_axes=None (or close over it) and write "
                    "unbatched values, or carry the value through vmap as an array")
            self._value = new
            self._base._write(new)
            return
        if self._staged():
            ref_store_p.bind(new, ref=self)
            return
        if isinstance(new, Tracer):
            newer = self._newer_traces()
            t = new._trace
            if any(t is n for n in newer):
                raise vmapped_error(self) if type(t) is BatchTrace else differentiated_error(self)
        self._value = new

    # effects' access to the concrete value (fgrad.ops.refs)
    def _concrete_buffer(self):
        return self._value._buf

    def _store_concrete(self, value: ArrayImpl) -> None:
        self._value = value

    # -- indexing --------------------------------------------------------------------------------------
    def _checked(self, idx: Any, value: Any, op: str, full: Any) -> Any:
        """``value`` as the ref's dtype, checked against the indexed shape (JAX's checks)."""
        weak = isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic)
        if not isinstance(value, (Array, np.ndarray, np.generic)) and not weak:
            try:
                value = asarray(value)
            except (TypeError, ValueError):
                raise TypeError(f"{op}: cannot store a value of type {type(value).__name__} "
                                "in a Ref") from None
        dtype = self.dtype
        if weak:
            kind = {bool: "b", int: "i", float: "f", complex: "c"}[type(value)] if type(value) in (
                bool, int, float, complex) else dtype_kind(np.asarray(value).dtype)
            ref_kind = dtype_kind(dtype)
            if kind != ref_kind and not (kind == "i" and ref_kind == "u"):
                raise ValueError(f"Invalid dtype for `{op}`. Ref dtype: {dtype.name}. Value dtype: "
                                 f"{np.asarray(value).dtype.name}. ")
            value = asarray(value, dtype=dtype)
        else:
            vd = get_aval(value).dtype if isinstance(value, Array) else np.asarray(value).dtype
            if vd != dtype:
                weak_same_kind = dtype_kind(vd) == dtype_kind(dtype) and get_aval(value).weak_type
                if isinstance(value, Array) and weak_same_kind:
                    value = value.astype(dtype)
                else:
                    raise ValueError(f"Invalid dtype for `{op}`. Ref dtype: {dtype.name}. Value dtype: "
                                     f"{np.dtype(vd).name}. ")
            if not isinstance(value, Array):
                value = asarray(value)
        expected = self._indexed_shape(idx, full)
        got = get_aval(value).shape
        if tuple(got) != tuple(expected):
            raise ValueError(f"Invalid shape for `{op}`. Ref shape: {self.shape}. Expected shape: "
                             f"{tuple(expected)}. Value shape: {tuple(got)}. ")
        return value

    def _indexed_shape(self, idx: Any, full: Any) -> tuple:
        if _whole(idx):
            return self.shape
        if _is_static_index(idx):
            return np.broadcast_to(np.empty((), dtype=bool), self.shape)[idx].shape
        return get_aval(full[idx]).shape

    def __getitem__(self, idx: Any) -> Any:
        full = self._read()
        return full if _whole(idx) else full[idx]

    def __setitem__(self, idx: Any, value: Any) -> None:
        full = self._read()
        value = self._checked(idx, value, "swap", full)
        self._write(value if _whole(idx) else full.at[idx].set(value))

    def addupdate(self, x: Any, idx: Any = ()) -> None:
        """``ref[idx] += x`` with ``x`` of exactly the indexed shape (JAX's ``Ref.addupdate``).

        Example::

            >>> import fgrad, fgrad.numpy as fnp
            >>> r = fgrad.new_ref(fnp.ones(2))
            >>> r.addupdate(fnp.ones(2)); r[...]
            Array([2., 2.], dtype=float64)
        """
        full = self._read()
        x = self._checked(idx, x, "addupdate", full)
        self._write(full + x if _whole(idx) else full.at[idx].add(x))


def _whole(idx: Any) -> bool:
    return idx is Ellipsis or idx is None or (isinstance(idx, tuple) and (idx == () or idx == (Ellipsis,)))


def _flatten_ref(ref: Ref) -> tuple:
    base = ref._base if ref._base is not None else ref
    return (ref._read(),), base


def _unflatten_ref(base: Ref, leaves: Any) -> Ref:
    (value,) = leaves
    if value is base._value:
        return base  # passed through unchanged (vmap in_axes=None, a non-differentiated leaf)
    if isinstance(value, Tracer):  # the Ref inside a transform it was passed to
        return Ref(value, _base=base, _mapped=type(value) is BatchTracer)
    return Ref(value)  # a transform's result (a returned Ref, a gradient): a new Ref


# a leaf of the public tree functions (as in JAX); the transforms see the array it holds
register_array_node(Ref, _flatten_ref, _unflatten_ref)


def new_ref(init_val: Any, *, memory_space: Any = None, kind: str | None = None) -> Ref:
    """A mutable array reference holding ``init_val`` (JAX's ``jax.new_ref``); ``kind`` may be
    None or ``"no_grad_no_remat"`` (accepted), ``memory_space`` is ignored.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.new_ref(fnp.arange(3))
        Ref([0, 1, 2], dtype=int64)
    """
    if kind not in (None, "no_grad_no_remat"):
        raise ValueError(f"new_ref: kind must be None or 'no_grad_no_remat', got {kind!r}")
    if isinstance(init_val, Ref):
        raise TypeError("new_ref: the initial value is already a Ref; pass ref[...] to copy its value")
    if isinstance(init_val, (list, tuple, dict)):
        raise TypeError(f"Error interpreting argument to new_ref as a JAX value. The problematic value is of "
                        f"type {type(init_val)} and was passed to new_ref at position 0.")
    return Ref(init_val if isinstance(init_val, Array) else asarray(init_val))


def empty_ref(ty: Any, memory_space: Any = None) -> Ref:
    """A Ref of the shape and dtype of ``ty`` (a `fgrad.ShapeDtypeStruct` or array), its
    contents unspecified (fgrad fills zeros); JAX's ``jax.empty_ref``.

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.empty_ref(fgrad.ShapeDtypeStruct((2,), np.float32)).shape
        (2,)
    """
    return Ref(zeros(tuple(ty.shape), dtype=ty.dtype))


def freeze(ref: Ref) -> Array:
    """The final value of ``ref`` (JAX's ``jax.freeze``); the Ref should not be used afterwards.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> r = fgrad.new_ref(fnp.zeros(2))
        >>> r[0] = 1.0
        >>> fgrad.freeze(r)
        Array([1., 0.], dtype=float64)
    """
    _check_ref(ref, "freeze")
    return ref[...]


def free_ref(ref: Ref) -> None:
    """Release ``ref`` (JAX's ``jax.free_ref``); fgrad's Refs are freed by Python.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.free_ref(fgrad.new_ref(fnp.zeros(2)))
    """
    _check_ref(ref, "free_ref")


def _check_ref(ref: Any, op: str) -> None:
    if not isinstance(ref, Ref):
        raise TypeError(f"{op}: expected a Ref, got {type(ref).__name__}")


def get(ref: Ref, idx: Any = None) -> Array:
    """``ref[idx]`` (the whole value for ``idx=None``); JAX's ``jax.ref.get``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.ref.get(fgrad.new_ref(fnp.arange(3.0)), 1)
        Array(1., dtype=float64)
    """
    _check_ref(ref, "get")
    return ref[... if idx is None else idx]


def set(ref: Ref, idx: Any, value: Any) -> None:  # noqa: A001 - JAX's name
    """``ref[idx] = value`` (the whole value for ``idx=None``); JAX's ``jax.ref.set``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> r = fgrad.new_ref(fnp.zeros(2))
        >>> fgrad.ref.set(r, None, fnp.ones(2)); r[...]
        Array([1., 1.], dtype=float64)
    """
    _check_ref(ref, "set")
    ref[... if idx is None else idx] = value


def swap(ref: Ref, idx: Any, value: Any) -> Array:
    """Store ``value`` at ``ref[idx]`` and return what was there (JAX's ``jax.ref.swap``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> r = fgrad.new_ref(fnp.zeros(2))
        >>> fgrad.ref.swap(r, 0, 5.0), r[...]
        (Array(0., dtype=float64), Array([5., 0.], dtype=float64))
    """
    _check_ref(ref, "swap")
    idx = ... if idx is None else idx
    old = ref[idx]
    ref[idx] = value
    return old


def addupdate(ref: Ref, idx: Any, x: Any) -> None:
    """``ref[idx] += x``, ``x`` of exactly the indexed shape (JAX's ``jax.ref.addupdate``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> r = fgrad.new_ref(fnp.zeros(3))
        >>> fgrad.ref.addupdate(r, slice(0, 2), fnp.ones(2)); r[...]
        Array([1., 1., 0.], dtype=float64)
    """
    _check_ref(ref, "addupdate")
    ref.addupdate(x, () if idx is None else idx)
