"""Scalarized host loops (`core.scalar_loops`) compiled to native code with the system C compiler.

`scalar_loops` writes a loop over tiny values as Python code on NumPy scalars, about 1 us per
step of Python's own overhead.  Where every operation of such a step has a C spelling that
gives NumPy's bits, the same step is also written as one C function, compiled once (per exact
source) into the user's cache directory and called through `ctypes`: the whole loop then runs
in native code.  Anything that does not qualify -- no C compiler, a failed compile, an
operation without a spelling, a math function whose libm bits differ from NumPy's on this
machine -- leaves the Python code in charge; the answer is the same either way.

Numbers: the C code is compiled with ``-O2 -fno-fast-math -ffp-contract=off -fwrapv``: IEEE
float/double arithmetic with no fused multiply-adds (float32 values are C ``float``, never
promoted), integer arithmetic wrapping as NumPy's scalar math does.  A math *function* (sqrt,
sin, maximum, ...) is only written in C for a dtype after `calibrated` has compared the C
spelling with NumPy's ufunc on a dense set of values on this machine (random bit patterns,
wide log-uniform magnitudes, signed zeros, infinities, NaNs): every bit of every result equal,
NaN results compared as NaN (their sign and payload bits are not values).  NumPy's own SIMD
float32 sin/cos/exp/log/tanh differ from libm in the last bits, so loops calling them stay in
Python.

Security: the cache directory (``$XDG_CACHE_HOME/fgrad/native-loops`` or
``~/.cache/fgrad/native-loops``, or ``FGRAD_NATIVE_CACHE``) is created mode 0700 and used only
when it is a real directory owned by this user that nobody else can write; a library's file
name is the SHA-256 of its exact source, compiler and flags; a library is loaded only when it
is a regular file owned by this user and not writable by others; the compiler is run with an
argument list (no shell).

Switch: ``fgrad.config.update("native_loops", False)`` or ``FGRAD_NATIVE_LOOPS=0``.

Example::

    >>> import numpy as np
    >>> calibrated("sqrt", np.dtype(np.float64)) in (True, False)
    True
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import shutil
import stat
import subprocess
import sysconfig
import tempfile
import threading
from typing import Callable

import numpy as np

from .._config import flag

FLAGS = ("-O2", "-fno-fast-math", "-ffp-contract=off", "-fwrapv", "-fPIC", "-shared")
# elementwise kernels (`compile.native_kernels`): vectorized too (each lane IEEE, no contraction).
# ``-fno-trapping-math``: the compiler may assume no floating-point trap is enabled (none is:
# NumPy runs with them masked), so a comparison feeding a select (``x > 0 ? x : x * s``, NumPy's
# maximum) becomes a vector compare and blend instead of a branch per element, mispredicted on
# data of random sign (a leaky ReLU's kernel on 32k float32: 33 -> 7.5 us).  Every value is the
# same: the option changes which exception flags may be raised, never a rounding or a result.
VECTOR_FLAGS = ("-O3", FLAGS[1], "-fno-trapping-math") + FLAGS[2:]  # (after -fno-fast-math, which resets it)
WHILE_BUDGET = 1 << 22  # while-loop iterations per native call (Python then sees Ctrl-C)
MAX_CACHED = 1000  # libraries kept in the cache directory (the oldest go first)
KERNEL_BLOCK = 2048  # elements per block of a fused kernel calling NumPy's loops (`np_block_call`)

CTYPE = {"bool": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
         "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
         "float32": "float", "float64": "double"}

PRELUDE = r"""#include <stdint.h>
#include <string.h>
#include <math.h>
static inline float F32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline double F64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
#define NP_MAX(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define NP_MIN(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))
#define NP_FMAX(a, b) (((a) > (b) || (b) != (b)) ? (a) : (b))
#define NP_FMIN(a, b) (((a) < (b) || (b) != (b)) ? (a) : (b))
#define NP_IMAX(a, b) ((a) > (b) ? (a) : (b))
#define NP_IMIN(a, b) ((a) < (b) ? (a) : (b))
"""

# ufuncs written as an operator (Python's on NumPy scalars, C's in native code): the same
# result and type on operands of one dtype
BINARY_OPERATORS = {np.add: "+", np.subtract: "-", np.multiply: "*", np.less: "<", np.less_equal: "<=",
                    np.greater: ">", np.greater_equal: ">=", np.equal: "==", np.not_equal: "!=",
                    np.bitwise_and: "&", np.bitwise_or: "|", np.bitwise_xor: "^"}
FLOAT_BINARY_OPERATORS = {np.divide: "/"}  # only on floats (ints: true division makes floats)
UNARY_OPERATORS = {np.negative: "-", np.positive: "+"}
BOOL_OPERATORS = {"&", "|", "^", "==", "!="}

# ufunc name -> C spelling of a float function ({f}: "f" for float32, "" for float64)
_FLOAT_FUNCS = {
    "sqrt": "sqrt{f}({0})", "absolute": "fabs{f}({0})", "fabs": "fabs{f}({0})", "floor": "floor{f}({0})",
    "ceil": "ceil{f}({0})", "trunc": "trunc{f}({0})", "rint": "rint{f}({0})", "square": "(({0}) * ({0}))",
    "maximum": "NP_MAX({0}, {1})", "minimum": "NP_MIN({0}, {1})", "fmax": "NP_FMAX({0}, {1})",
    "fmin": "NP_FMIN({0}, {1})", "sin": "sin{f}({0})", "cos": "cos{f}({0})", "tan": "tan{f}({0})",
    "arcsin": "asin{f}({0})", "arccos": "acos{f}({0})", "arctan": "atan{f}({0})", "sinh": "sinh{f}({0})",
    "cosh": "cosh{f}({0})", "tanh": "tanh{f}({0})", "arcsinh": "asinh{f}({0})", "arccosh": "acosh{f}({0})",
    "arctanh": "atanh{f}({0})", "exp": "exp{f}({0})", "exp2": "exp2{f}({0})", "expm1": "expm1{f}({0})",
    "log": "log{f}({0})", "log2": "log2{f}({0})", "log10": "log10{f}({0})", "log1p": "log1p{f}({0})",
    "cbrt": "cbrt{f}({0})", "arctan2": "atan2{f}({0}, {1})", "hypot": "hypot{f}({0}, {1})",
}
# ufunc name -> C spelling on an integer type T
_INT_FUNCS = {"maximum": "NP_IMAX({0}, {1})", "minimum": "NP_IMIN({0}, {1})",
              "absolute": "(({T})(({0}) < 0 ? -({0}) : ({0})))", "square": "(({T})(({0}) * ({0})))",
              "invert": "(({T})~({0}))"}
# ufunc name -> C spelling on bools (held as 0 or 1)
_BOOL_FUNCS = {"invert": "(!({0}))", "logical_not": "(!({0}))", "logical_and": "(({0}) && ({1}))",
               "logical_or": "(({0}) || ({1}))", "logical_xor": "(({0}) != ({1}))",
               "maximum": "(({0}) || ({1}))", "minimum": "(({0}) && ({1}))"}


def enabled() -> bool:
    """Whether native loops are switched on (``config.update("native_loops", ...)``)."""
    return flag("native_loops")


def available() -> bool:
    """Whether native code can be had here: switched on, a C compiler found and a private
    cache directory."""
    return enabled() and _compiler() is not None and cache_dir() is not None


def spelling(ufunc: np.ufunc, dt: np.dtype, np_loops: bool = False) -> str | None:
    """The C format string (``{0}``, ``{1}``: operands) of ``ufunc`` on operands and result of
    dtype ``dt``, or None where it has none or it is not `calibrated` bit-equal here.  With
    ``np_loops`` (one value at a time: the scalar loops) a float function whose libm spelling
    is not bit-equal is a call of NumPy's own inner loop on one element (`np_loop_spelling`)."""
    fmt = _libm_spelling(ufunc, dt)
    if fmt is None and np_loops:
        return np_loop_spelling(ufunc, dt)
    return fmt


