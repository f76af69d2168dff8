"""Fused elementwise kernels of the host code generator compiled to native code.

A kernel of `codegen` (a run of elementwise equations over one iteration shape) is a series of
NumPy ufunc passes, each reading and writing whole arrays.  Where every member has a C
spelling that gives NumPy's bits (`core.native_loops`: the arithmetic operators on operands of
one dtype, conversions to floats, ``select_n``, and the math functions `calibrated` bit-equal
on this machine), the members become one C loop over the elements, compiled once with the
system compiler (no fused multiply-adds, IEEE arithmetic) into the native-loop cache: every
value lives in a register, and only the kernel's results are written.  A ufunc without such a
spelling (NumPy's own SIMD float32 ``exp``, ``tanh``, ``log``, ...) is NumPy's own inner loop
called from C on each block of `native_loops.KERNEL_BLOCK` elements (`_block_source`: one C
loop over cached blocks, no whole-size temporaries), or, where an operand is not a contiguous
block, a NumPy call on whole arrays between two C loops, with the same operands: the results
are bit for bit those of the NumPy kernel (`tests/test_native_kernels.py`), so the jit and
eager faces, which share these programs, agree as before.

An operand of the kernel may be full-size, one element, one value per row (shape ``(..., 1)``
of the leading axes), one value per column (the last axis only, a bias) or one value per
channel (a convolution's bias ``(1, C, 1, 1)``: the loop's columns then start after the
channel axis and the value is read at the row's index modulo ``C``): the C loop runs over
rows and columns and reads each at its index.  A kernel ending in a sum over its last axis
sums each row in the loop with NumPy's own ``add`` loop (`native_loops.np_row_sum_call`).
The kernel falls back to its NumPy code at run time when an input is not of the traced dtype
and shape, when native loops are switched off (``fgrad.config.update("native_loops", False)``
/ ``FGRAD_NATIVE_LOOPS=0``), and it is never made when no compiler is found or the code does not compile.

Example::

    >>> import numpy as np, fgrad
    >>> f = fgrad.jit(lambda x: (x * 2.0 + 1.0) / 3.0)
    >>> x = np.linspace(-1, 1, 4096, dtype=np.float32)
    >>> bool((np.asarray(f(x)) == (x * np.float32(2) + np.float32(1)) / np.float32(3)).all())
    True
"""

from __future__ import annotations

import ctypes
import math
from typing import Callable

import numpy as np

from ..core import native_loops
from ..core.executor import _scalar_literal
from ..core.ir import Literal
from ..ops.elementwise import saturates

MIN_ELEMENTS = 2048  # smaller kernels: the call's fixed cost (a few us) is not worth it
# a kernel split by NumPy calls (uncalibrated ufuncs: float32 exp, log1p, ...) pays that cost per
# C loop and gains only the passes its loops fuse: below this size it was slower than the NumPy
# kernel (a 4096-element logistic loss, -y * (X @ w) -> exp -> log1p: 107 us against 80 us)
MIN_ELEMENTS_SPLIT = 65536
COMPILE_AFTER = 3  # a kernel not compiled yet is compiled on its third call
MAX_BLOCK_STACK = 1 << 17  # bytes of a block kernel's buffers (on the stack); more: a split kernel
_KINDS = ("full", "one", "row", "col")


def _np_ufunc(prim):
    u = getattr(prim, "ufunc", None)
    return u if isinstance(u, np.ufunc) else None


def _c_dtype(dt) -> bool:
    dt = np.dtype(dt)
    return dt.isbuiltin == 1 and dt.name in native_loops.CTYPE


