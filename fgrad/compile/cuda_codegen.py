"""CUDA code generation for the cupy backend: the GPU twin of `codegen` (DESIGN.md §4).

The program and its fusion partition are the same as on the CPU; only kernel steps are
compiled differently.  Barrier ops (matmul → cuBLAS, gathers, reshapes, control flow, ...)
stay ordinary calls of the primitives' ``impl`` with ``xp = cupy``, exactly as
`codegen.Gen` emits them for any non-numpy backend.  Each fusion group becomes

* one ``cupy.ElementwiseKernel`` computing the group's values that are needed outside it,
  written into arrays allocated by the executor, and/or
* one ``cupy.ReductionKernel`` for the group's trailing reduction, whose elementwise
  prologue (the part of the group that feeds the reduction and is not already written by
  the elementwise kernel) is a ``__device__`` function ``fg_map`` called as the kernel's
  ``map_expr``; cupy reduces over any set of axes (it permutes the reduced axes last), so
  the executor passes ``axis=`` unchanged.

**Types.**  cupy does not promote like NumPy, so nothing is left to C's implicit
conversions.  Every kernel parameter has a concrete dtype (the value's aval dtype; weak
Python scalars are passed as scalars of their aval dtype).  For every equation the
generator asks NumPy which inner loop it would run (`ufunc.resolve_dtypes`, with Python
scalars as weak ``int``/``float``), casts each operand explicitly to that loop's dtype,
writes literals as typed C literals of that dtype (``2.0f``, ``3LL``, ``fg_f32(0x7f800000u)``
for ``inf``), applies the primitive's CUDA template and casts the result explicitly to
the equation's output dtype.  So float32 stays float32 and int/float mixes follow NumPy.
float16 values are held in ``float`` registers and rounded to half after every operation
(``(float)(float16)(...)``), which is what NumPy's half loops do.  Kernels are compiled
without fma contraction (`OPTIONS`), so correctly rounded operations (``+ - * /``, sqrt,
casts, ...) give NumPy's bits; transcendentals are CUDA's (within a few ulp).

**Templates.**  ``prim.kernel`` (set in ``fgrad/ops/*.py``) is a format string, or a dict
from dtype kinds (``"f"``, ``"iu"``, ``"b"`` ...) to format strings, over the operands
``{0}, {1}, ...`` (already in the loop dtype), the equation's parameters by name, the
loop's C type ``{T}`` and the float function suffix ``{f}`` (``"f"`` for float32 and
float16 loops, so ``exp{f}`` is ``expf`` there and ``exp`` for float64).  NumPy semantics
that C lacks (floor division and ``remainder`` with Python's sign rules, NaN-propagating
max/min, ``logaddexp``, integer powers, ``round(x, d)``, XLA shifts) live in small
``fg_*`` device helpers below, included in a kernel only when it uses them.

**Fallbacks.**  An equation the generator cannot express exactly (no template for its
dtype kind, complex or other unsupported dtypes, NumPy loops mixing operand types, weak
outputs, an integer power with a non-literal exponent, an out-of-range literal, max/min
over an empty axis, ...) is never compiled into a wrong kernel: it runs as an ordinary
cupy call between the kernels of its group (the group is split into layers around it).

**Caching.**  Every kernel's full CUDA source (`KernelSpec.source`: preamble, and the
kernel wrapped in an ``extern "C" __global__`` function with plain contiguous indexing in
place of cupy's CIndexer) is hashed; the hash names the kernel and keys a process-wide
cache, so each distinct source is built once (`build`; cupy compiles a built kernel once
per device and array layout, and caches binaries on disk).  The same text with
``__host__ __device__`` helpers and a sequential loop (`KernelSpec.render(host=True)`) is
what the tests compile with ``nvcc`` and run on the CPU against NumPy.

Entry points: `supports(xp)` (does ``xp`` provide ``ElementwiseKernel``/``ReductionKernel``),
`generate(prog, steps, xp)` (called by `fgrad.compile.compile_executable`), and
`plan_program(prog, steps)` (the kernels of a program, without building anything).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import threading

import numpy as np

from .._lru import LRU, Box
from ..core.ir import Literal, external_inputs
from ..ops.elementwise import saturates
from .codegen import BLOCK, BLOCK_MIN, SCRATCH_MIN, Executable, Gen

# ---------------------------------------------------------------------------------------
# C types and typed literals

_CTYPES = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int8): "signed char", np.dtype(np.int16): "short",
    np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
    np.dtype(np.uint8): "unsigned char", np.dtype(np.uint16): "unsigned short",
    np.dtype(np.uint32): "unsigned int", np.dtype(np.uint64): "unsigned long long",
    np.dtype(np.float16): "float16", np.dtype(np.float32): "float", np.dtype(np.float64): "double",
}
F16 = np.dtype(np.float16)


class Unsupported(Exception):
    """An equation (or reduction) that cannot be compiled into a kernel exactly."""


def ctype(dt) -> str:
    """The C type cupy uses for arrays of dtype ``dt`` (``float16`` is cupy's class)."""
    try:
        return _CTYPES[np.dtype(dt)]
    except (KeyError, TypeError):
        raise Unsupported(f"dtype {dt} has no kernel type") from None


def reg_type(dt) -> str:
    """The C type a value of dtype ``dt`` is computed in (float16 is computed in float)."""
    return "float" if np.dtype(dt) == F16 else ctype(dt)


def fsuffix(dt) -> str:
    """``"f"`` where the single-precision math functions apply (``expf``), else ``""``."""
    return "f" if np.dtype(dt) in (F16, np.dtype(np.float32)) else ""


def _int_literal(v: int, dt: np.dtype) -> str:
    info = np.iinfo(dt)
    if not info.min <= v <= info.max:
        raise Unsupported(f"literal {v} does not fit {dt}")
    if dt.itemsize < 4:
        return f"(({ctype(dt)}){v})"
    if dt.kind == "u":
        return f"{v}u" if dt.itemsize == 4 else f"{v}ull"
    suffix = "" if dt.itemsize == 4 else "LL"
    if v == info.min:  # -2147483648 would be the negation of an out-of-range literal
        return f"(-{-v - 1}{suffix} - 1)"
    return f"({v}{suffix})" if v < 0 else f"{v}{suffix}"


def _float_literal(x: float, dt: np.dtype) -> str:
    """``x`` (already a value of dtype ``dt``) as a C literal of ``dt``'s register type."""
    single = dt != np.dtype(np.float64)
    if not math.isfinite(x):
        bits = np.array(x, np.float32 if single else np.float64).view(np.uint32 if single else np.uint64)
        return f"fg_f32({int(bits):#010x}u)" if single else f"fg_f64({int(bits):#018x}ull)"
    if single:
        s = str(np.float32(x))
        # the decimal must denote exactly this float32 even if parsed to double first
        s = s + "f" if float(np.float32(float(s))) == x else float.hex(x) + "f"
    else:
        s = repr(x)
    return f"({s})" if s.startswith("-") else s


def literal(value, dt) -> str:
    """A typed C literal for the Python/NumPy scalar ``value`` converted to ``dt`` the way
    NumPy converts a (weak) scalar operand into a loop of dtype ``dt``."""
    dt = np.dtype(dt)
    if isinstance(value, (complex, np.complexfloating)):
        raise Unsupported("complex literal")
    if dt.kind == "b":
        return "true" if bool(value) else "false"
    if dt.kind in "iu":
        if isinstance(value, (float, np.floating)):
            raise Unsupported("float literal in an integer loop")
        return _int_literal(int(value), dt)
    if dt.kind == "f":
        with np.errstate(all="ignore"):
            x = float(dt.type(value))
        return _float_literal(x, dt)
    raise Unsupported(f"literal of dtype {dt}")


def paren(expr: str) -> str:
    """``expr`` in parentheses, unless it already is one parenthesized expression."""
    if expr.startswith("("):
        depth = 0
        for i, c in enumerate(expr):
            depth += (c == "(") - (c == ")")
            if depth == 0:
                if i == len(expr) - 1:
                    return expr
                break
    return f"({expr})"


def cast(expr: str, src, dst) -> str:
    """``expr`` (a value of dtype ``src``) explicitly converted to dtype ``dst``."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src == dst:
        return expr
    if dst == F16:  # round to half (cupy's float16 has constructors from every C type)
        return f"(float)(float16){paren(expr)}"
    return f"({ctype(dst)}){paren(expr)}"


# ---------------------------------------------------------------------------------------
# device helpers: NumPy semantics C does not have.  "@T@"/"@f@" make float and double
# overloads; each helper is included in a kernel only when the kernel calls it.


def _overloads(text: str) -> str:
    return "".join(text.replace("@T@", t).replace("@f@", f) for t, f in (("float", "f"), ("double", "")))


HELPERS = {
    "fg_f32": """__device__ __forceinline__ float fg_f32(unsigned int bits) {
  union { unsigned int u; float f; } c;
  c.u = bits;
  return c.f;
}
""",
    "fg_f64": """__device__ __forceinline__ double fg_f64(unsigned long long bits) {
  union { unsigned long long u; double f; } c;
  c.u = bits;
  return c.f;
}
""",
    # numpy's npy_divmod: the floor quotient, snapped to an integer, signed zeros
    "fg_floordiv": _overloads("""__device__ __forceinline__ @T@ fg_floordiv(@T@ a, @T@ b) {
  if (b == 0) return a / b;
  const @T@ mod = fmod@f@(a, b);
  @T@ div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
  if (div != 0) {
    @T@ fl = floor@f@(div);
    if (div - fl > (@T@)0.5) fl += 1;
    return fl;
  }
  return copysign@f@((@T@)0, a / b);
}
"""),
    # numpy's npy_remainder: the remainder takes the sign of the divisor
    "fg_rem": _overloads("""__device__ __forceinline__ @T@ fg_rem(@T@ a, @T@ b) {
  @T@ mod = fmod@f@(a, b);
  if (b == 0) return mod;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = copysign@f@((@T@)0, b);
  }
  return mod;
}
"""),
    # numpy's round(x, d): x * 10**d (10**d rounded to the loop type), rint, divide back
    "fg_round": _overloads("""__device__ __forceinline__ @T@ fg_round(@T@ x, int d) {
  if (d == 0) return rint@f@(x);
  double p = 1.0;
  for (int k = 0; k < (d < 0 ? -d : d); ++k) p *= 10.0;
  const @T@ s = (@T@)p;
  return d > 0 ? rint@f@(x * s) / s : rint@f@(x / s) * s;
}
"""),
    "fg_logaddexp": _overloads("""__device__ __forceinline__ @T@ fg_logaddexp(@T@ x, @T@ y) {
  if (x == y) return x + 0.693147180559945309417232121458176568@f@;
  const @T@ d = x - y;
  if (d > 0) return x + log1p@f@(exp@f@(-d));
  if (d <= 0) return y + log1p@f@(exp@f@(d));
  return d;
}
"""),
    # integer division and remainders: floor semantics, x/0 == 0, no INT_MIN / -1 trap
    "fg_floordiv_i": """template <typename T> __device__ __forceinline__ T fg_floordiv_i(T a, T b) {
  if (b == 0) return (T)0;
  if (b == (T)-1) return (T)(0ull - (unsigned long long)a);
  T q = (T)(a / b);
  if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) q = (T)(q - 1);
  return q;
}
""",
    "fg_floordiv_u": """template <typename T> __device__ __forceinline__ T fg_floordiv_u(T a, T b) {
  return b == 0 ? (T)0 : (T)(a / b);
}
""",
    "fg_rem_i": """template <typename T> __device__ __forceinline__ T fg_rem_i(T a, T b) {
  if (b == 0 || b == (T)-1) return (T)0;
  T r = (T)(a % b);
  if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b);
  return r;
}
""",
    "fg_rem_u": """template <typename T> __device__ __forceinline__ T fg_rem_u(T a, T b) {
  return b == 0 ? (T)0 : (T)(a % b);
}
""",
    # JAX's clamp: max(x, lo) then min(., hi), a NaN anywhere propagating (as max/min's kernels)
    "fg_clamp": """template <typename T> __device__ __forceinline__ T fg_clamp(T lo, T x, T hi) {
  const T m = (x > lo || x != x) ? x : lo;
  return (m < hi || m != m) ? m : hi;
}
""",
    "fg_fmod_i": """template <typename T> __device__ __forceinline__ T fg_fmod_i(T a, T b) {
  return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b);
}
""",
    # x**n for integers, n >= 0 (wrapping like NumPy: arithmetic modulo 2**64, truncated)
    "fg_ipow": """template <typename T> __device__ __forceinline__ T fg_ipow(T a, T n) {
  unsigned long long r = 1ull, x = (unsigned long long)a, k = (unsigned long long)n;
  while (k) {
    if (k & 1ull) r *= x;
    x *= x;
    k >>= 1;
  }
  return (T)r;
}
""",
    # signed x**n, n < 0 as PyTorch (and the host implementation): the truncated 1 / x**-n
    "fg_ipow_i": """template <typename T> __device__ __forceinline__ T fg_ipow_i(T a, T n) {
  if (n >= 0) return fg_ipow(a, n);
  if (a == 1) return (T)1;
  if (a == -1) return (n & 1) ? (T)-1 : (T)1;
  return (T)0;
}
""",
    # JAX's integer_pow of a float: binary exponentiation in the implementation's order
    # (`ops.elementwise.integer_pow_by_squaring`), each product rounded, then 1 / acc for y < 0
    "fg_integer_pow": """template <typename T> __device__ __forceinline__ T fg_integer_pow(T x, int y) {
  if (y == 0) return (T)1;
  unsigned int n = y < 0 ? (unsigned int)(-(long long)y) : (unsigned int)y;
  T acc = x;
  bool first = true;
  while (n) {
    if (n & 1u) { acc = first ? x : acc * x; first = false; }
    n >>= 1;
    if (n) x = x * x;
  }
  return y < 0 ? (T)1 / acc : acc;
}
""",
    # XLA shifts: an amount outside [0, bits) gives 0 (logical) or the sign fill
    "fg_shift_left": """template <typename T, typename Y>
