"""NumPy code generation for a partitioned program, and the flat executor.

The whole program becomes one generated Python function ``run(bufs) -> list`` of
straight-line code: barrier ops are direct calls (a ufunc, a method such as ``reshape``,
a ``matmul`` whose transposes/reshapes were planned at compile time, or the primitive's
``impl``); each kernel is inlined as ufunc calls.  Everything the code needs is bound as a
default argument (fast local lookups).  A value is deleted right after its last use, so
big intermediates are freed as early as possible.

Kernels run in one of three modes, chosen from the (static) number of elements ``N`` of
their iteration shape:

* **direct** (``N`` < `SCRATCH_MIN`, or any non-numpy backend): plain ufunc calls;
* **whole** (``N`` < `BLOCK_MIN`): internal values are written with ``out=`` into scratch
  buffers that are reused from call to call (and in place where an input dies), results
  that leave the kernel are fresh arrays;
* **blocked**: the kernel runs over cache-sized blocks of `BLOCK` elements (of the
  flattened arrays when every input is either full-size or a single element, else of
  rows of the leading axis), so its intermediates stay in cache; results that leave the
  kernel are written block by block into their (fresh) arrays.  A trailing reduction over
  non-leading axes is done per block; a full float sum follows NumPy's pairwise summation
  tree exactly (leaves of at most `BLOCK` elements); any other reduction is done after the
  loop on its materialized input.

Every ufunc is called with the same operands (in the same dtypes) as unfused execution
would, on contiguous pieces, so fused results are bit-identical to unfused ones, and
dtypes are NumPy's (float32 stays float32).  Output dtypes of kernel values are found by
running the kernel's ops once on one-element probes at compile time.

Scratch buffers are a per-executable pool (`ScratchPool`): a call takes a set (or
allocates one) and returns it at the end, so concurrent or re-entrant calls never share
buffers.  The scratch held by all executables together is bounded by the config option
``jit_scratch_bytes``: when an allocation goes over it, the idle sets of the executables
that allocated least recently are freed (they allocate again on their next call).  A big
(>= `RECYCLE_MIN` bytes) result of a blocked kernel is remembered; if the caller has
dropped it by the next call (its reference count shows that nothing else holds it), that
call writes into it again instead of allocating (and page-faulting) a fresh array.  A big
intermediate (a kernel result only later steps of the program read) is held the same way
from the start, and reused while nothing else refers to it (a view that escaped as an
output keeps it).  At most ``jit_recycle_bytes`` (default 256 MB) of such arrays are held
over all executables (oldest released first), and an executable that is freed releases
its arrays with it.
"""

from __future__ import annotations

import collections
import functools
import math
import sys
import threading
import weakref

import numpy as np
from ..core.narrow_floats import float16 as F16, is_narrow, promote_types

from .._config import limit
from ..backends import full
from ..core.ir import Literal
from ..core.executor import constant_operand, out_arg
from ..core.quiet import quiet
from ..ops.elementwise import saturates
from ..ops.convolution import conv_from_patches, conv_keeping_patches, patch_key
from ..ops.linalg import _dg_plan
from ..ops.shape import native_sum_kernel, sum_accumulator
from ..ops.reductions import extremum
from .fusion import Node
from .native_kernels import kernel as native_kernel, probe_dtypes

BLOCK = 65536
BLOCK_MIN = 4 * BLOCK
SCRATCH_MIN = 2048
RECYCLE_MIN = 1 << 20  # bytes: big results the caller dropped are reused by the next call

# numpy reductions that are exactly ``ufunc.reduce`` (see `_red_ufunc`)
_RED_UFUNC = {"reduce_sum": np.add, "reduce_prod": np.multiply, "reduce_max": np.maximum,
              "reduce_min": np.minimum, "reduce_and": np.logical_and, "reduce_or": np.logical_or}


# the recycle sites of live executables: id -> weakref(site), least recently used first
# (an executable that is freed takes its site, and the results it held, with it)
_SITES: collections.OrderedDict = collections.OrderedDict()
_sites_lock = threading.Lock()


# Weakref callbacks of dead sites and pools only record them: the garbage collector may run
# them in the middle of an allocation made while this thread holds the registry's lock (a
# dead executable collected there), and taking the lock again would deadlock.  The registry
# drops what they recorded the next time it is locked.
_DEAD_SITES: list = []


def _forget_site(ref, key) -> None:
    _DEAD_SITES.append((key, ref))


def _drop_dead_sites() -> None:
    """With ``_sites_lock`` held: forget the sites whose executables died."""
    while _DEAD_SITES:
        key, ref = _DEAD_SITES.pop()
        if _SITES.get(key) is ref:
            del _SITES[key]


def recycled_bytes() -> int:
    """Bytes of dropped big results currently held for reuse (at most ``jit_recycle_bytes``)."""
    with _sites_lock:
        _drop_dead_sites()
        sites = [r() for r in _SITES.values()]
    return sum(len(st.held) * st.nbytes for st in sites if st is not None)


class RecycleSite:
    """Where a kernel allocates a big program result.  It remembers the last two results it
    produced; a call takes one that nothing references any more (its reference count says
    so) instead of allocating.  Two, so that feeding each result into the next call (a
    training step's parameters) still finds the one from two calls ago free."""

    __slots__ = ("held", "nbytes", "lock", "__weakref__")

    def __init__(self, nbytes: int) -> None:
        self.held: list = []
        self.nbytes = nbytes
        self.lock = threading.Lock()

    def take(self):
        with self.lock:
            h = self.held
            for i in range(len(h)):
                x = h[i]
                if sys.getrefcount(x) == 3:  # the list, x, the argument: nobody else
                    del h[i]
                    return x
                x = None
        return None

    def reuse(self):
        """A held result that nothing references any more, left held (an intermediate, which
        the site keeps between calls), or None."""
        with self.lock:
            for x in self.held:
                if sys.getrefcount(x) == 3:  # the list, x, the argument: nobody else
                    return x
                x = None
        return None

    def put(self, x) -> None:
        with self.lock:
            h = self.held
            if any(y is x for y in h):
                return
            h.append(x)
            if len(h) > 2:
                del h[0]
        key = id(self)
        with _sites_lock:
            _drop_dead_sites()
            ref = _SITES.pop(key, None)
            if ref is None or ref() is not self:
                ref = weakref.ref(self, functools.partial(_forget_site, key=key))
            _SITES[key] = ref
            live = [(k, st) for k, st in ((k, r()) for k, r in _SITES.items()) if st is not None]
            total = sum(len(st.held) * st.nbytes for _, st in live)
            budget = limit("jit_recycle_bytes")
            for k, old in live:
                if total <= budget or old is self:
                    break
                total -= len(old.held) * old.nbytes
                old.held = []
                del _SITES[k]
            if total > budget:  # the newest result alone is over the budget
                h.clear()