def _operand_kind(s: tuple, shape: tuple, split: int) -> tuple | None:
    """How an operand of shape ``s`` is read in a kernel over ``shape`` looped over as rows
    (the axes before ``split``) and columns (the axes from ``split``): ``(kind, period)``,
    the kind one of "full", "one", "row" (one value per row), "col" (per column) or "band"
    (one value per row of axes ``j`` to ``split``, leading axes broadcast: a convolution's
    bias ``(1, C, 1, 1)``, read at the row's index modulo ``period``); None where it is none."""
    s = (1,) * (len(shape) - len(s)) + tuple(s)
    shape = tuple(shape)
    if len(s) != len(shape):
        return None
    if s == shape:
        return ("full", 0)
    if math.prod(s) == 1:
        return ("one", 0)

    def ones(t):
        return all(d == 1 for d in t)

    if split >= 1 and s[:split] == shape[:split] and ones(s[split:]):
        return ("row", 0)
    if ones(s[:split]) and s[split:] == shape[split:]:
        return ("col", 0)
    for j in range(1, split):
        if ones(s[:j]) and s[j:split] == shape[j:split] and ones(s[split:]):
            return ("band", math.prod(shape[j:split]))
    return None


def _splits(shape: tuple, last_only: bool) -> list:
    """The axes a kernel over ``shape`` may start its columns at, the last axis first."""
    n = len(shape)
    return [max(n - 1, 0)] + ([] if last_only else list(range(n - 2, 0, -1)))


class _Plan:
    """The C text of a kernel's members, split into loops at the NumPy calls."""

    def __init__(self, members, ext, escaping, info, shape, ext_shapes=None, row_sum=None) -> None:
        self.shape = tuple(shape)
        self.ext = list(ext)
        self.escaping = list(escaping)
        self.info = info
        # a trailing sum over the last axis: (its operand, its result), the result one value
        # per row (shape ``shape[:-1]``), computed in the kernel (`_block_source`)
        self.row_sum = row_sum
        if row_sum is not None:
            operand, result = row_sum
            if (len(self.shape) < 1 or not any(operand is e.outvars[0] for e in members)
                    or self.shape[-1] > native_loops.ROW_SUM_MAX or np.dtype(info[operand]).kind != "f"
                    or np.dtype(info[operand]) != np.dtype(result.aval.dtype)
                    or native_loops.np_row_sum_call(np.dtype(info[operand])) is None):
                raise _NotNative
        self.kind = {}
        # the shape each input has at run time: its aval's, or (``ext_shapes``) the rank-only
        # shape the straight-line executor leaves a broadcast at
        self.ext_shape = {a: tuple((ext_shapes or {}).get(a, a.aval.shape)) for a in ext}
        if not all(_c_dtype(a.aval.dtype) for a in ext):
            raise _NotNative
        self.period = {}
        for split in _splits(self.shape, last_only=row_sum is not None):
            kinds = {a: _operand_kind(self.ext_shape[a], self.shape, split) for a in ext}
            if None not in kinds.values():
                break
        else:
            raise _NotNative
        for a, (k, period) in kinds.items():
            self.kind[a], self.period[a] = k, period
        # the loop's rows and columns (the axes before and from ``split``)
        self.loop_shape = (math.prod(self.shape[:split]), math.prod(self.shape[split:]))
        self.steps: list = []  # ("c", [(var, ctype, expr)]) or ("np", eqn, ufunc)
        self.cname: dict = {}
        n = 0
        for e in members:
            v = e.outvars[0]
            if len(e.outvars) != 1 or tuple(v.aval.shape) != self.shape or not _c_dtype(info[v]):
                raise _NotNative
            expr = self.c_expr(e)
            if expr is None:
                u = _np_ufunc(e.prim)
                if u is None or e.params or u.nout != 1:
                    raise _NotNative
                self.steps.append(("np", e, u))
                continue
            n += 1
            self.cname[v] = f"v{n}"
            if not self.steps or self.steps[-1][0] != "c":
                self.steps.append(("c", []))
            # (a bool held as an int in the loop: comparisons and selects then vectorize)
            ct = "int" if np.dtype(info[v]) == np.bool_ else native_loops.CTYPE[np.dtype(info[v]).name]
            self.steps[-1][1].append((v, ct, expr))
        if not any(s[0] == "c" for s in self.steps):
            raise _NotNative

    @staticmethod
    def literal_value(a, e):
        """A literal operand's NumPy scalar (None where it has no scalar form)."""
        val = a.val
        if isinstance(val, np.ndarray) and not val.ndim:
            val = val[()]
        return val if isinstance(val, np.generic) else _scalar_literal(a, e)

    def dtype_of(self, a, e):
        if type(a) is Literal:
            val = self.literal_value(a, e)
            return None if val is None else np.dtype(val.dtype)
        return np.dtype(self.info[a]) if a in self.info else np.dtype(a.aval.dtype)

    def operand(self, a, e, dt):
        if type(a) is Literal:
            return native_loops.literal(self.literal_value(a, e), dt)
        return ("ref", a)

    def c_expr(self, e):
        """The member as ``(format, operands)``, or None where C cannot give NumPy's bits."""
        v = e.outvars[0]
        dt_out = np.dtype(self.info[v])
        dts = [self.dtype_of(a, e) for a in e.invars]
        if any(d is None or not _c_dtype(d) for d in dts):
            return None
        name = e.prim.name
        if name == "convert_element_type":
            src = dts[0]
            if type(e.invars[0]) is Literal or saturates(src, e.params["new_dtype"], e.params):
                return None
            if not (dt_out.kind == "f" or (src.kind == "b" and dt_out.kind in "iu")
                    or (src.kind == dt_out.kind and src.kind in "iu" and dt_out.itemsize >= src.itemsize)):
                return None
            return (f"(({native_loops.CTYPE[dt_out.name]}){{0}})", [self.operand(e.invars[0], e, src)])
        if name == "select_n":
            # (a value operand may be a literal of the result's dtype: `uniform_select_constants`)
            if (len(e.invars) != 3 or dts[0] != np.bool_ or dts[1] != dt_out or dts[2] != dt_out
                    or type(e.invars[0]) is Literal
                    or any(type(a) is Literal and not isinstance(a.val, np.generic) for a in e.invars)):
                return None
            return ("({0} ? {2} : {1})", [self.operand(a, e, dt_out) for a in e.invars])
        u = _np_ufunc(e.prim)
        if u is None or e.params or u.nout != 1 or u.nin != len(e.invars):
            return None
        fmt = native_loops.c_operation(u, dts, dt_out)
        if fmt is None:
            return None
        return (fmt, [self.operand(a, e, dts[0]) for a in e.invars])