__device__ __forceinline__ T fg_shift_left(T x, Y y) {
  const long long n = (long long)y;
  if (n < 0 || n >= 8 * (long long)sizeof(T)) return (T)0;
  return (T)((unsigned long long)x << n);
}
""",
    "fg_shift_right_logical": """template <typename T, typename Y>
__device__ __forceinline__ T fg_shift_right_logical(T x, Y y) {
  const long long n = (long long)y, bits = 8 * (long long)sizeof(T);
  if (n < 0 || n >= bits) return (T)0;
  unsigned long long u = (unsigned long long)x;
  if (bits < 64) u &= (1ull << bits) - 1ull;
  return (T)(u >> n);
}
""",
    "fg_shift_right_arithmetic": """template <typename T, typename Y>
__device__ __forceinline__ T fg_shift_right_arithmetic(T x, Y y) {
  long long n = (long long)y;
  const long long bits = 8 * (long long)sizeof(T);
  if (n < 0 || n >= bits) n = bits - 1;
  const long long s = (long long)((unsigned long long)x << (64 - bits)) >> (64 - bits);
  return (T)(s >> n);
}
""",
}
_HELPER_CALL = re.compile(r"\b(fg_\w+)\(")


def helpers_for(*texts: str) -> str:
    """The helper definitions the given code calls (in a fixed order: same code, same text)."""
    used = set()
    todo = [c for t in texts for c in _HELPER_CALL.findall(t)]
    while todo:  # with the helpers those helpers call (defined before them in HELPERS)
        name = todo.pop()
        if name not in used and name in HELPERS:
            used.add(name)
            todo.extend(_HELPER_CALL.findall(HELPERS[name]))
    return "".join(code for name, code in HELPERS.items() if name in used)


# ---------------------------------------------------------------------------------------
# typing one equation the NumPy way


_SHIFTS = {"shift_left", "shift_right_logical", "shift_right_arithmetic"}
_WEAK_TYPES = {"b": np.dtype(np.bool_), "i": int, "u": int, "f": float, "c": complex}


def _operand_dtype(a):
    av = a.aval
    return _WEAK_TYPES[av.dtype.kind] if av.weak_type else av.dtype


def loop_types(e):
    """``(operand dtypes, compute dtype)`` of the loop NumPy runs for equation ``e``: each
    operand is cast to its loop dtype; ``{T}``/``{f}`` and the template kind come from the
    compute dtype.  Raises `Unsupported` where a kernel could not reproduce NumPy."""
    ins, compute = _numpy_loop(e)
    for a, d in zip(e.invars, ins):
        # a weak integer only known at run time might not fit a narrow loop type (NumPy
        # raises there; a C cast would wrap)
        if type(a) is not Literal and a.aval.weak_type and d.kind in "iu" and d.itemsize < 8:
            raise Unsupported(f"{e.prim.name}: run-time Python int in a {d} loop")
    return ins, compute


def _numpy_loop(e):
    name = e.prim.name
    out = e.outvars[0].aval.dtype
    n = len(e.invars)
    if name == "select_n":
        return (np.dtype(np.bool_), out, out), out
    if name == "convert_element_type":
        src = e.invars[0].aval.dtype
        return (src,), src
    if name in _SHIFTS:  # the amount keeps its own type (XLA semantics, see fgrad/ops/bits.py)
        return tuple(a.aval.dtype for a in e.invars), out
    u = getattr(e.prim, "ufunc", None)
    if not isinstance(u, np.ufunc):  # composites of NumPy calls computing in the result type
        return (out,) * n, out
    if u.nin != n or u.nout != 1:
        raise Unsupported(f"{name}: ufunc arity")
    try:
        res = u.resolve_dtypes(tuple(_operand_dtype(a) for a in e.invars) + (None,))
    except (TypeError, ValueError) as err:
        raise Unsupported(f"{name}: {err}") from None
    ins = tuple(np.dtype(d) for d in res[:n])
    if np.dtype(res[n]) != out:
        raise Unsupported(f"{name}: NumPy's loop gives {res[n]}, the program says {out}")
    if len(set(ins)) > 1:  # e.g. NumPy 2's uint64-vs-int64 comparisons
        raise Unsupported(f"{name}: mixed loop {ins}")
    return ins, ins[0]


def template(e, compute) -> str:
    """The primitive's CUDA template for a loop computing in dtype ``compute``."""
    tpl = e.prim.kernel
    if isinstance(tpl, dict):
        kind = np.dtype(compute).kind
        tpl = next((t for kinds, t in tpl.items() if kind in kinds), None)
    if not isinstance(tpl, str):
        raise Unsupported(f"{e.prim.name}: no CUDA template for {compute}")
    return tpl