def _libm_spelling(ufunc: np.ufunc, dt: np.dtype) -> str | None:
    name = ufunc.__name__
    if dt.kind == "f":
        tpl = _FLOAT_FUNCS.get(name)
        fmt = None if tpl is None else tpl.replace("{f}", "f" if dt.itemsize == 4 else "")
    elif dt.kind in "iu":
        tpl = _INT_FUNCS.get(name)
        fmt = None if tpl is None else tpl.replace("{T}", CTYPE[dt.name])
    elif dt.kind == "b":
        fmt = _BOOL_FUNCS.get(name)
    else:
        return None
    if fmt is None or fmt.count("{0}") == 0 or ufunc.nin != (2 if "{1}" in fmt else 1):
        return None
    return fmt if calibrated(name, dt) else None


def c_operation(ufunc: np.ufunc, dts: list, dt_out: np.dtype, op: str | None = None,
                uop: str | None = None, np_loops: bool = False) -> str | None:
    """The C format string of ``ufunc`` on operands of dtypes ``dts`` with result ``dt_out``
    (``op``/``uop``: its binary/unary operator, looked up when not given), or None: C's
    operators and NumPy's agree on operands of one dtype (the result: that dtype, or bool for
    a comparison); a function only where `spelling` has one (``np_loops``: see there)."""
    if len(set(dts)) != 1:
        return None
    dt = np.dtype(dts[0])
    if op is None and uop is None:
        kinds = {dt.kind}
        op = BINARY_OPERATORS.get(ufunc) or (FLOAT_BINARY_OPERATORS.get(ufunc) if kinds == {"f"} else None)
        if "b" in kinds and op not in BOOL_OPERATORS:
            op = None
        uop = UNARY_OPERATORS.get(ufunc) if kinds <= {"f", "i"} else None
    if op is not None and len(dts) == 2:
        return f"({{0}} {op} {{1}})" if dt_out in (dt, np.dtype(np.bool_)) else None
    if uop is not None and len(dts) == 1:
        return f"({uop}{{0}})" if dt_out == dt else None
    return spelling(ufunc, dt, np_loops) if dt_out == dt else None