class _NotNative(Exception):
    """The kernel has something the C loop does not handle: its NumPy code runs."""


def _reads_at(plan: _Plan) -> dict:
    """Value -> the indices of the steps reading it (a row sum's operand: also the index after
    the last step)."""
    reads_at: dict = {} if plan.row_sum is None else {plan.row_sum[0]: {len(plan.steps)}}
    for k, st in enumerate(plan.steps):
        reads = ([a for a in st[1].invars] if st[0] == "np"
                 else [a for _, _, (fmt, ops) in st[1] for a in (o[1] for o in ops if isinstance(o, tuple))])
        for a in reads:
            if type(a) is not Literal:
                reads_at.setdefault(a, set()).add(k)
    return reads_at


def _member(plan: _Plan, v, ct: str, fmt: str, ops: list, ref: Callable) -> str:
    """The C line computing member ``v`` (``ref(a)``: the C text reading value ``a``)."""
    args = [ref(o[1]) if isinstance(o, tuple) else o for o in ops]
    return f"      const {ct} {plan.cname[v]} = {fmt.format(*args)};"


def _source(plan: _Plan) -> tuple[str, list]:
    """C text of one function per C step and, per step, the values it reads and writes."""
    stored = set(plan.escaping)
    later_reads = _reads_at(plan)
    lines = [native_loops.PRELUDE, native_loops.ARRAY_DATA]
    io = []
    for k, st in enumerate(plan.steps):
        if st[0] != "c":
            io.append(None)
            continue
        own = {v for v, _, _ in st[1]}
        ins, outs = [], []
        body = []
        for v, ct, (fmt, ops) in st[1]:
            def ref(a, v=v, st=st):
                if a in own and a in plan.cname and _defined_before(st[1], a, v):
                    return plan.cname[a]
                if a not in ins:
                    ins.append(a)
                    body.append(_load(plan, a, ins.index(a), _index(plan, a)))
                return f"x{ins.index(a)}"

            body.append(_member(plan, v, ct, fmt, ops, ref))
            if v in stored or any(j > k for j in later_reads.get(v, ())):
                outs.append(v)
                body.append(f"      out{len(outs) - 1}[i] = {plan.cname[v]};")  # (a bool: 0 or 1)
        params = ", ".join([f"const void *a{j}" for j in range(len(ins) + len(outs))]
                           + ["long rows, long cols"])
        head = [f"void step{k}({params}) {{"]
        for j, a in enumerate(ins):
            ct = native_loops.CTYPE[np.dtype(_dt(plan, a)).name]
            head.append(f"  const {ct} *restrict in{j} = ARRAY_DATA(a{j});")
        for j, v in enumerate(outs):
            ct = native_loops.CTYPE[np.dtype(plan.info[v]).name]
            head.append(f"  {ct} *restrict out{j} = ARRAY_DATA(a{len(ins) + j});")
        head.append("  for (long r = 0; r < rows; r++) {")
        head.append("    for (long c = 0; c < cols; c++) {")
        head.append("      const long i = r * cols + c;")
        lines += head + body + ["    }", "  }", "}"]
        io.append((ins, outs))
    return "\n".join(lines) + "\n", io