class ScratchPool:
    """The scratch buffer sets of one executable: ``sets`` holds the idle ones, `alloc`
    makes a new one.  All pools together keep at most ``jit_scratch_bytes`` of sets (beyond
    the ones in use): an allocation over the budget frees the idle sets of the pools that
    allocated least recently."""

    __slots__ = ("sets", "slots", "specs", "nbytes", "count", "__weakref__")

    def __init__(self, slots, specs) -> None:
        self.sets: list = []
        self.slots = list(slots)
        self.specs = list(specs)
        self.nbytes = sum(max(nb, 1) for nb in self.slots)
        self.count = 0  # sets this pool owns (idle or in use)

    def alloc(self):
        raws = [np.empty(max(nb, 1), np.uint8) for nb in self.slots]
        s = tuple(raws[k][: math.prod(shape) * dt.itemsize].view(dt).reshape(shape)
                  for k, shape, dt in self.specs)
        _scratch_acquired(self)
        return s


# pools that own scratch: id -> (weakref(pool), [bytes it owns]), least recently allocating
# first; the list is the callback's view of a pool that has died
_POOLS: collections.OrderedDict = collections.OrderedDict()
_scratch_total = [0]
_pools_lock = threading.Lock()


_DEAD_POOLS: list = []


def _pool_freed(ref, key) -> None:
    _DEAD_POOLS.append((key, ref))  # recorded only (see `_forget_site`)


def _drop_dead_pools() -> None:
    """With ``_pools_lock`` held: forget the pools whose executables died, and their bytes."""
    while _DEAD_POOLS:
        key, ref = _DEAD_POOLS.pop()
        item = _POOLS.get(key)
        if item is not None and item[0] is ref:
            del _POOLS[key]
            _scratch_total[0] -= item[1][0]


def _scratch_acquired(pool: ScratchPool) -> None:
    key = id(pool)
    with _pools_lock:
        _drop_dead_pools()
        pool.count += 1
        _scratch_total[0] += pool.nbytes
        item = _POOLS.pop(key, None)
        if item is None or item[0]() is not pool:
            item = (weakref.ref(pool, functools.partial(_pool_freed, key=key)), [0])
        item[1][0] = pool.count * pool.nbytes
        _POOLS[key] = item
        budget = limit("jit_scratch_bytes")
        for k in list(_POOLS):
            if _scratch_total[0] <= budget or k == key:
                break
            ref, owned = _POOLS[k]
            p = ref()
            if p is None:
                continue
            n = len(p.sets)
            p.sets.clear()
            p.count -= n
            _scratch_total[0] -= n * p.nbytes
            owned[0] = p.count * p.nbytes
            if p.count == 0:
                del _POOLS[k]


def scratch_bytes() -> int:
    """Bytes of scratch sets owned by live executables (idle ones at most
    ``jit_scratch_bytes``, plus the sets of calls in progress and the newest allocation)."""
    with _pools_lock:
        _drop_dead_pools()
        return _scratch_total[0]


def _np_ufunc(prim):
    u = getattr(prim, "ufunc", None)
    return u if isinstance(u, np.ufunc) else None


def _red_ufunc(e):
    """The ufunc whose ``reduce`` is the reduction's implementation (None: use the impl)."""
    u = _RED_UFUNC.get(e.prim.name)
    if u is None:
        return None
    k = e.invars[0].aval.dtype.kind
    if e.prim.name in ("reduce_sum", "reduce_prod") and (k not in "fc" or e.invars[0].aval.dtype == F16):
        return None  # np.sum/np.prod promote small integers, float16 accumulates in float32: the impl
    if e.prim.name == "reduce_sum" and sum_accumulator(e.invars[0].aval.shape, e.invars[0].aval.dtype,
                                                        tuple(e.params["axes"])) is not None:
        return None  # a float32 sum over many rows accumulates in float64: the impl
    if e.prim.name in ("reduce_and", "reduce_or") and k != "b":
        return None
    return u


def pairwise_leaves(n: int, block: int):
    """NumPy's pairwise summation tree over ``n`` contiguous elements, cut into leaves of at
    most ``block`` elements: ``[(start, stop, number of additions after this leaf)]``."""
    out = []
    # explicit stack (no recursion): entries (start, length, is_combine)
    stack = [(0, n, False)]
    while stack:
        s, ln, comb = stack.pop()
        if comb:
            a, b, k = out[-1]
            out[-1] = (a, b, k + 1)
            continue
        if ln <= block:
            out.append((s, s + ln, 0))
            continue
        n2 = ln // 2
        n2 -= n2 % 8
        stack.append((s, 0, True))
        stack.append((s + n2, ln - n2, False))
        stack.append((s, n2, False))
    return tuple(out)


def frozen(x: np.ndarray) -> bool:
    """Whether no one can write into ``x``'s memory any more: ``x`` and every array it is a
    view of are read-only NumPy arrays (fgrad Arrays' buffers, constant folding's results,
    `passes.Forward.try_fold`), so a copy made now stays equal to it.  A view of a writeable
    array (a user's NumPy data, a shim tensor's buffer) or of another object is not.

    >>> a = np.arange(4.0); a.flags.writeable = False
    >>> frozen(a.reshape(2, 2).T), frozen(np.arange(4.0)[::2])
    (True, False)
    """
    while isinstance(x, np.ndarray):
        if x.flags.writeable:
            return False
        if x.base is None:
            return True
        x = x.base
    return False


def _lit_expr(v):
    t = type(v)
    if t is bool or t is int:
        return repr(v)
    if t is float and math.isfinite(v):
        return repr(v)
    return None


def _device_scalar(xp, dtype, value):
    return full(xp, (), value, dtype)