def _check_params(e, compute) -> None:
    """Per-primitive conditions beyond the template (guards for exactness)."""
    name = e.prim.name
    if name == "round" and e.params.get("decimals", 0) != 0:
        dt = np.dtype(compute)
        if dt == F16 or (dt.kind in "iu" and e.params["decimals"] < 0):  # NumPy rounds in steps
            raise Unsupported("round with decimals of float16 / to tens of integers")
    if name == "pow" and np.dtype(compute).kind in "iu":
        y = e.invars[1]
        if type(y) is not Literal or isinstance(y.val, float) or y.val < 0:
            raise Unsupported("integer power needs a literal exponent >= 0 (NumPy raises otherwise)")
    if name == "integer_pow" and np.dtype(compute) == F16 and e.params["y"] not in (-1, 0, 1, 2):
        raise Unsupported("integer_pow of float16: NumPy rounds every product to float16")
    if e.params and name not in ("convert_element_type", "round", "integer_pow"):
        raise Unsupported(f"{name}: parameters {sorted(e.params)}")


def _check_dtypes(e) -> None:
    for v in list(e.invars) + list(e.outvars):
        ctype(v.aval.dtype)
    out = e.outvars[0].aval
    if out.weak_type and out.shape == ():  # weak arrays (fnp.full(3, 2.0) * x) are arrays
        raise Unsupported("weak-typed result (a Python scalar)")