def _block_source(plan: _Plan) -> tuple[str, list] | None:
    """C text of the whole kernel as one function ``step0(in..., out..., rows, cols)`` that
    runs every member over blocks of `native_loops.KERNEL_BLOCK` elements of each row (a row:
    the whole array where no operand is per row or column), calling NumPy's own inner loop
    (`native_loops.np_block_call`) on the block for a member without a C spelling, so every
    value stays in cache and no whole-size temporary is made; and (as `_source`) its inputs
    and outputs.  A row sum (``plan.row_sum``) makes each row one block, summed at its end by
    NumPy's own reduction loop into one more output, one value per row
    (`native_loops.np_row_sum_call`: ``np.add.reduce``'s bits).  None
    where a NumPy member's operand is not a block of contiguous elements (a literal, a
    per-row or single value) or its loop cannot be called."""
    B = native_loops.KERNEL_BLOCK
    if plan.row_sum is not None:
        B = max(B, plan.shape[-1])  # (a row in one block)
    reads_at = _reads_at(plan)
    made_at = {}
    for k, st in enumerate(plan.steps):
        for v in ([st[1].outvars[0]] if st[0] == "np" else [v for v, _, _ in st[1]]):
            made_at[v] = k
    out_index = {v: j for j, v in enumerate(plan.escaping)}
    ins: list = []
    bufs: dict = {}  # value crossing steps (not escaping) -> its block buffer
    decls = []

    def ctype_of(v):
        return native_loops.CTYPE[np.dtype(_dt(plan, v)).name]

    def stored(v, k):  # a value made in step k that another step reads
        return v in out_index or any(j != k for j in reads_at.get(v, ()))

    def place(v):
        """Where value ``v`` (made by the kernel) lives: ``(pointer at the block's start)``."""
        if v in out_index:
            return f"(out{out_index[v]} + i0)"
        if v not in bufs:
            bufs[v] = f"t{len(bufs)}"
            decls.append(f"  {ctype_of(v)} {bufs[v]}[{B}];")
        return bufs[v]

    def ext_ptr(a):
        if a not in ins:
            ins.append(a)
        kind = plan.kind[a]
        if kind == "full":
            return f"(in{ins.index(a)} + i0)"
        return f"(in{ins.index(a)} + s)" if kind == "col" else None

    body = []
    for k, st in enumerate(plan.steps):
        if st[0] == "np":
            _, e, u = st
            v = e.outvars[0]
            dt = np.dtype(plan.info[v])
            call = native_loops.np_block_call(u, dt)
            if call is None or any(type(a) is Literal or np.dtype(_dt(plan, a)) != dt for a in e.invars):
                return None
            ptrs = [place(a) if a in made_at else ext_ptr(a) for a in e.invars]
            if None in ptrs:
                return None
            body.append("    " + call.format(*ptrs, r=place(v), n="m") + ";")
            continue
        own = set()
        lines = []
        def ref(a):
            if a in own:
                return plan.cname[a]
            if a in made_at:
                return f"{place(a)}[j]"
            if a not in ins:
                ins.append(a)
            j = ins.index(a)
            if j not in loaded:
                loaded.add(j)
                lines.append(_load(plan, a, j, _block_index(plan, a)))
            return f"x{j}"

        loaded: set = set()
        for v, ct, (fmt, ops) in st[1]:
            lines.append(_member(plan, v, ct, fmt, ops, ref))
            own.add(v)
            if stored(v, k):
                lines.append(f"      {place(v)}[j] = {plan.cname[v]};")
        body += ["    for (long j = 0; j < m; j++) {"] + lines + ["    }"]
    outs = list(plan.escaping)
    if plan.row_sum is not None:
        operand, result = plan.row_sum
        call = native_loops.np_row_sum_call(np.dtype(_dt(plan, operand)))
        body.append("    " + call.format(place(operand), r=f"out{len(outs)} + r", n="m") + ";")
        outs.append(result)
    if sum(np.dtype(_dt(plan, v)).itemsize for v in bufs) * B > MAX_BLOCK_STACK:
        return None  # (the buffers live on the calling thread's stack)
    params = ", ".join([f"const void *a{j}" for j in range(len(ins) + len(outs))]
                       + ["long rows, long cols"])
    head = [native_loops.PRELUDE + native_loops.NP_LOOP_PRELUDE + native_loops.ARRAY_DATA,
            f"void step0({params}) {{"]
    for j, a in enumerate(ins):
        head.append(f"  const {ctype_of(a)} *restrict in{j} = ARRAY_DATA(a{j});")
    for j, v in enumerate(outs):
        head.append(f"  {ctype_of(v)} *restrict out{j} = ARRAY_DATA(a{len(ins) + j});")
    loop = ["  for (long r = 0; r < rows; r++) {", f"   for (long s = 0; s < cols; s += {B}) {{",
            f"    const long m = cols - s < {B} ? cols - s : {B};", "    const long i0 = r * cols + s;"]
    return "\n".join(head + decls + loop + body + ["   }", "  }", "}"]) + "\n", [(ins, outs)]