class Gen:
    """Generates the source of ``run`` for the ordered steps of a program."""

    def __init__(self, prog, steps, xp, block, block_min, scratch_min) -> None:
        self.prog, self.steps, self.xp = prog, steps, xp
        self.numpy = xp is np
        self.block, self.block_min, self.scratch_min = block, block_min, scratch_min
        self.ns: dict = {"xp": xp}
        self.const_ids: dict = {}
        self.names: dict = {}
        self.lines: list = []
        self.counter = 0
        # scratch slots: capacity in bytes; views: (slot, shape, dtype) -> name
        self.slots: list = []
        self.views: dict = {}
        self.kernel_modes: list = []
        self.native = 0  # kernels with a compiled C loop (`native_kernels`)
        self.weak_scalars = set()
        self.recycle: list = []  # names of recycled program outputs
        self.prog_outs = {v for v in prog.outvars if type(v) is not Literal}

    # -- names ---------------------------------------------------------------------------
    def fresh(self, prefix="v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def bind(self, obj, prefix="k") -> str:
        key = id(obj)
        name = self.const_ids.get(key)
        if name is None:
            name = self.fresh(prefix)
            self.const_ids[key] = name
            self.ns[name] = obj
        return name

    def scalar_result(self, dtype):
        """The converter of a Python-scalar result (a literal, a weak 0-d value computed with
        Python numbers) to the program's array type: a NumPy scalar on the host, a 0-d array
        of the program's backend elsewhere (a jitted function of 0-d device data returns
        device data; `backends.full` keeps a negative zero)."""
        if self.numpy:
            return np.dtype(dtype).type
        return functools.partial(_device_scalar, self.xp, np.dtype(dtype))

    def expr(self, a) -> str:
        if type(a) is Literal:
            e = _lit_expr(a.val)
            return e if e is not None else self.bind(a.val, "l")
        return self.names[a]

    def impl_fn(self, e) -> str:
        if e.params:
            return self.bind(functools.partial(e.prim.impl, **e.params), "f")
        return self.bind(e.prim.impl, "f")

    # -- whole program -------------------------------------------------------------------
    def generate(self):
        prog = self.prog
        for v in prog.constvars:
            self.names[v] = self.bind(prog.consts[v], "c")
        params = []
        for v in prog.invars:
            n = self.fresh("a")
            self.names[v] = n
            params.append(n)
            if v.aval.weak_type and v.aval.shape == ():
                self.weak_scalars.add(v)
        body = self.lines
        if params:
            body.append(f"    {', '.join(params)}{',' if len(params) == 1 else ''} = bufs")
        for v in prog.invars:
            if v in self.weak_scalars:
                n = self.names[v]
                body.append(f"    if type({n}) not in _PYS: {n} = {n}.item()")
                self.ns["_PYS"] = (bool, int, float, complex)
        outs = {v for v in prog.outvars if type(v) is not Literal}
        last, where = {}, {}
        for k, st in enumerate(self.steps):
            for e in st.eqns:
                for v in e.outvars:
                    where[v] = k
        self.escaping = set(outs)
        for k, st in enumerate(self.steps):
            for e in st.eqns:
                for a in e.invars:
                    if type(a) is not Literal:
                        last[a] = k
                        if where.get(a, k) != k:
                            self.escaping.add(a)
        self.deletable = set(prog.invars)
        self.patches = self.plan_patches()
        dies: dict = {}
        for v, j in last.items():
            if v not in outs:
                dies.setdefault(j, []).append(v)
        for k, st in enumerate(self.steps):
            if st.kind == "op":
                self.emit_op(st.eqns[0])
            else:
                self.emit_kernel(st)
            dead = sorted({self.names[v] for v in dies.get(k, ()) if v in self.deletable})
            if dead:
                body.append(f"    del {', '.join(dead)}")
        rets = []
        for v in prog.outvars:
            if type(v) is Literal:
                rets.append(self.bind(self.scalar_result(v.aval.dtype)(v.val), "o"))
            elif v.aval.weak_type and v.aval.shape == ():
                conv = self.bind(self.scalar_result(v.aval.dtype), "t")
                rets.append(f"{conv}({self.names[v]})")
            else:
                rets.append(self.names[v])
        for o, site in self.recycle:
            body.append(f"    {site}.put({o})")
        if self.slots:
            self.lines.insert(1 if params else 0, "    _S = _pool.pop() if _pool else _alloc()")
            names = [n for n in self.views.values()]
            self.lines.insert(2 if params else 1,
                              f"    {', '.join(names)}{',' if len(names) == 1 else ''} = _S")
            body.append("    _pool.append(_S)")
        body.append(f"    return [{', '.join(rets)}]")
        defaults = ", ".join(f"{k}={k}" for k in self.ns)
        extra = ", _pool=_pool, _alloc=_alloc" if self.slots else ""

        src = f"def run(bufs, {defaults}{extra}):\n" + "\n".join(body) + "\n"
        return src

    def scratch_pool(self) -> ScratchPool:
        return ScratchPool(self.slots, list(self.views))

    # -- ops -----------------------------------------------------------------------------
    def define(self, v, name=None) -> str:
        n = name or self.fresh()
        self.names[v] = n
        self.deletable.add(v)
        return n

    def is_array(self, a) -> bool:
        """Known to be an array (not a Python scalar) at run time."""
        return type(a) is not Literal and a not in self.weak_scalars and not (
            a.aval.weak_type and a.aval.shape == ())

    def array_operands(self, e, ins, shape) -> list:
        """``ins`` with a literal operand of a host max/min replaced by its `constant_operand`
        (``shape``: the result's shape in this call, None if it varies), when the other
        operand is a full-size array of the result's dtype: the same results, from NumPy's
        vectorized loop."""
        lits = [k for k, a in enumerate(e.invars) if type(a) is Literal]
        if not self.numpy or shape is None or len(e.invars) != 2 or len(lits) != 1:
            return ins
        k = lits[0]
        other, out = e.invars[1 - k], e.outvars[0].aval
        if not self.is_array(other) or other.aval.dtype != out.dtype or other.aval.shape != out.shape:
            return ins
        c = constant_operand(_np_ufunc(e.prim), e.invars[k].val, out.dtype, shape)
        if c is None:
            return ins
        ins = list(ins)
        ins[k] = self.bind(c, "m")
        return ins

    def op_call(self, e, ins) -> str:
        prim = e.prim
        u = _np_ufunc(prim) if self.numpy else None
        if u is not None and not e.params:
            ins = self.array_operands(e, ins, e.outvars[0].aval.shape)
            return f"{self.bind(u, 'u')}({', '.join(ins)})"
        if self.numpy and prim.name in ("while", "scan"):  # the loop's host call, parameters bound once
            kernel = prim.host_kernel(e.params, [v.aval for v in e.invars])
            return f"{self.bind(kernel, 'f')}({', '.join(ins)})"
        if self.numpy and all(self.is_array(a) for a in e.invars):
            s = self.special(e, ins)
            if s is not None:
                return s
        if not self.numpy and prim.family != "elementwise":
            ins = self.device_scalars(e, ins)
        args = ", ".join(["xp"] + ins)
        return f"{self.impl_fn(e)}({args})"

    def device_scalars(self, e, ins) -> list:
        """On a device backend, the weak scalars (Python values at run time) and literals that
        a non-elementwise implementation receives, as 0-d device arrays of their dtypes: cupy's
        array functions (``reshape``, ``broadcast_to``, ...) take only cupy arrays, where NumPy's
        accept Python scalars.  Elementwise implementations keep Python scalars (cupy's ufuncs
        take them, with NumPy's weak-scalar promotion)."""
        out = []
        for a, s in zip(e.invars, ins):
            if self.is_array(a):
                out.append(s)
            else:
                out.append(f"{self.bind(self.xp.asarray, 'h')}({s}, {self.bind(a.aval.dtype, 'd')})")
        return out

    def special(self, e, ins):
        name = e.prim.name
        p = e.params
        if name == "reduce_sum":  # a float32 sum over leading rows accumulated in float64: C
            k = native_sum_kernel(p, [a.aval for a in e.invars])
            return None if k is None else f"{self.bind(k, 'f')}({ins[0]})"
        if name == "reshape":
            return f"{ins[0]}.reshape({tuple(p['new_sizes'])!r})"
        if name == "transpose":
            return f"{ins[0]}.transpose({tuple(p['permutation'])!r})"
        if name == "broadcast_in_dim":
            shape = tuple(p["shape"])
            xs = tuple(e.invars[0].aval.shape)
            expanded = [1] * len(shape)
            for i, d in enumerate(p["broadcast_dimensions"]):
                expanded[d] = xs[i]
            x = ins[0] if tuple(expanded) == xs else f"{ins[0]}.reshape({tuple(expanded)!r})"
            return f"{self.bind(np.broadcast_to, 'u')}({x}, {shape!r})"
        if name == "dot_general":
            if any(is_narrow(v.aval.dtype) for v in e.invars):
                return None  # 16-bit floats accumulate in float32: the impl
            try:
                xperm, yperm, x3, y3, out_shape = _dg_plan(
                    tuple(e.invars[0].aval.shape), tuple(e.invars[1].aval.shape), p["dimension_numbers"])
            except Exception:  # noqa: BLE001
                return None

            def arrange(x, shape, perm, target):
                if perm is not None:
                    x = f"{x}.transpose({tuple(perm)!r})"
                    shape = tuple(shape[i] for i in perm)
                if tuple(shape) != tuple(target):
                    x = f"{x}.reshape({tuple(target)!r})"
                return x

            mm = self.matvec(e, ins, xperm, yperm, out_shape)
            if mm is not None:
                return mm
            xa = arrange(ins[0], e.invars[0].aval.shape, xperm, x3)
            ya = arrange(ins[1], e.invars[1].aval.shape, yperm, y3)
            mm = f"{self.bind(np.matmul, 'u')}({xa}, {ya})"
            mshape = (x3[0], x3[1], y3[2]) if len(x3) == 3 else (x3[0], y3[1])
            if tuple(mshape) != tuple(out_shape):
                mm = f"{mm}.reshape({tuple(out_shape)!r})"
            return mm
        return None

    def matvec(self, e, ins, xperm, yperm, out_shape):
        """A matrix-vector product whose matrix would need a transposed (F-ordered) view in
        the generic plan: multiply from the other side instead, so BLAS reads the matrix
        in its own (C) order (``c @ X`` rather than ``X.T @ c``)."""
        (lc, rc), (lb, rb) = e.params["dimension_numbers"]
        if lb or rb:
            return None
        xs, ys = tuple(e.invars[0].aval.shape), tuple(e.invars[1].aval.shape)
        xf = tuple(i for i in range(len(xs)) if i not in lc)
        yf = tuple(i for i in range(len(ys)) if i not in rc)
        k = math.prod(xs[i] for i in lc)
        mm = self.bind(np.matmul, "u")

        def flat(x, shape, order):
            if tuple(order) != tuple(range(len(shape))):
                x = f"{x}.transpose({tuple(order)!r})"
            return f"{x}.reshape(({k},))" if len(shape) != 1 else x

        if not yf and xf and xperm is not None and tuple(lc) + xf == tuple(range(len(xs))):
            # out = y_k @ x as (k, m)
            m = math.prod(xs[i] for i in xf)
            xa = ins[0] if len(xs) == 2 else f"{ins[0]}.reshape(({k}, {m}))"
            out = f"{mm}({flat(ins[1], ys, rc)}, {xa})"
            return out if out_shape == (m,) else f"{out}.reshape({tuple(out_shape)!r})"
        if not xf and yf and yperm is not None and yf + tuple(rc) == tuple(range(len(ys))):
            # out = y as (n, k) @ x_k
            n = math.prod(ys[i] for i in yf)
            ya = ins[1] if len(ys) == 2 else f"{ins[1]}.reshape(({n}, {k}))"
            out = f"{mm}({ya}, {flat(ins[0], xs, lc)})"
            return out if out_shape == (n,) else f"{out}.reshape({tuple(out_shape)!r})"
        return None

    def weak_fix(self, v) -> None:
        if v.aval.weak_type and v.aval.shape == ():
            n = self.names[v]
            self.ns["_PYS"] = (bool, int, float, complex)
            self.lines.append(f"    if type({n}) not in _PYS: {n} = {n}.item()")

    def plan_patches(self) -> dict:
        """Forward operations and their gradients that share a copy of the forward's operand
        on the host.  Convolutions: a forward convolution and a later weight gradient of the
        same lhs whose implementations copy the same patches (`ops.convolution.patch_key`).
        Windowed max/min: a ``reduce_window_max`` (``min``) and a later
        ``select_and_scatter_add`` of the same operand and windows, which copy the same
        window planes (the primitives' ``kept_key``, `ops.windowed.planes_key`).  The
        forward keeps its copy and the gradient takes it (`emit_patches`): one copy instead
        of two, the same numbers.  ``{id(eqn): ("keep", name) or ("use", name, out
        extents)}``."""
        plan: dict = {}
        if not self.numpy:
            return plan
        rows: dict = {}  # (lhs, key) -> the forward convolution that can keep its patches
        pools: dict = {}  # (operand, key) -> the forward extremum that can keep its planes
        for st in self.steps:
            if st.kind != "op":
                continue
            e = st.eqns[0]
            kept_key = getattr(e.prim, "kept_key", None)
            if kept_key is not None:
                x = e.invars[-1]
                if any(type(a) is Literal for a in e.invars):
                    continue
                key = kept_key(tuple(x.aval.shape), x.aval.dtype, e.params)
                if key is None:
                    continue
                if hasattr(e.prim, "keeping"):
                    pools.setdefault((x, key), e)
                elif (x, key) in pools:
                    pt = self.fresh("pl")
                    plan[id(pools.pop((x, key)))] = ("keep", pt)
                    plan[id(e)] = ("use", pt, None)
                continue
            if e.prim.name != "conv_general_dilated":
                continue
            lhs, rhs = e.invars
            if type(lhs) is Literal or type(rhs) is Literal:
                continue
            dt = promote_types(lhs.aval.dtype, rhs.aval.dtype)
            found = patch_key(tuple(lhs.aval.shape), tuple(rhs.aval.shape), dt, e.params)
            if found is None:
                continue
            role, key, out = found
            if role == "rows":
                rows.setdefault((lhs, key), e)
            elif (lhs, key) in rows:
                pt = self.fresh("pt")
                plan[id(rows.pop((lhs, key)))] = ("keep", pt)
                plan[id(e)] = ("use", pt, out)
        return plan

    def emit_patches(self, e, how) -> None:
        """An operation of `plan_patches`: the forward returns its copy too, the gradient
        reads it (and drops it)."""
        ins = [self.expr(a) for a in e.invars]
        out = self.define(e.outvars[0])
        conv = e.prim.name == "conv_general_dilated"
        if how[0] == "keep":
            fn = conv_keeping_patches if conv else e.prim.keeping
            self.lines.append(f"    {out}, {how[1]} = {self.bind(functools.partial(fn, **e.params), 'f')}"
                              f"(xp, {', '.join(ins)})")
        else:
            fn = functools.partial(conv_from_patches, out=how[2], **e.params) if conv else \
                functools.partial(e.prim.from_kept, **e.params)
            self.lines.append(f"    {out} = {self.bind(fn, 'f')}(xp, {how[1]}, {', '.join(ins)})")
            self.lines.append(f"    del {how[1]}")

    def emit_op(self, e) -> None:
        how = self.patches.get(id(e))
        if how is not None:
            self.emit_patches(e, how)
            return
        ins = [self.expr(a) for a in e.invars]
        call = self.op_call(e, ins)
        if e.prim.multiple_results and not e.outvars:  # an effect only (a callback)
            self.lines.append(f"    {call}")
        elif e.prim.multiple_results:
            outs = [self.define(v) for v in e.outvars]
            self.lines.append(f"    {', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}")
        else:
            out = self.define(e.outvars[0])
            self.lines.append(f"    {out} = {call}")
        for v in e.outvars:
            self.weak_fix(v)

    # -- kernels -------------------------------------------------------------------------
    def emit_kernel(self, node: Node) -> None:
        n = math.prod(node.shape)
        mode = "direct"
        info = None
        if self.numpy and node.members and n >= self.scratch_min:
            info = self.probe(node)
            if info is not None:
                mode = "whole"
                if n >= self.block_min:
                    plan = self.block_plan(node, info)
                    if plan is not None:
                        mode = "blocked"
        native, row_sum = None, None
        if mode != "direct" and self.row_sum_of(node, info, plan if mode == "blocked" else None):
            # a trailing sum over the last axis: in the C loop, by NumPy's own reduction loop
            ext, escaping = self.classify(node)
            red = node.reduction
            native = native_kernel(node.members, ext, escaping, info, node.shape, self.is_array,
                                   row_sum=(red.invars[0], red.outvars[0]))
            row_sum = native is not None
        if native is None and mode != "direct" and (node.reduction is None or mode == "whole"):
            ext, escaping = self.classify(node)
            red_in = None if node.reduction is None else node.reduction.invars[0]
            made = {e.outvars[0] for e in node.members}
            if red_in is not None and red_in not in escaping:
                # a trailing reduction: the C loop also returns its operand, NumPy reduces it
                escaping = escaping + [red_in] if red_in in made else None
            if escaping is not None:
                native = native_kernel(node.members, ext, escaping, info, node.shape, self.is_array)
        self.kernel_modes.append(mode)  # (the NumPy code's mode; `native` counts the C loops)
        self.native += native is not None
        if native is not None:
            self.emit_native(node, info, plan if mode == "blocked" else None, native, escaping, row_sum)
        elif mode == "direct":
            for e in node.eqns:
                self.emit_direct(e)
        elif mode == "whole":
            self.emit_whole(node, info)
        else:
            self.emit_blocked(node, info, plan)

    def row_sum_of(self, node, info, plan) -> bool:
        """Whether the kernel ends in a sum over its last axis (of two or more) that its C
        loop may compute (`native_kernels`' ``row_sum``): NumPy's ``add.reduce`` on each row
        of a value the kernel makes, without a cast, as the NumPy code (whole mode, or blocked
        over rows, `block_plan`) reduces it."""
        red = node.reduction
        if red is None or len(node.shape) < 2 or tuple(red.params["axes"]) != (len(node.shape) - 1,):
            return False
        rin = red.invars[0]
        return (_red_ufunc(red) is np.add and info.get(rin) is not None
                and info[rin] == red.outvars[0].aval.dtype and info[rin].kind == "f"
                and any(rin is e.outvars[0] for e in node.members)
                and (plan is None or plan[0] == "rows"))

    def emit_native(self, node, info, plan, native, escaping, row_sum=False) -> None:
        """The kernel's compiled C loop (`native_kernels`), with its NumPy code (whole or
        blocked) as the branch taken when the loop declines at run time.  A trailing
        reduction follows both branches, on the operand they return (whole mode), or
        (``row_sum``) is the C loop's last result and the NumPy code's own."""
        given = {} if plan is None else self.alloc_results(escaping, info, node.shape)
        lines, before = self.lines, set(self.names)
        self.lines = []
        if plan is None:
            self.emit_whole(node, info, escaping, reduce=row_sum)
        else:
            self.emit_blocked(node, info, plan, given)
        numpy_lines, self.lines = self.lines, lines
        ext, _ = self.classify(node)
        if row_sum:
            escaping = escaping + [node.reduction.outvars[0]]
        outs = [self.names[v] for v in escaping]
        args = [self.native_operand(a) for a in ext] + [given[v] for v in escaping if v in given]
        esc = set(escaping)
        views = set(self.views.values())  # (scratch views are unpacked once per call: kept)
        internal = sorted({n for v, n in self.names.items()
                           if v not in before and v not in esc and n not in views})
        r = self.fresh("r")
        self.lines.append(f"    {r} = {self.bind(native, 'nk')}({', '.join(args)})")
        self.lines.append(f"    if {r} is not None:")
        if outs:
            self.lines.append(f"        {', '.join(outs)}{',' if len(outs) == 1 else ''} = {r}")
        if internal:
            self.lines.append(f"        {' = '.join(internal)} = None")
        if not outs and not internal:
            self.lines.append("        pass")
        self.lines.append("    else:")
        self.lines.extend("    " + ln for ln in numpy_lines)
        if node.reduction is not None and not row_sum:
            self.emit_direct(node.reduction)

    def native_operand(self, a) -> str:
        """The name a native kernel reads ``a`` by: a program constant that is not C-ordered
        (a folded transpose) but can never change (`frozen`) is bound once as a C-ordered
        copy, which the kernel's runner would otherwise make on every call."""
        value = self.prog.consts.get(a) if a in self.prog.consts else None
        if type(value) is not np.ndarray or value.flags.c_contiguous or not frozen(value):
            return self.names[a]
        key = ("c-ordered", id(value))
        name = self.const_ids.get(key)
        if name is None:
            copy = np.ascontiguousarray(value)
            copy.flags.writeable = False
            name = self.fresh("c")
            self.const_ids[key], self.ns[name] = name, copy
        return name

    def emit_direct(self, e) -> None:
        ins = [self.expr(a) for a in e.invars]
        u = _red_ufunc(e) if self.numpy else None
        if u is not None:
            out = self.define(e.outvars[0])
            axes = tuple(e.params["axes"])
            # max/min: the primitive's host evaluation (short rows reduced transposed)
            fn = functools.partial(extremum, u) if u is np.maximum or u is np.minimum else u.reduce
            self.lines.append(f"    {out} = {self.bind(fn, 'r')}({ins[0]}, axis={axes!r})")
            return
        self.emit_op(e)

    def probe(self, node):
        """Run the kernel's elementwise ops on one-element probes: the dtype of every value.
        None if that fails (the kernel then runs in direct mode)."""
        return probe_dtypes(node.members)

    def classify(self, node):
        inside = {v for e in node.eqns for v in e.outvars}
        ext = []
        for e in node.eqns:
            for a in e.invars:
                if type(a) is not Literal and a not in inside and a not in ext:
                    ext.append(a)
        escaping = [v for e in node.members for v in e.outvars if v in self.escaping]
        return ext, escaping

    def lifetimes(self, node):
        """Index (within the kernel) of the last use of each member value, extended through
        non-ufunc members (whose results may alias their inputs)."""
        members = node.members
        life = {}
        for i, e in enumerate(node.eqns):
            for a in e.invars:
                if type(a) is not Literal:
                    life[a] = i
        for i in range(len(members) - 1, -1, -1):
            e = members[i]
            if self.out_capable(e):
                continue
            r = e.outvars[0]
            for a in e.invars:
                if type(a) is not Literal and a in life:
                    life[a] = max(life[a], life.get(r, i))
        return life

    def out_capable(self, e) -> bool:
        if e.prim.name == "convert_element_type":  # (JAX's saturating float -> int: the impl)
            return not saturates(e.invars[0].aval.dtype, e.params["new_dtype"], e.params)
        return _np_ufunc(e.prim) is not None and not e.params

    def member_call(self, e, ins, target, shape=None):
        """Source of one member (``target``: an out= buffer expression or None; ``shape``:
        the member's result shape in this call, None if it varies)."""
        ins = self.array_operands(e, ins, shape)
        if target is not None:
            if e.prim.name == "convert_element_type":
                return f"{self.bind(np.copyto, 'u')}({target}, {ins[0]}, casting='unsafe')"
            u = _np_ufunc(e.prim)
            kw = out_arg(u) if u.nout == 1 and len(ins) == u.nin else "out="
            return f"{self.bind(u, 'u')}({', '.join(ins)}, {kw}{target})"
        u = _np_ufunc(e.prim)
        if u is not None and not e.params:
            return f"{self.bind(u, 'u')}({', '.join(ins)})"
        return f"{self.impl_fn(e)}({', '.join(['xp'] + ins)})"

    # scratch slots ---------------------------------------------------------------------
    def names_of_site(self, site) -> str:
        return self.const_ids[id(site)]

    def view(self, slot, shape, dtype) -> str:
        key = (slot, tuple(shape), np.dtype(dtype))
        name = self.views.get(key)
        if name is None:
            name = self.fresh("s")
            self.views[key] = name
            nb = math.prod(shape) * np.dtype(dtype).itemsize
            self.slots[slot] = max(self.slots[slot], nb)
        return name

    def assign_slots(self, node, info, escaping):
        """Linear scan over the members: a scratch slot (or None) for each internal value
        written by an out=-capable op, reusing the slot of an input that dies there."""
        life = self.lifetimes(node)
        esc = set(escaping)
        slot_of: dict = {}
        free: list = list(range(len(self.slots)))
        members = node.members
        for i, e in enumerate(members):
            v = e.outvars[0]
            chosen = None
            if v not in esc and self.out_capable(e):
                for a in e.invars:
                    if (type(a) is not Literal and a in slot_of and life.get(a, -1) == i
                            and info[a] == info[v]):
                        chosen = slot_of[a]
                        break
                if chosen is None:
                    if free:
                        chosen = free.pop()
                    else:
                        self.slots.append(0)
                        chosen = len(self.slots) - 1
                slot_of[v] = chosen
            # release slots whose value dies here (unless handed over to v)
            for a in e.invars:
                if type(a) is not Literal and a in slot_of and life.get(a, -1) == i and a is not v:
                    s = slot_of[a]
                    if s != slot_of.get(v) and s not in free:
                        free.append(s)
        return slot_of

    def emit_whole(self, node, info, escaping=None, reduce: bool = True) -> None:
        """The kernel as ufunc calls on whole arrays (internal values in scratch slots;
        ``escaping``: the values that leave it, `classify`'s unless given), then its trailing
        reduction unless ``reduce`` is False."""
        if escaping is None:
            escaping = self.classify(node)[1]
        slot_of = self.assign_slots(node, info, escaping)
        shape = node.shape
        esc = set(escaping)
        for e in node.members:
            v = e.outvars[0]
            ins = [self.expr(a) for a in e.invars]
            if v in slot_of:
                t = self.view(slot_of[v], shape, info[v])
                self.names[v] = t
                self.lines.append(f"    {self.member_call(e, ins, t, shape)}")
            else:
                out = self.define(v)
                self.lines.append(f"    {out} = {self.member_call(e, ins, None, shape)}")
                if v in esc and not self.out_capable(e) and any(a in slot_of for a in e.invars
                                                                  if type(a) is not Literal):
                    self.lines.append(f"    if getattr({out}, 'base', None) is not None: "
                                      f"{out} = {out}.copy()")
        if node.reduction is not None and reduce:
            self.emit_direct(node.reduction)

    # blocking --------------------------------------------------------------------------
    def block_plan(self, node, info):
        """("flat", B) or ("rows", rows per block), or None if blocking does not apply."""
        ext, _ = self.classify(node)
        shape = node.shape
        red = node.reduction
        full_red = red is not None and len(red.params["axes"]) == len(shape)
        flat_ok = True
        for a in ext:
            s = tuple(a.aval.shape)
            if s != shape and math.prod(s) != 1:
                flat_ok = False
        if red is not None and not full_red and len(shape) > 1:
            flat_ok = False
        if flat_ok:
            return ("flat", self.block)
        if len(shape) < 2:
            return None
        inner = math.prod(shape[1:])
        rows = max(1, self.block // max(inner, 1))
        if shape[0] < 2 * rows:
            return None
        return ("rows", rows)

    def alloc_results(self, escaping, info, shape) -> dict:
        """Lines allocating a blocked kernel's full-size results (a big one: recycled)."""
        n = math.prod(shape)
        L = self.lines
        out_full = {}
        for v in escaping:
            o = self.define(v, self.fresh("o"))
            dt = self.bind(info[v], "d")
            alloc = f"{self.bind(np.empty, 'u')}({shape!r}, {dt})"
            if self.numpy and n * info[v].itemsize >= RECYCLE_MIN:
                # a result the caller dropped since an earlier call is written again; an
                # intermediate (deleted before the call returns) is held from the start
                site = RecycleSite(n * info[v].itemsize)
                rs = self.bind(site, "rs")
                if v in self.prog_outs:
                    L.append(f"    {o} = {rs}.take()")
                    L.append(f"    if {o} is None: {o} = {alloc}")
                    self.recycle.append((o, rs))
                else:  # held by the site from the start: the program deletes it before returning
                    L.append(f"    {o} = {rs}.reuse()")
                    L.append(f"    if {o} is None: {o} = {alloc}; {rs}.put({o})")
            else:
                L.append(f"    {o} = {alloc}")
            out_full[v] = o
        return out_full

    def emit_blocked(self, node, info, plan, out_full=None) -> None:
        """The kernel over blocks (``out_full``: its results' arrays, when already made)."""
        kind, step = plan
        ext, escaping = self.classify(node)
        shape = node.shape
        n = math.prod(shape)
        red = node.reduction
        L = self.lines
        esc = set(escaping)
        # how the reduction is done
        red_mode = None
        if red is not None:
            axes = tuple(red.params["axes"])
            u = _red_ufunc(red)
            rin = red.invars[0]
            if (kind == "flat" and u is np.add and len(axes) == len(shape)
                    and info.get(rin) is not None and info[rin] == red.outvars[0].aval.dtype
                    and info[rin].kind == "f" and self.block >= 128):
                red_mode = "pairwise"
            elif kind == "rows" and u is not None and 0 not in axes:
                red_mode = "rows"
            else:
                red_mode = "after"
                if rin in info:
                    esc.add(rin)
                    if rin not in escaping:
                        escaping.append(rin)
        # the kernel's full-size results
        if out_full is None:
            out_full = self.alloc_results(escaping, info, shape)
        # inputs prepared once per call
        src_of = {}
        for a in ext:
            s = tuple(a.aval.shape)
            nm = self.names[a]
            if not self.is_array(a):
                src_of[a] = ("whole", nm)
            elif kind == "flat":
                if s == shape:
                    f = self.fresh("x")
                    L.append(f"    {f} = {nm}.reshape(-1)")
                    src_of[a] = ("slice", f)
                elif len(s) > 0:
                    f = self.fresh("x")
                    L.append(f"    {f} = {nm}.reshape(())")
                    src_of[a] = ("whole", f)
                else:
                    src_of[a] = ("whole", nm)
            else:
                if len(s) == len(shape) and s[0] == shape[0] and shape[0] != 1:
                    src_of[a] = ("slice", nm)
                else:
                    src_of[a] = ("whole", nm)
        flat_out = {}
        for v, o in out_full.items():
            if kind == "flat":
                f = self.fresh("y")
                L.append(f"    {f} = {o}.reshape(-1)")
                flat_out[v] = f
            else:
                flat_out[v] = o
        red_full = None
        if red_mode == "rows":
            red_full = self.define(red.outvars[0], self.fresh("o"))
            raxes = tuple(red.params["axes"])
            rshape = tuple(s for i, s in enumerate(shape) if i not in raxes)
            probe = np.ones((1,) * len(shape), info[red.invars[0]])
            with np.errstate(all="ignore"):
                rdt = np.dtype(_red_ufunc(red).reduce(probe, axis=raxes).dtype)
            L.append(f"    {red_full} = {self.bind(np.empty, 'u')}({rshape!r}, {self.bind(rdt, 'd')})")
        slot_of = self.assign_slots(node, info, escaping)
        inner = shape[1:] if kind == "rows" else ()

        def block_shape(m):
            return (m,) + tuple(inner)

        def body(m, indent, dynamic=False):
            """Lines for one block of ``m`` rows/elements starting at ``_s`` (``_e`` = end)."""
            lines = []
            pad = " " * indent
            local = {}
            for a in ext:
                how, nm = src_of[a]
                if how == "slice":
                    b = self.fresh("b")
                    lines.append(f"{pad}{b} = {nm}[_s:_e]")
                    local[a] = b
                else:
                    local[a] = nm
            for v, f in flat_out.items():
                b = self.fresh("b")
                lines.append(f"{pad}{b} = {f}[_s:_e]")
                local[v] = b
            views = {}
            for v, s in slot_of.items():
                if dynamic:
                    full = self.view(s, block_shape(step), info[v])
                    key = (full,)
                    if key not in views:
                        b = self.fresh("t")
                        lines.append(f"{pad}{b} = {full}[:_m]")
                        views[key] = b
                    local[v] = views[key]
                else:
                    local[v] = self.view(s, block_shape(m), info[v])

            def ex(a):
                if type(a) is Literal:
                    return self.expr(a)
                return local[a]

            bshape = None if dynamic else block_shape(m)
            for e in node.members:
                v = e.outvars[0]
                ins = [ex(a) for a in e.invars]
                if v in slot_of:
                    lines.append(f"{pad}{self.member_call(e, ins, local[v], bshape)}")
                elif v in flat_out and self.out_capable(e):
                    lines.append(f"{pad}{self.member_call(e, ins, local[v], bshape)}")
                else:
                    t = self.fresh("w")
                    lines.append(f"{pad}{t} = {self.member_call(e, ins, None, bshape)}")
                    if v in flat_out:
                        lines.append(f"{pad}{local[v]}[...] = {t}")
                    local[v] = t
            if red_mode == "rows":
                u = self.bind(_red_ufunc(red).reduce, "r")
                lines.append(f"{pad}{u}({ex(red.invars[0])}, axis={tuple(red.params['axes'])!r}, "
                             f"out={red_full}[_s:_e])")
            elif red_mode == "pairwise":
                u = self.bind(np.add.reduce, "r")
                lines.append(f"{pad}_st.append({u}({ex(red.invars[0])}))")
                lines.append(f"{pad}for _ in range(_k):")
                lines.append(f"{pad}    _b = _st.pop(); _st[-1] = _st[-1] + _b")
            return lines

        total = n if kind == "flat" else shape[0]
        if red_mode == "pairwise":
            leaves = pairwise_leaves(n, step)
            plan_name = self.bind(leaves, "p")
            L.append("    _st = []")
            L.append(f"    for _s, _e, _k in {plan_name}:")
            L.append("        _m = _e - _s")
            L.extend(body(step, 8, dynamic=True))
            L.append(f"    {self.define(red.outvars[0])} = _st[0]")
            self.weak_fix(red.outvars[0])
            return
        nfull = (total // step) * step
        if nfull:
            L.append(f"    for _s in range(0, {nfull}, {step}):")
            L.append(f"        _e = _s + {step}")
            L.extend(body(step, 8))
        if total - nfull:
            L.append(f"    _s, _e = {nfull}, {total}")
            L.extend(body(total - nfull, 4))
        if red_mode == "after":
            self.emit_direct(red)


class Executable:
    """A compiled program: ``run(bufs) -> list of buffers`` plus what it was made of."""

    def __init__(self, run, source, program, steps, kernel_modes, ns) -> None:
        self.run = run
        self.source = source
        self.program = program
        self.steps = steps
        self.kernel_modes = kernel_modes
        self.ns = ns
        self.native = 0  # kernels with a compiled C loop

    @property
    def kernels(self) -> list:
        return [s for s in self.steps if s.kind == "kernel"]

    @property
    def stats(self) -> dict:
        ks = self.kernels
        return {
            "kernels": len(ks),
            "ops": sum(1 for s in self.steps if s.kind == "op"),
            "fused_eqns": sum(len(s.eqns) for s in ks),
            "eqns": len(self.program.eqns),
            "modes": list(self.kernel_modes),
            "native": self.native,
        }

    def __call__(self, *bufs):
        return self.run(list(bufs))

    def as_text(self) -> str:
        return self.source

    def __repr__(self) -> str:
        s = self.stats
        return f"<fgrad Executable: {s['eqns']} eqns, {s['kernels']} kernels, {s['ops']} ops>"


def generate(prog, steps, xp=np, block=BLOCK, block_min=BLOCK_MIN, scratch_min=SCRATCH_MIN) -> Executable:
    g = Gen(prog, steps, xp, block, block_min, scratch_min)
    src = g.generate()
    ns = dict(g.ns)
    if g.slots:
        pool = g.scratch_pool()
        ns["_pool"] = pool.sets
        ns["_alloc"] = pool.alloc

    ns.setdefault("np", np)  # parameters written with repr may hold NumPy ints (`np.int64(1)`)
    exec(compile(src, "<fgrad compiled>", "exec"), ns)
    # IEEE special values (overflow, 0/0, log(0), ...) are computed silently, as in JAX
    exe = Executable(quiet(ns["run"], 1), src, prog, steps, g.kernel_modes, ns)
    exe.native = g.native
    return exe


__all__ = ["generate", "Executable", "pairwise_leaves", "BLOCK", "BLOCK_MIN", "SCRATCH_MIN"]