# ---------------------------------------------------------------------------------------
# kernel bodies


class Body:
    """Straight-line CUDA statements for a sequence of equations: one ``const`` local per
    value, every operand cast to its loop dtype, every result cast to its dtype."""

    def __init__(self) -> None:
        self.lines: list = []
        self.expr: dict = {}  # var -> C expression of its value (in its register type)
        self.count = 0

    def local(self, dt, code: str) -> str:
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"const {reg_type(dt)} {name} = {code};")
        return name

    def bind_input(self, v, param: str) -> None:
        """An input parameter (float16 is widened once, into a float local)."""
        dt = v.aval.dtype
        self.expr[v] = self.local(dt, f"(float){param}") if dt == F16 else param

    def operand(self, a, dt) -> str:
        if type(a) is Literal:
            return literal(a.val, dt)
        return cast(self.expr[a], a.aval.dtype, dt)

    def equation(self, e) -> None:
        ins, compute = loop_types(e)
        code = template(e, compute).format(*[self.operand(a, d) for a, d in zip(e.invars, ins)],
                                           T=reg_type(compute), f=fsuffix(compute), **e.params)
        out = e.outvars[0]
        dt = out.aval.dtype
        if e.prim.name == "convert_element_type" and saturates(e.invars[0].aval.dtype, dt, e.params):
            value = self.saturating_cast(code, dt)
        else:
            value = f"(float)(float16){paren(code)}" if dt == F16 else f"({reg_type(dt)}){paren(code)}"
        self.expr[out] = self.local(dt, value)

    def saturating_cast(self, code: str, dt) -> str:
        """A float -> integer conversion as JAX's (XLA's): NaN is 0, values beyond the range its
        bounds. PTX's ``cvt.rzi`` does this on the device already; written out, the kernel's
        host twin (and any other C compiler) agrees, instead of x86's INT_MIN."""
        t = self.local(np.dtype(np.float64), f"(double){paren(code)}")
        info, rt = np.iinfo(dt), reg_type(dt)
        lo, hi = _int_literal(int(info.min), np.dtype(dt)), _int_literal(int(info.max), np.dtype(dt))
        return (f"({t} != {t} ? ({rt})0 : {t} <= {float(info.min)!r} ? ({rt}){lo} : "
                f"{t} >= {float(info.max)!r} ? ({rt}){hi} : ({rt}){t})")