def _load(plan: _Plan, a, j: int, index: str) -> str:
    """The C line reading input ``j`` (value ``a``) at ``index`` into the local ``x<j>``.
    Every input is read once per element, unconditionally, before the members: a read inside
    a select's branch (``c ? in1[i] : in2[i]``) would be a conditional load, which GCC does
    not if-convert -- the loop then branches per element (mispredicted on data of random
    sign) instead of a vector compare and blend (ReLU's backward select: 1.9 ms -> 40 us on
    256k float32)."""
    ct = native_loops.CTYPE[np.dtype(_dt(plan, a)).name]
    return f"      const {ct} x{j} = in{j}[{index}];"


def _block_index(plan: _Plan, a) -> str:
    kind = plan.kind.get(a, "full")
    if kind == "band":
        return f"(r % {plan.period[a]})"
    return {"full": "i0 + j", "one": "0", "row": "r", "col": "s + j"}[kind]


def _defined_before(defs, a, v) -> bool:
    for w, _, _ in defs:
        if w is a:
            return True
        if w is v:
            return False
    return False


def _dt(plan: _Plan, a):
    return plan.info[a] if a in plan.info else a.aval.dtype


def _index(plan: _Plan, a) -> str:
    kind = plan.kind.get(a, "full")
    if kind == "band":
        return f"(r % {plan.period[a]})"
    return {"full": "i", "one": "0", "row": "r", "col": "c"}[kind]