# ------------------------------------------------------------------- NumPy's own inner loops

# float functions whose NumPy loop C code may call on one element where libm's bits differ
# (NumPy's SIMD float32 sin/cos/exp/log/tanh, ...): slot 2 k (float32) and 2 k + 1 (float64)
NP_LOOP_NAMES = ("sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
                 "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "cbrt",
                 "arctan2", "hypot")
# loops called in their reduction form (`np_row_sum_call`), after those in the same table
NP_REDUCE_NAMES = ("add",)
_NP_TABLE = NP_LOOP_NAMES + NP_REDUCE_NAMES
NP_LOOP_PRELUDE = r"""typedef void (*np_loop_t)(char **, const intptr_t *, const intptr_t *, void *);
static np_loop_t np_loops[%d];
static void *np_loop_data[%d];
void set_np_loop(int k, void *fn, void *data) { np_loops[k] = (np_loop_t)fn; np_loop_data[k] = data; }
#define NP_LOOP_CALL(T, k, ...) do { char *args_[] = {__VA_ARGS__}; const intptr_t n_ = 1; \
  const intptr_t steps_[] = {sizeof(T), sizeof(T), sizeof(T)}; \
  np_loops[k](args_, &n_, steps_, np_loop_data[k]); } while (0)
static inline float np_f32_1(int k, float a) {
  float r; NP_LOOP_CALL(float, k, (char *)&a, (char *)&r); return r; }
static inline double np_f64_1(int k, double a) {
  double r; NP_LOOP_CALL(double, k, (char *)&a, (char *)&r); return r; }
static inline float np_f32_2(int k, float a, float b) {
  float r; NP_LOOP_CALL(float, k, (char *)&a, (char *)&b, (char *)&r); return r; }
static inline double np_f64_2(int k, double a, double b) {
  double r; NP_LOOP_CALL(double, k, (char *)&a, (char *)&b, (char *)&r); return r; }
/* NumPy's loop over a block of n contiguous elements of `size` bytes (the fused kernels) */
static inline void np_block_1(int k, const void *a, void *r, intptr_t n, intptr_t size) {
  char *args_[] = {(char *)a, (char *)r}; const intptr_t steps_[] = {size, size};
  np_loops[k](args_, &n, steps_, np_loop_data[k]); }
static inline void np_block_2(int k, const void *a, const void *b, void *r, intptr_t n, intptr_t size) {
  char *args_[] = {(char *)a, (char *)b, (char *)r}; const intptr_t steps_[] = {size, size, size};
  np_loops[k](args_, &n, steps_, np_loop_data[k]); }
/* NumPy's reduction call of a loop on one row of n contiguous elements, into *r (the row's
   result, set to the reduction's start beforehand): what `ufunc.reduce` runs on each row */
static inline void np_reduce_row(int k, const void *a, void *r, intptr_t n, intptr_t size) {
  char *args_[] = {(char *)r, (char *)a, (char *)r}; const intptr_t steps_[] = {0, size, 0};
  np_loops[k](args_, &n, steps_, np_loop_data[k]); }
""" % (2 * len(_NP_TABLE), 2 * len(_NP_TABLE))
_np_loop_calibration: dict = {}  # (ufunc name, dtype name) -> bool


def _ufunc_loop(ufunc: np.ufunc, dt: np.dtype) -> tuple[int, int] | None:
    """The addresses of NumPy's inner loop of ``ufunc`` for operands and result of ``dt`` (the
    first ``functions`` entry of that signature: the one NumPy's type resolution picks) and
    of its data, read from the ufunc object's fields; None where those fields do not read as
    this ufunc's (its inputs, outputs, signature count, name and type codes all checked)."""
    base = id(ufunc)

    def field(offset, ctype):
        return ctype.from_address(base + offset).value

    try:
        if (field(16, ctypes.c_int), field(20, ctypes.c_int), field(24, ctypes.c_int)) != (
                ufunc.nin, ufunc.nout, ufunc.nargs) or field(48, ctypes.c_int) != ufunc.ntypes:
            return None
        functions, data = field(32, ctypes.c_void_p), field(40, ctypes.c_void_p)
        name, types = field(56, ctypes.c_void_p), field(64, ctypes.c_void_p)
        if not (functions and data and name and types) or ctypes.string_at(name) != ufunc.__name__.encode():
            return None
        codes = ctypes.string_at(types, ufunc.ntypes * ufunc.nargs)
    except (ValueError, OSError):
        return None
    want = bytes([dt.num] * ufunc.nargs)
    for i, sig in enumerate(ufunc.types):
        got = codes[i * ufunc.nargs:(i + 1) * ufunc.nargs]
        if got != bytes(np.dtype(c).num for c in sig.replace("->", "")):
            return None  # (the type codes must read as `ufunc.types` says)
        if got == want:
            ptr = ctypes.sizeof(ctypes.c_void_p)
            return (ctypes.c_void_p.from_address(functions + ptr * i).value,
                    ctypes.c_void_p.from_address(data + ptr * i).value or 0)
    return None