def expressible(e) -> bool:
    """Whether equation ``e`` can be written exactly in a kernel."""
    try:
        _check_dtypes(e)
        ins, compute = loop_types(e)
        _check_params(e, compute)
        template(e, compute)
        for a, d in zip(e.invars, ins):
            if type(a) is Literal:
                literal(a.val, d)
    except Unsupported:
        return False
    return True


# ---------------------------------------------------------------------------------------
# kernel specs


@dataclasses.dataclass
class KernelSpec:
    """One generated kernel: what cupy is given, the full source it is keyed by, and (for
    the executor and the tests) the program values it reads and writes."""

    kind: str  # "elementwise" | "reduction"
    name: str
    in_params: str
    out_params: str
    preamble: str
    operation: str = ""  # elementwise body
    map_expr: str = ""  # reduction pieces (cupy's ReductionKernel arguments)
    reduce_expr: str = ""
    post_map_expr: str = ""
    identity: str = ""
    reduce_type: str = ""
    inputs: tuple = ()  # program variables bound to the input parameters, in order
    outputs: tuple = ()  # program variables written by the output parameters
    eqns: tuple = ()  # the equations it computes (program order; the reduction last)
    shape: tuple = ()  # iteration shape (the reduction's input shape)
    axes: tuple = ()  # reduced axes
    source: str = ""
    key: str = ""

    def params(self) -> list:
        """C parameters of the wrapper function (arrays as pointers, scalars by value)."""
        out = []
        for v, p in zip(self.inputs, _split_params(self.in_params)):
            t = ctype(v.aval.dtype)
            out.append(f"const {t}* __restrict__ _raw_{p}" if _is_array(v) else f"const {t} {p}")
        for v, p in zip(self.outputs, _split_params(self.out_params)):
            out.append(f"{ctype(v.aval.dtype)}* __restrict__ _raw_{p}")
        return out

    def render(self, host: bool = False) -> str:
        """The kernel as one CUDA translation unit (after cupy's type definitions).

        Device form (``host=False``, `source`): ``extern "C" __global__`` with a grid-stride
        loop over contiguous, pre-broadcast arrays.  Host form: the same preamble with
        ``__host__ __device__`` helpers and a sequential loop in a plain function (what the
        tests run on the CPU)."""
        pre = self.preamble.replace("__device__", "__host__ __device__") if host else self.preamble
        extents = ["long long _n"] + (["long long _m"] if self.kind == "reduction" else [])
        sig = ", ".join(self.params() + extents)
        head = (f"static void {self.name}_host({sig})" if host
                else f'extern "C" __global__ void {self.name}({sig})')
        loop = ("for (long long _i = 0; _i < _n; ++_i)" if host else
                "for (long long _i = blockIdx.x * (long long)blockDim.x + threadIdx.x; _i < _n;\n"
                "       _i += (long long)blockDim.x * gridDim.x)")
        fn = "__host__ __device__" if host else "__device__"
        if self.kind == "elementwise":
            body = [f"    const {ctype(v.aval.dtype)} &{p} = _raw_{p}[_i];"
                    for v, p in zip(self.inputs, _split_params(self.in_params)) if _is_array(v)]
            body += [f"    {ctype(v.aval.dtype)} &{p} = _raw_{p}[_i];"
                     for v, p in zip(self.outputs, _split_params(self.out_params))]
            body += ["    " + ln for ln in self.operation.splitlines()]
            return f"{pre}{head} {{\n  {loop} {{\n" + "\n".join(body) + "\n  }\n}\n"
        # reduction: one output element per _i, reducing _m contiguous input elements
        loads = [f"      const {ctype(v.aval.dtype)} {p} = _raw_{p}[_i * _m + _j];"
                 for v, p in zip(self.inputs, _split_params(self.in_params)) if _is_array(v)]
        (ov,), (op,) = self.outputs, _split_params(self.out_params)
        return (
            f"{pre}typedef {self.reduce_type} _type_reduce;\n"
            f"{fn} __forceinline__ _type_reduce fg_reduce(const _type_reduce a, const _type_reduce b) {{\n"
            f"  return {self.reduce_expr};\n}}\n"
            f"{head} {{\n  {loop} {{\n"
            f"    _type_reduce _s = _type_reduce({self.identity});\n"
            f"    for (long long _j = 0; _j < _m; ++_j) {{\n" + "\n".join(loads) + "\n"
            f"      const _type_reduce _a = static_cast<_type_reduce>({self.map_expr});\n"
            f"      _s = fg_reduce(_s, _a);\n    }}\n"
            f"    {ctype(ov.aval.dtype)} &{op} = _raw_{op}[_i];\n"
            f"    {{ const _type_reduce a = _s; {self.post_map_expr}; }}\n  }}\n}}\n"
        )

    def finish(self) -> KernelSpec:
        """Name the kernel after the hash of its source (computed with a placeholder name)."""
        self.name = "fg_kernel"
        digest = hashlib.sha1(self.render().encode()).hexdigest()
        self.name = f"fg_{'ew' if self.kind == 'elementwise' else 'red'}_{digest[:16]}"
        self.source = self.render()
        self.key = hashlib.sha1(self.source.encode()).hexdigest()
        return self