def kernel(members, ext, escaping, info, shape, is_array, ext_shapes=None, row_sum=None):
    """``run(*ext_values)`` computing the kernel's ``escaping`` values (a list, in that order)
    in native code, returning None at run time where it cannot (the caller then runs the
    NumPy code); or None where the kernel does not qualify here.  ``ext_shapes``: the
    run-time shape of inputs whose aval's shape is not theirs (a dict; see `_Plan`).
    ``row_sum``: ``(operand, result)`` of a sum over the last axis that ends the kernel, its
    result then returned after the ``escaping`` values (with NumPy's bits; None where it
    cannot be: the caller then keeps the reduction out of the kernel)."""
    n = math.prod(shape)
    if (n < MIN_ELEMENTS or not all(is_array(a) for a in ext) or not native_loops.available()
            or not native_loops.array_layout_ok()):
        return None
    try:
        plan = _Plan(members, ext, escaping, info, shape, ext_shapes, row_sum)
    except _NotNative:
        return None
    split = any(st[0] == "np" for st in plan.steps)
    block = _block_source(plan) if split or row_sum is not None else None
    if block is not None:  # (one C loop over cached blocks: no split's cost, any size)
        source, io = block
        steps = [("c",)]
        shape = plan.loop_shape
        if row_sum is None and not any(plan.kind[a] in ("row", "col", "band") for a in ext):
            shape = (n,)  # (a flat loop: one row)
        return _runner(plan, io, source, steps, shape)
    if row_sum is not None:
        return None
    if n < MIN_ELEMENTS_SPLIT and split:
        return None
    source, io = _source(plan)
    return _runner(plan, io, source, plan.steps, plan.loop_shape)


def _functions(lib, steps: list, io: list) -> list:
    fns = []
    for k, (st, k_io) in enumerate(zip(steps, io)):
        if st[0] == "c":
            fn = getattr(lib, f"step{k}")
            n_arrays = len(k_io[0]) + len(k_io[1])
            fn.restype, fn.argtypes = None, [ctypes.py_object] * n_arrays + [ctypes.c_long, ctypes.c_long]
            fns.append(fn)
        else:
            fns.append(None)
    return fns


def _runner(plan: _Plan, io: list, source: str, plan_steps: list, loop_shape: tuple):
    """The kernel's run function (``plan_steps``: its C functions and NumPy calls, in order;
    ``loop_shape``: the rows and columns they loop over).  Its library is loaded at once when
    it is compiled already (in this process or in the cache directory); otherwise it is
    compiled on the `COMPILE_AFTER`-th call (the NumPy code runs until then): a kernel that
    runs once or twice costs no compiler run."""
    shape = plan.shape
    cols = loop_shape[-1] if len(loop_shape) else 1
    rows = math.prod(loop_shape) // cols if cols else 0
    ext = plan.ext
    want = [(np.dtype(a.aval.dtype), plan.ext_shape[a]) for a in ext]
    escaping = plan.escaping + ([] if plan.row_sum is None else [plan.row_sum[1]])
    out_shape = {} if plan.row_sum is None else {plan.row_sum[1]: shape[:-1]}
    esc = set(escaping)
    flags = native_loops.VECTOR_FLAGS
    lib = native_loops.load(source, flags, compile=False)
    state = {"fns": None if lib is None else _functions(lib, plan_steps, io), "calls": 0, "native": 0}
    fns = state["fns"] or [None] * len(plan_steps)
    steps = []
    for st, f, k_io in zip(plan_steps, fns, io):
        if st[0] == "c":
            ins, outs = k_io
            steps.append((f, ins, [(v, np.dtype(_dt(plan, v)), out_shape.get(v, shape)) for v in outs], None))
        else:
            _, e, u = st
            v = e.outvars[0]
            steps.append((None, list(e.invars), [(v, np.dtype(plan.info[v]), shape)], u))
    flag = native_loops.enabled
    empty, asarray, ndarray = np.empty, np.ascontiguousarray, np.ndarray

    n_ext = len(ext)

    def start(args):
        """The first calls: compile on the `COMPILE_AFTER`-th, then run as `general`."""
        if state["fns"] is None:
            state["calls"] += 1
            if state["calls"] < COMPILE_AFTER:
                return None
            lib = native_loops.load(source, flags)
            state["fns"] = False if lib is None else _functions(lib, plan_steps, io)
            if lib is not None:
                steps[:] = [(f, *rest) for f, (_, *rest) in zip(state["fns"], steps)]
        if state["fns"] is False:
            return None
        return general(args)

    def general(args):
        """Any kernel: its inputs checked and made contiguous, its steps run in order."""
        env = dict(zip(escaping, args[n_ext:]))
        for a, x, (dt, s) in zip(ext, args, want):
            if type(x) is not np.ndarray:
                x = np.asarray(x)
            if x.dtype != dt or x.shape != s:
                return None
            env[a] = asarray(x)
        for f, ins, outs, u in steps:
            made = []
            for v, dt, s in outs:
                if v not in env:
                    env[v] = empty(s, dt)
                made.append(env[v])
            if f is None:
                operands = [a.val if type(a) is Literal else env[a] for a in ins]
                u(*operands, out=made[0])  # (under the program's `quiet` error state)
                continue
            f(*[env[a] for a in ins], *made, rows, cols)  # (every array C-contiguous, its dtype)
        state["native"] += 1
        return [env[v] for v in escaping] if esc else []

    single = (len(steps) == 1 and steps[0][3] is None and all(a in ext for a in steps[0][1])
              and [v for v, _, _ in steps[0][2]] == escaping)
    # one C function (a block kernel, or one C loop), precomputed for its per-call path: the
    # positions of its inputs among the arguments, its results' shapes and dtypes
    in_at = tuple(ext.index(a) for a in steps[0][1]) if single else ()
    made_specs = tuple((s, dt) for _, dt, s in steps[0][2]) if single else ()
    checks = tuple(zip(range(n_ext), [dt for dt, _ in want], [s for _, s in want]))

    def run(*args):
        """The escaping values (``args``: the kernel's inputs, then optionally the arrays to
        write its results into), or None where the NumPy code must run."""
        if not flag():
            return None
        fns = state["fns"]
        if not fns:
            return start(args)
        if not single or len(args) != n_ext:
            return general(args)
        for j, dt, s in checks:  # (a dtype not the canonical instance: `general` compares)
            x = args[j]
            if type(x) is not ndarray or x.dtype is not dt or x.shape != s:
                return general(args)  # (converts, or declines: None)
        made = [empty(s, dt) for s, dt in made_specs]  # (fresh each call: returned, never reused)
        fns[0](*[asarray(args[j]) for j in in_at], *made, rows, cols)
        state["native"] += 1
        return made

    run.c_source = source
    run.state = state  # ("native": the calls that ran the C code)
    return run