def _np_loop_slot(name: str, dt: np.dtype, reduce: bool = False) -> int | None:
    names = NP_REDUCE_NAMES if reduce else NP_LOOP_NAMES
    if name not in names or dt.kind != "f" or dt.itemsize not in (4, 8):
        return None
    return 2 * _NP_TABLE.index(name) + (dt.itemsize == 8)


def _set_np_loops(lib) -> bool:
    """Fill the loop table of a library built with `NP_LOOP_PRELUDE`."""
    for k in range(2 * len(_NP_TABLE)):
        name, dt = _NP_TABLE[k // 2], np.dtype(np.float64 if k % 2 else np.float32)
        loop = _ufunc_loop(getattr(np, name), dt)
        if loop is not None:
            lib.set_np_loop(ctypes.c_int(k), ctypes.c_void_p(loop[0]), ctypes.c_void_p(loop[1]))
    return True


def np_loop_spelling(ufunc: np.ufunc, dt: np.dtype) -> str | None:
    """A C call of NumPy's own inner loop of ``ufunc`` on one ``dt`` element (operands
    ``{0}``, ``{1}``; the source must include `NP_LOOP_PRELUDE`): the same function NumPy's
    scalar call runs, so the same bits -- checked here by `np_loop_calibrated`.

    >>> np_loop_spelling(np.cos, np.dtype(np.float32)) in (None, "np_f32_1(2, {0})")
    True
    """
    k = _np_loop_slot(ufunc.__name__, np.dtype(dt))
    if k is None or not np_loop_calibrated(ufunc.__name__, np.dtype(dt)):
        return None
    args = "{0}, {1}" if ufunc.nin == 2 else "{0}"
    return f"np_f{8 * dt.itemsize}_{ufunc.nin}({k}, {args})"


def np_block_call(ufunc: np.ufunc, dt: np.dtype) -> str | None:
    """A C call of NumPy's own inner loop of ``ufunc`` over a block of contiguous ``dt``
    elements (``{0}``, ``{1}``: the operands' pointers, ``{r}``: the result's, ``{n}``: the
    count; the source must include `NP_LOOP_PRELUDE`), or None: what NumPy's array call runs
    on each stretch of its arrays, checked by `np_loop_calibrated` (blocks of `KERNEL_BLOCK`,
    aligned and not) to give the array call's bits.

    >>> np_block_call(np.exp, np.dtype(np.float32)) in (None, "np_block_1(24, {0}, {r}, {n}, 4)")
    True
    """
    dt = np.dtype(dt)
    k = _np_loop_slot(ufunc.__name__, dt)
    if k is None or not np_loop_calibrated(ufunc.__name__, dt):
        return None
    args = "{0}, {1}" if ufunc.nin == 2 else "{0}"
    return f"np_block_{ufunc.nin}({k}, {args}, {{r}}, {{n}}, {dt.itemsize})"


# the longest row `np_row_sum_call` is checked for (NumPy reduces a row of a contiguous array
# without a cast in one call of its loop; `np_row_sum_calibrated` checks it up to this length)
ROW_SUM_MAX = 8192
_row_sum_calibration: dict = {}  # dtype name -> bool


def np_row_sum_call(dt: np.dtype) -> str | None:
    """A C statement summing a row of ``{n}`` contiguous ``dt`` elements at ``{0}`` into
    ``{r}`` (a pointer to the row's result) as ``np.add.reduce(x, axis=-1)`` does: the result
    set to ``+0.0``, then NumPy's own ``add`` loop called in its reduction form on the row
    (its pairwise summation); the source must include `NP_LOOP_PRELUDE`.  None where that is
    not checked (`np_row_sum_calibrated`) to give NumPy's bits for rows of up to
    `ROW_SUM_MAX` elements.

    >>> np_row_sum_call(np.dtype(np.float32)) in (None, "*({r}) = 0.0f; np_reduce_row(44, {0}, {r}, {n}, 4)")
    True
    """
    dt = np.dtype(dt)
    k = _np_loop_slot("add", dt, reduce=True)
    if k is None or not np_row_sum_calibrated(dt):
        return None
    zero = "0.0f" if dt.itemsize == 4 else "0.0"
    return f"*({{r}}) = {zero}; np_reduce_row({k}, {{0}}, {{r}}, {{n}}, {dt.itemsize})"


def np_row_sum_calibrated(dt: np.dtype) -> bool:
    """Whether `np_row_sum_call`'s row sums equal ``np.add.reduce(x, axis=-1)``'s bits here,
    for rows of many lengths (short ones, around NumPy's unrolling by 8 and its pairwise
    blocks of 128, up to `ROW_SUM_MAX`) of `probe_values` (signed zeros, infinities, NaN,
    values of every magnitude) and of all ``-0.0``.

    >>> np_row_sum_calibrated(np.dtype(np.int32))  # (float loops only)
    False
    """
    dt = np.dtype(dt)
    with _lock:
        if dt.name not in _row_sum_calibration:
            _row_sum_calibration[dt.name] = _row_sum_calibrate(dt)
        return _row_sum_calibration[dt.name]


def _row_sum_calibrate(dt: np.dtype) -> bool:
    k = _np_loop_slot("add", dt, reduce=True)
    if k is None or _ufunc_loop(np.add, dt) is None:
        return False
    t = CTYPE[dt.name]
    zero = "0.0f" if dt.itemsize == 4 else "0.0"
    lib = load(PRELUDE + NP_LOOP_PRELUDE + f"void probe(int k, const {t} *a, {t} *o, long rows, long cols) "
               f"{{ for (long r = 0; r < rows; r++) {{ o[r] = {zero}; "
               f"np_reduce_row(k, a + r * cols, o + r, cols, sizeof({t})); }} }}\n")
    if lib is None:
        return False
    values = probe_values(dt)
    finite = values[np.isfinite(values)]
    rng = np.random.default_rng(3)
    lengths = list(range(1, 40)) + [127, 128, 129, 130, 255, 256, 257, 1000, 1024, 2047, 2048, 2049,
                                     4099, ROW_SUM_MAX]
    ok = True
    for cols in lengths:
        rows = max(2, 4096 // cols)
        pool = values if cols < 64 else finite  # (long rows of every value: all NaN)
        for a in (rng.choice(pool, (rows, cols)).astype(dt), np.full((2, cols), -0.0, dt)):
            got = np.empty(a.shape[0], dt)
            lib.probe(ctypes.c_int(k), ctypes.c_void_p(a.ctypes.data), ctypes.c_void_p(got.ctypes.data),
                      ctypes.c_long(a.shape[0]), ctypes.c_long(cols))
            with np.errstate(all="ignore"):
                ok = ok and bool(same_bits(got, np.add.reduce(a, axis=-1)))
    return ok


def np_loop_calibrated(name: str, dt: np.dtype) -> bool:
    """Whether C's call of NumPy's inner loop of ufunc ``name`` on one ``dt`` element gives,
    for every value of `probe_values`, NumPy's array call's bits, and for the first thousands
    its scalar call's (the scalar loops' Python code), here."""
    key = (name, dt.name)
    with _lock:
        if key not in _np_loop_calibration:
            _np_loop_calibration[key] = _np_loop_calibrate(name, dt)
        return _np_loop_calibration[key]


def _np_loop_calibrate(name: str, dt: np.dtype) -> bool:
    ufunc = getattr(np, name, None)
    k = _np_loop_slot(name, dt)
    if not isinstance(ufunc, np.ufunc) or k is None or _ufunc_loop(ufunc, dt) is None:
        return False
    t = CTYPE[dt.name]
    call = f"np_f{8 * dt.itemsize}_{ufunc.nin}(k, a[i]{', b[i]' if ufunc.nin == 2 else ''})"
    block = f"np_block_{ufunc.nin}(k, a + s, {'b + s, ' if ufunc.nin == 2 else ''}o + s, m, sizeof({t}))"
    lib = load(PRELUDE + NP_LOOP_PRELUDE + f"void probe(int k, const {t} *a, const {t} *b, {t} *o, long n) "
               f"{{ for (long i = 0; i < n; i++) o[i] = {call}; }}\n"
               # blocks as the fused kernels call them, the first one short (misaligned later ones)
               f"void probe_blocks(int k, const {t} *a, const {t} *b, {t} *o, long n, long first, "
               f"long size) {{ for (long s = 0, m = first; s < n; s += m, m = size) {{ "
               f"if (m > n - s) m = n - s; {block}; }} }}\n")
    if lib is None:
        return False
    a = probe_values(dt)
    b = np.random.default_rng(2).permutation(a)
    args = (a, b)[:ufunc.nin]
    with np.errstate(all="ignore"):
        want = ufunc(*args)
        scalars = np.array([ufunc(*(x[i] for x in args)) for i in range(4096)], dt)
    if want.dtype != dt:
        return False
    got = np.empty_like(a)
    ptrs = [ctypes.c_void_p(x.ctypes.data) for x in (a, b, got)]
    lib.probe(ctypes.c_int(k), *ptrs, ctypes.c_long(a.size))
    ok = bool(same_bits(got, want)) and bool(same_bits(got[:4096], scalars))
    for first in (KERNEL_BLOCK, 3):
        got[...] = 0
        lib.probe_blocks(ctypes.c_int(k), *ptrs, ctypes.c_long(a.size), ctypes.c_long(first),
                         ctypes.c_long(KERNEL_BLOCK))
        ok = ok and bool(same_bits(got, want))
    return ok


def literal(value, dt: np.dtype) -> str:
    """``value`` as a C expression of ``dt``'s C type holding exactly its bits."""
    x = np.asarray(value, dt)[()]
    if dt.kind == "f":
        bits = int(np.asarray(x).view(np.uint32 if dt.itemsize == 4 else np.uint64))
        return f"F32(0x{bits:x}u)" if dt.itemsize == 4 else f"F64(0x{bits:x}ull)"
    bits = int(np.asarray(x).astype(dt).view(f"u{dt.itemsize}")) if dt.kind != "b" else int(bool(x))
    return f"(({CTYPE[dt.name]})0x{bits:x}ull)"


# ---------------------------------------------------------------------------- compiler and cache

_lock = threading.RLock()
_state: dict = {}  # "cc" -> (path, version) or None; "dir" -> cache dir or None
_libs: dict = {}  # source hash -> loaded CDLL
_calibration: dict = {}  # (ufunc name, dtype name) -> bool


def _compiler() -> tuple[str, str] | None:
    """The C compiler (sysconfig's ``CC``, else ``cc``/``gcc``) and its version, or None."""
    if "cc" in _state:
        return _state["cc"]
    found = None
    names = []
    cc = sysconfig.get_config_var("CC")
    if cc:
        try:
            names.append(shlex.split(cc)[0])
        except ValueError:
            pass
    names += ["cc", "gcc"]
    for name in names:
        path = shutil.which(name)
        if path is None:
            continue
        try:
            out = subprocess.run([path, "-dumpfullversion", "-dumpversion"], capture_output=True,
                                 text=True, timeout=30, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if out.returncode == 0:
            found = (path, out.stdout.strip())
            break
    _state["cc"] = found
    return found


def cache_dir() -> str | None:
    """The private directory the compiled loops live in (created 0700), or None when it
    cannot be made or someone else could write to it."""
    if "dir" in _state:
        return _state["dir"]
    path = os.environ.get("FGRAD_NATIVE_CACHE")
    if not path:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = os.path.join(base, "fgrad", "native-loops")
    path = os.path.abspath(path)
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
        ok = (stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077)
    except OSError:
        ok = False
    _state["dir"] = path if ok else None
    return _state["dir"]


def _trusted_file(path: str) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


def load(source: str, flags: tuple = FLAGS, compile: bool = True) -> ctypes.CDLL | None:
    """The shared library compiled from C ``source`` with compiler ``flags`` (compiled once
    into `cache_dir`, named by the hash of source, compiler and flags), or None where that
    cannot be done (``compile=False``: None unless it is compiled already)."""
    cc = _compiler()
    if cc is None:
        return None
    key = hashlib.sha256("\0".join([source, *cc, *flags]).encode()).hexdigest()
    with _lock:
        lib = _libs.get(key)
        if lib is not None:
            return lib
        folder = cache_dir()
        if folder is None:
            return None
        so = os.path.join(folder, f"{key}.so")
        if _trusted_file(so):
            try:
                os.utime(so)  # (used: `_prune` deletes the least recently used first)
            except OSError:
                pass
        elif not compile or not _compile(cc[0], source, folder, so, flags):
            return None
        try:
            lib = ctypes.CDLL(so)
        except OSError:
            return None
        if "void set_np_loop(" in source:
            _set_np_loops(lib)  # (the addresses of NumPy's loops in this process)
        _libs[key] = lib
        return lib


def _compile(cc: str, source: str, folder: str, so: str, flags: tuple = FLAGS) -> bool:
    fd, c_path = tempfile.mkstemp(suffix=".c", dir=folder)
    tmp_so = c_path[:-2] + ".tmp.so"
    try:
        with os.fdopen(fd, "w") as f:
            f.write(source)
        out = subprocess.run([cc, *flags, "-o", tmp_so, c_path, "-lm"], capture_output=True,
                             timeout=120, check=False)
        if out.returncode != 0 or not _trusted_file(tmp_so):
            return False
        os.chmod(tmp_so, 0o700)
        os.replace(tmp_so, so)
        _prune(folder)
        return True
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        for p in (c_path, tmp_so):
            try:
                os.unlink(p)
            except OSError:
                pass


def _prune(folder: str) -> None:
    """Delete the least recently used libraries beyond `MAX_CACHED` (a library already
    loaded stays mapped; a deleted one is compiled again when needed)."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".so") and len(n) == 67]
        if len(names) <= MAX_CACHED:
            return
        paths = sorted((os.path.join(folder, n) for n in names), key=lambda p: os.lstat(p).st_mtime)
        for path in paths[:len(paths) - MAX_CACHED * 4 // 5]:
            os.unlink(path)
    except OSError:
        pass


# ------------------------------------------------------------------------------- calibration

# C functions may take NumPy arrays themselves (``ctypes.py_object``: asking an array for its
# address from Python costs 1-3 us) and read their data pointer, the first field after the
# object header; `array_layout_ok` checks that layout once per process
ARRAY_DATA = (f"#define ARRAY_DATA(o) (*(void *const *)((const char *)(o) + {object.__basicsize__}))\n"
              "void *array_data(const void *o) { return ARRAY_DATA(o); }\n")
_layout: list = []


def array_layout_ok() -> bool:
    """Whether ``ARRAY_DATA`` reads NumPy's data pointer here (arrays, views, offsets).

    Example::

        >>> array_layout_ok() in (True, False)
        True
    """
    if not _layout:
        lib = load(PRELUDE + ARRAY_DATA, VECTOR_FLAGS)
        ok = False
        if lib is not None:
            fn = lib.array_data
            fn.restype, fn.argtypes = ctypes.c_void_p, [ctypes.py_object]
            base = np.arange(24, dtype=np.float32).reshape(4, 6)
            ok = all(fn(a) == a.ctypes.data for a in (base, base[1:], base[:, 2:], np.empty(0)))
        _layout.append(ok)
    return _layout[0]


_functions: dict = {}


def compiled_function(source: str, name: str, argtypes: list, restype=None, reads_arrays: bool = False):
    """The C function ``name`` of ``source`` (compiled with `VECTOR_FLAGS`), its argument
    and result types set, looked up once per process; None with native loops off, without a compiler
    or (``reads_arrays``: it takes arrays as ``py_object`` and reads them with
    ``ARRAY_DATA``) where `array_layout_ok` is False.

    Example::

        >>> src = PRELUDE + "long twice(long v) { return 2 * v; }"
        >>> f = compiled_function(src, "twice", [ctypes.c_long], ctypes.c_long)
        >>> f is None or f(21) == 42
        True
    """
    if not enabled():
        return None
    key = (source, name)
    fn = _functions.get(key, False)
    if fn is False:
        lib = load(source, VECTOR_FLAGS)
        fn = None
        if lib is not None and (not reads_arrays or array_layout_ok()):
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = argtypes, restype
        _functions[key] = fn
    return fn


def probe_values(dt: np.dtype, n: int = 1 << 17, seed: int = 0) -> np.ndarray:
    """Dense test values of ``dt``: random bit patterns, log-uniform magnitudes from tiny to
    huge of both signs, small values, and the special ones (signed zeros, infinities, NaN,
    extremes)."""
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        return np.concatenate([[False, True], rng.integers(0, 2, n).astype(bool)])
    ut = np.dtype(f"u{dt.itemsize}")
    bits = rng.integers(0, np.iinfo(ut).max, n, dtype=ut, endpoint=True).view(dt)
    if dt.kind == "f":
        fi = np.finfo(dt)
        with np.errstate(all="ignore"):
            lo, hi = np.log(float(fi.smallest_subnormal)), np.log(float(fi.max))
            mag = np.exp(rng.uniform(lo, hi, n)).astype(dt)
            small = rng.uniform(-8, 8, n).astype(dt)
        signs = rng.choice(np.array([-1, 1], dt), n)
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1, -1, 0.5, -0.5, 2, np.pi,
                            fi.max, -fi.max, fi.tiny, -fi.tiny, fi.smallest_subnormal,
                            -fi.smallest_subnormal, fi.eps], dt)
        return np.concatenate([special, bits, mag * signs, small])
    ii = np.iinfo(dt)
    small = rng.integers(max(ii.min, -300), min(ii.max, 300), n, dtype=dt, endpoint=True)
    special = np.array([0, 1, ii.max, ii.min, ii.max - 1, ii.min + 1], dt)
    return np.concatenate([special, bits, small])


def _n_special(dt: np.dtype) -> int:
    return {"f": 19, "b": 2}.get(dt.kind, 6)


def calibrated(name: str, dt: np.dtype) -> bool:
    """Whether the C spelling of ufunc ``name`` on ``dt`` gives NumPy's ufunc's bits for every
    value of `probe_values` (both operands drawn from it, special values crossed), here."""
    key = (name, dt.name)
    with _lock:
        if key not in _calibration:
            _calibration[key] = _calibrate(name, dt)
        return _calibration[key]


def _formats(dt: np.dtype) -> dict:
    if dt.kind == "f":
        return {k: v.replace("{f}", "f" if dt.itemsize == 4 else "") for k, v in _FLOAT_FUNCS.items()}
    if dt.kind == "b":
        return dict(_BOOL_FUNCS)
    return {k: v.replace("{T}", CTYPE[dt.name]) for k, v in _INT_FUNCS.items()}


def _probe_source(dt: np.dtype) -> str:
    t = CTYPE[dt.name]
    lines = [PRELUDE]
    for name, fmt in sorted(_formats(dt).items()):
        expr = fmt.format("a[i]", "b[i]")
        lines.append(f"void probe_{name}(const {t} *a, const {t} *b, {t} *o, long n) "
                     f"{{ for (long i = 0; i < n; i++) o[i] = {expr}; }}")
    return "\n".join(lines) + "\n"


def _calibrate(name: str, dt: np.dtype) -> bool:
    ufunc = getattr(np, name, None)
    if not isinstance(ufunc, np.ufunc) or name not in _formats(dt):
        return False
    lib = load(_probe_source(dt))
    if lib is None:
        return False
    a = probe_values(dt)
    if ufunc.nin == 2:
        sp = a[:_n_special(dt)]
        perm = np.random.default_rng(1).permutation(a)
        with np.errstate(all="ignore"):
            b = np.concatenate([np.repeat(sp, sp.size), np.tile(sp, sp.size), perm, a,
                                ~a if dt.kind == "b" else -a])
        a = np.concatenate([np.tile(sp, sp.size), np.repeat(sp, sp.size), a, a, a])
        with np.errstate(all="ignore"):
            want = ufunc(a, b)
    else:
        b = a
        with np.errstate(all="ignore"):
            want = ufunc(a)
    if want.dtype != dt:
        return False
    got = np.empty_like(a)
    fn = getattr(lib, f"probe_{name}")
    fn(ctypes.c_void_p(a.ctypes.data), ctypes.c_void_p(b.ctypes.data), ctypes.c_void_p(got.ctypes.data),
       ctypes.c_long(a.size))
    return bool(same_bits(got, want))


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Every element of ``got`` has ``want``'s bits (NaNs: both NaN, any sign or payload)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    ut = np.dtype(f"u{got.dtype.itemsize}") if got.dtype.kind != "b" else np.dtype(np.uint8)
    eq = got.view(ut) == want.view(ut)
    if got.dtype.kind == "f":
        eq |= np.isnan(got) & np.isnan(want)
    return bool(eq.all())


# -------------------------------------------------------------------------------- the runners

def _scratch(specs: list) -> tuple[list, ctypes.Array]:
    """One array per (dtype, shape) of ``specs`` (the buffers a compiled loop reads or
    writes, allocated once) and the array of their addresses."""
    arrs = [np.zeros(max(1, int(np.prod(shape))), dt) for dt, shape in specs]
    ptrs = (ctypes.c_void_p * max(1, len(arrs)))(*[a.ctypes.data for a in arrs])
    return [a[:int(np.prod(shape))].reshape(shape) for a, (_, shape) in zip(arrs, specs)], ptrs


def scan_runner(source: str, ins: list, outs: list, python_run: Callable) -> Callable:
    """``run(bufs)`` calling the compiled ``run_loop(in, out, _)`` of ``source`` (`scalar_loops`'
    `_c_scan`): ``ins`` lists the dtype and shape of each buffer read, ``outs`` of each result;
    ``python_run`` where the library cannot be had, and whenever the switch is off.  The
    buffers are copied in and out of arrays allocated once (a copy costs less than asking
    NumPy for a fresh array's address)."""
    return _runner(source, ins, outs, 0, python_run, False)


def while_runner(source: str, ins: list, n_consts: int, python_run: Callable) -> Callable:
    """As `scan_runner` for a while loop (`scalar_loops`' `_c_while`): ``ins`` the dtype and
    shape of each buffer (the constants, then the carry, which is also the result).  The
    compiled function runs at most `WHILE_BUDGET` iterations per call and says whether the
    loop ended; if not, it is called again on the carry it reached."""
    return _runner(source, ins, ins[n_consts:], n_consts, python_run, True)


def _runner(source: str, ins: list, outs: list, n_consts: int, python_run: Callable,
            is_while: bool) -> Callable:
    lib = load(source)
    if lib is None:
        return python_run
    fn = lib.run_loop
    # (no argtypes: the two address tables go as pointers, the budget as a ready C long --
    # converting arguments cost a quarter of a tiny loop's call)
    fn.restype, fn.argtypes = ctypes.c_int, None
    in_arrs, in_ptrs = _scratch(ins)
    out_arrs, out_ptrs = _scratch(outs)
    carry_in = in_arrs[n_consts:]
    lock = threading.Lock()
    no_budget, budget = ctypes.c_long(0), ctypes.c_long(WHILE_BUDGET)

    def run(bufs):
        if not flag("native_loops"):
            return python_run(bufs)
        with lock:
            for a, b in zip(in_arrs, bufs):
                a[()] = b  # (the whole array, as ``a[...] = b``)
            if not is_while:
                fn(in_ptrs, out_ptrs, no_budget)
            else:
                while not fn(in_ptrs, out_ptrs, budget):
                    for a, r in zip(carry_in, out_arrs):
                        a[()] = r
            return [r.copy() for r in out_arrs]

    run.source, run.c_source = getattr(python_run, "source", None), source
    run.python = python_run
    return run