def _split_params(s: str) -> list:
    return [p.split()[-1] for p in s.split(",")] if s else []


def _is_array(v) -> bool:
    """Passed as an array (not a Python scalar): everything but weak scalars."""
    return not (v.aval.weak_type and v.aval.shape == ())


def _declare(vs, prefix) -> tuple:
    names = [f"{prefix}{i}" for i in range(len(vs))]
    return names, ", ".join(f"{np.dtype(v.aval.dtype).name} {n}" for v, n in zip(vs, names))


def elementwise_spec(eqns, outputs, shape) -> KernelSpec:
    """An ElementwiseKernel computing ``outputs`` from the equations ``eqns`` (a closed,
    ordered slice of a fusion group): inputs are the values the slice reads from outside."""
    inputs = external_inputs(eqns)
    in_names, in_params = _declare(inputs, "x")
    out_names, out_params = _declare(outputs, "y")
    body = Body()
    for v, n in zip(inputs, in_names):
        body.bind_input(v, n)
    for e in eqns:
        body.equation(e)
    for v, n in zip(outputs, out_names):
        dt = v.aval.dtype
        body.lines.append(f"{n} = (float16){paren(body.expr[v])};" if dt == F16 else f"{n} = {body.expr[v]};")
    op = "\n".join(body.lines)
    return KernelSpec("elementwise", "", in_params, out_params, helpers_for(op), operation=op,
                      inputs=tuple(inputs), outputs=tuple(outputs), eqns=tuple(eqns),
                      shape=tuple(shape)).finish()


# reduce_expr per kind (NaN-propagating max/min) and identity (None: the dtype's extreme)
_REDUCERS = {
    "reduce_sum": ({"biuf": "a + b"}, 0),
    "reduce_prod": ({"biuf": "a * b"}, 1),
    "reduce_max": ({"f": "(a > b || a != a) ? a : b", "biu": "a > b ? a : b"}, "min"),
    "reduce_min": ({"f": "(a < b || a != a) ? a : b", "biu": "a < b ? a : b"}, "max"),
    "reduce_and": ({"b": "a && b"}, True),
    "reduce_or": ({"b": "a || b"}, False),
}


def _identity(red, acc) -> str:
    ident = _REDUCERS[red.prim.name][1]
    if ident in ("min", "max"):
        if acc.kind == "f":
            ident = -math.inf if ident == "min" else math.inf
        elif acc.kind == "b":
            ident = ident == "max"
        else:
            info = np.iinfo(acc)
            ident = info.min if ident == "min" else info.max
    return literal(ident, acc)


def check_reduction(red) -> None:
    """Raise `Unsupported` unless ``red`` can be a ReductionKernel that matches NumPy."""
    if red.prim.name not in _REDUCERS:
        raise Unsupported(red.prim.name)
    x, out = red.invars[0], red.outvars[0].aval
    ctype(x.aval.dtype)
    ctype(out.dtype)
    if out.weak_type and out.shape == ():  # weak arrays (fnp.full(3, 2.0) * x) are arrays
        raise Unsupported("weak-typed result (a Python scalar)")
    shape, axes = x.aval.shape, red.params["axes"]
    if red.prim.name in ("reduce_max", "reduce_min") and math.prod(shape[a] for a in axes) == 0:
        raise Unsupported("max/min of an empty axis (NumPy raises)")
    kinds = _REDUCERS[red.prim.name][0]
    if not any(out.dtype.kind in k for k in kinds):
        raise Unsupported(f"{red.prim.name} of {out.dtype}")