def probe_dtypes(members) -> dict | None:
    """The dtype NumPy gives each value of the elementwise equations ``members``, found by
    running them once on one-element probes of their inputs' dtypes; None if that fails or a
    value is a weak-typed scalar (whose run-time type is Python's)."""
    vals: dict = {}

    def probe(a):
        if type(a) is Literal:
            return a.val
        if a in vals:
            return vals[a]
        av = a.aval
        if av.weak_type and av.shape == ():
            return {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1.0 + 0j}[av.dtype.kind]
        return np.ones((), av.dtype)

    dtypes = {}
    try:
        with np.errstate(all="ignore"):
            for e in members:
                ins = [probe(a) for a in e.invars]
                u = _np_ufunc(e.prim)
                r = u(*ins) if u is not None and not e.params else e.prim.impl(np, *ins, **e.params)
                r = np.asarray(r)
                if r.shape != ():
                    r = r.reshape(-1)[:1].reshape(())
                v = e.outvars[0]
                if v.aval.weak_type and v.aval.shape == ():
                    return None
                vals[v] = r
                dtypes[v] = r.dtype
    except Exception:  # noqa: BLE001 - an op that cannot run on probes: no native kernel
        return None
    return dtypes


def _not_weak_scalar(a) -> bool:
    return not (a.aval.weak_type and a.aval.shape == ())


def straight_line_kernel(members, ext, escaping, shape, ext_shapes):
    """The native kernel of a run of elementwise equations of the straight-line executor
    (`fgrad.core.executor.straight_line`'s ``native``: the shim's backward programs, the
    tape's), or None.  A run of one equation is made native only where an operand is
    broadcast (a row or column statistic: NumPy's broadcasting inner loop is where C gains);
    one full-size pass alone gains less than the call costs."""
    if len(members) == 1 and all(tuple(ext_shapes.get(a, a.aval.shape)) == tuple(shape) for a in ext):
        return None
    info = probe_dtypes(members)
    if info is None:
        return None
    return kernel(members, ext, escaping, info, shape, _not_weak_scalar, ext_shapes)


straight_line_kernel.min_elements = MIN_ELEMENTS  # type: ignore[attr-defined]