def reduction_spec(eqns, red) -> KernelSpec:
    """A ReductionKernel: the prologue ``eqns`` (an ordered slice ending in the reduction's
    input, possibly empty) as the ``__device__`` function ``fg_map``, then ``red``."""
    check_reduction(red)
    inputs = external_inputs(list(eqns) + [red])
    in_names, in_params = _declare(inputs, "x")
    out = red.outvars[0]
    out_names, out_params = _declare([out], "y")
    acc = np.dtype(np.float32) if out.aval.dtype == F16 else out.aval.dtype  # half sums in float
    body = Body()
    for v, n in zip(inputs, in_names):
        body.bind_input(v, n)
    for e in eqns:
        body.equation(e)
    x = red.invars[0]
    body.lines.append(f"return {cast(body.expr[x], x.aval.dtype, acc)};")
    args = ", ".join(f"const {ctype(v.aval.dtype)} {n}" for v, n in zip(inputs, in_names))
    prologue = (f"__device__ __forceinline__ {reg_type(acc)} fg_map({args}) {{\n"
                + "".join(f"  {ln}\n" for ln in body.lines) + "}\n")
    kinds, _ = _REDUCERS[red.prim.name]
    reduce_expr = next(t for k, t in kinds.items() if acc.kind in k)
    identity = _identity(red, acc)
    post = f"{out_names[0]} = ({ctype(out.aval.dtype)})(a)"
    return KernelSpec("reduction", "", in_params, out_params, helpers_for(prologue, identity) + prologue,
                      map_expr=f"fg_map({', '.join(in_names)})", reduce_expr=f"({reduce_expr})",
                      post_map_expr=post, identity=identity, reduce_type=reg_type(acc),
                      inputs=tuple(inputs), outputs=(out,), eqns=tuple(eqns) + (red,),
                      shape=tuple(x.aval.shape), axes=tuple(red.params["axes"])).finish()


# ---------------------------------------------------------------------------------------
# planning a fusion group


@dataclasses.dataclass
class Part:
    """One piece of a compiled fusion group, in execution order: a kernel, or an equation
    that runs as an ordinary cupy call (``kind == "op"``)."""

    kind: str  # "kernel" | "op"
    spec: KernelSpec | None = None
    eqn: object = None


def _layers(members, ok):
    """Level of each member: expressible ones share a kernel per level; an inexpressible
    one at level L runs after kernel L, and what uses its result is at level L + 1."""
    lv: dict = {}  # value -> level at which it is available to expressible members
    level: dict = {}
    for e in members:
        lvl = max([lv[a] for a in e.invars if type(a) is not Literal and a in lv], default=0)
        level[id(e)] = lvl
        for v in e.outvars:
            lv[v] = lvl + (0 if ok[id(e)] else 1)
    return level


def _slice(eqns, targets, stop) -> list:
    """The equations of ``eqns`` needed for ``targets``, not looking past values in ``stop``."""
    producer = {v: e for e in eqns for v in e.outvars}
    need, seen = [], set()
    stack = [t for t in targets if t in producer and t not in stop]
    while stack:
        v = stack.pop()
        e = producer[v]
        if id(e) in seen:
            continue
        seen.add(id(e))
        need.append(e)
        stack.extend(a for a in e.invars if type(a) is not Literal and a in producer and a not in stop)
    order = {id(e): i for i, e in enumerate(eqns)}
    return sorted(need, key=lambda e: order[id(e)])


def plan_group(node, needed) -> list:
    """The `Part` list for fusion group ``node``; ``needed(v)`` says whether value ``v`` is
    used outside the group (program output or another step's input).  Should writing a
    kernel still fail, the whole group runs as ordinary calls (never a wrong kernel)."""
    try:
        return _plan_group(node, needed)
    except Unsupported:
        return [Part("op", eqn=e) for e in node.eqns]


def _plan_group(node, needed) -> list:
    members = list(node.members)
    red = node.reduction
    ok = {id(e): expressible(e) for e in members}
    red_ok = True
    if red is not None:
        try:
            check_reduction(red)
        except Unsupported:
            red_ok = False
    level = _layers(members, ok)
    users: dict = {}
    for e in node.eqns:
        for a in e.invars:
            if type(a) is not Literal:
                users.setdefault(a, []).append(e)
    produced = {v: e for e in members for v in e.outvars}

    def materialized(v) -> bool:
        """A kernel output: needed outside, by an op, by another level, or by a reduction
        that is not a kernel."""
        e = produced[v]
        if needed(v):
            return True
        for u in users.get(v, ()):
            if u is red:
                if not red_ok:
                    return True
            elif not ok[id(u)] or level[id(u)] != level[id(e)]:
                return True
        return False

    parts: list = []
    written: set = set()
    for lvl in sorted(set(level.values())):
        group = [e for e in members if ok[id(e)] and level[id(e)] == lvl]
        outs = [v for e in group for v in e.outvars if materialized(v)]
        if outs:
            parts.append(Part("kernel", elementwise_spec(_slice(group, outs, ()), outs, node.shape)))
            written.update(outs)
        parts += [Part("op", eqn=e) for e in members if not ok[id(e)] and level[id(e)] == lvl]
    if red is not None:
        if red_ok:
            expressed = [e for e in members if ok[id(e)]]
            stop = written | {v for e in members if not ok[id(e)] for v in e.outvars}
            parts.append(Part("kernel", reduction_spec(_slice(expressed, [red.invars[0]], stop), red)))
        else:
            parts.append(Part("op", eqn=red))
    return parts


def plan_program(prog, steps) -> list:
    """``[(node, parts)]`` for every kernel step of a partitioned program (nothing built)."""
    where: dict = {}
    for k, st in enumerate(steps):
        for e in st.eqns:
            for v in e.outvars:
                where[v] = k
    outside = {v for v in prog.outvars if type(v) is not Literal}
    for k, st in enumerate(steps):
        for e in st.eqns:
            for a in e.invars:
                if type(a) is not Literal and where.get(a, k) != k:
                    outside.add(a)
    return [(st, plan_group(st, outside.__contains__)) for st in steps if st.kind == "kernel"]


# ---------------------------------------------------------------------------------------
# building kernels (cached by source hash)

# No contraction of a*b+c into fma: each operation rounds like NumPy's (and like unfused
# cupy), so correctly rounded operations give bit-identical results; elementwise kernels are
# memory-bound, fma buys nothing there.
OPTIONS = ("--fmad=false",)
# built kernels by (source hash, array module), bounded (config ``cuda_kernel_cache_size``);
# executables hold their kernels themselves, so eviction never breaks a compiled program
_CACHE = LRU("cuda_kernel_cache_size")
_cache_lock = threading.Lock()
STATS = {"built": 0, "hits": 0}


def supports(xp) -> bool:
    """Whether ``xp`` (an array module) can run generated kernels."""
    return xp is not np and hasattr(xp, "ElementwiseKernel") and hasattr(xp, "ReductionKernel")


def build(spec: KernelSpec, xp):
    """The ``xp.ElementwiseKernel``/``xp.ReductionKernel`` for ``spec``: one per distinct
    source (and array module) per process."""
    key = (spec.key, id(xp))
    with _cache_lock:
        held = _CACHE.get(key)
        if held is not None:
            STATS["hits"] += 1
            return held.value
        if spec.kind == "elementwise":
            k = xp.ElementwiseKernel(spec.in_params, spec.out_params, spec.operation, spec.name,
                                     preamble=spec.preamble, options=OPTIONS)
        else:
            k = xp.ReductionKernel(spec.in_params, spec.out_params, spec.map_expr, spec.reduce_expr,
                                   spec.post_map_expr, spec.identity, spec.name,
                                   reduce_type=spec.reduce_type, preamble=spec.preamble, options=OPTIONS)
        _CACHE[key] = Box(k)
        STATS["built"] += 1
        return k


# ---------------------------------------------------------------------------------------
# the executor


class CudaGen(Gen):
    """`codegen.Gen` with kernel steps compiled to CUDA kernels (everything else, including
    the buffer lifetimes and the flat ``run`` function, is shared with the CPU path)."""

    def __init__(self, prog, steps, xp) -> None:
        super().__init__(prog, steps, xp, BLOCK, BLOCK_MIN, SCRATCH_MIN)
        self.specs: list = []

    def emit_kernel(self, node) -> None:
        self.kernel_modes.append("cuda")
        for part in plan_group(node, self.escaping.__contains__):
            if part.kind == "op":
                self.emit_direct(part.eqn)
            elif part.spec.kind == "elementwise":
                self.emit_elementwise(part.spec)
            else:
                self.emit_reduction(part.spec)

    def emit_elementwise(self, spec: KernelSpec) -> None:
        self.specs.append(spec)
        k = self.bind(build(spec, self.xp), "K")
        empty = self.bind(self.xp.empty, "u")
        outs = []
        for v in spec.outputs:
            o = self.define(v)
            self.lines.append(f"    {o} = {empty}({tuple(spec.shape)!r}, {self.bind(v.aval.dtype, 'd')})")
            outs.append(o)
        args = ", ".join([self.expr(a) for a in spec.inputs] + outs)
        self.lines.append(f"    {k}({args})")

    def emit_reduction(self, spec: KernelSpec) -> None:
        self.specs.append(spec)
        k = self.bind(build(spec, self.xp), "K")
        # Python scalars go in as NumPy scalars of their parameter's dtype (the form every
        # cupy version's ReductionKernel accepts)
        args = ", ".join(self.expr(a) if _is_array(a) else
                         f"{self.bind(a.aval.dtype.type, 't')}({self.expr(a)})" for a in spec.inputs)
        self.lines.append(f"    {self.define(spec.outputs[0])} = {k}({args}, axis={spec.axes!r})")


def _to_device(prog, xp) -> None:
    """Move NumPy constants of the (private, optimized) program to ``xp`` once, at compile
    time, so kernels and cupy calls receive device arrays."""
    for v, c in list(prog.consts.items()):
        if isinstance(c, (np.ndarray, np.generic)) and v.aval.dtype.kind in "biufc":
            prog.consts[v] = xp.asarray(c)


def generate(prog, steps, xp) -> Executable:
    """The executable for a partitioned program on the array module ``xp`` (cupy)."""
    _to_device(prog, xp)
    g = CudaGen(prog, steps, xp)
    src = g.generate()
    ns = dict(g.ns)
    ns.setdefault("np", np)  # parameters written with repr may hold NumPy ints (`np.int64(1)`)
    exec(compile(src, "<fgrad compiled (cuda)>", "exec"), ns)
    exe = Executable(ns["run"], src, prog, steps, g.kernel_modes, ns)
    exe.cuda_kernels = g.specs
    return exe


__all__ = ["supports", "generate", "plan_program", "plan_group", "build", "KernelSpec", "Part",
           "Unsupported", "expressible", "literal", "ctype", "HELPERS", "OPTIONS", "STATS"]
