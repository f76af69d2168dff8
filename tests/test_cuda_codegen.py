"""CUDA kernels generated for jit on the cupy backend (fgrad/compile/cuda_codegen.py), without a GPU.

* the source text: one ElementwiseKernel per elementwise group, one ReductionKernel per group
  ending in a reduction with its prologue as a ``__device__`` function; concrete C types,
  explicit casts, typed literals, float vs double math functions, NumPy's loop dtypes;
  inexpressible equations fall back to ordinary calls (never a wrong kernel);
* kernels are cached by a hash of their source (one build per distinct source);
* the executor (`compile_executable` on an array module with kernel classes) wires the kernels,
  checked with a NumPy stand-in for cupy whose kernels evaluate the equations they compile;
* with ``nvcc``: every generated kernel compiles as device code, and its host twin (same
  preamble and body, sequential loop) runs on the CPU and matches NumPy — over hand-written
  programs with special values (NaN, inf, signed zeros, integer edge cases) and over the op
  table's rows;
* with cupy importable: the kernel objects construct (nothing is launched).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
from fgrad.ops.elementwise import pow_p
from fgrad.compile import compile_executable, cuda_codegen as cc, fusion, optimize
from fgrad.core.ir import Literal
from fgrad.testing import op_table as T

NVCC = shutil.which("nvcc")
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc not found")
RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _host_default():
    """Arrays are placed explicitly here: host inputs for the NumPy-based stand-ins of cupy,
    device inputs only through the ``backend`` fixture; creation without a device goes to
    the CPU whatever the configured default device."""
    with fgrad.default_device("cpu"):
        yield
F32, F64 = np.float32, np.float64


def A(x, dtype=None):
    return fnp.asarray(np.asarray(x, dtype=dtype))


def lowered(f, *args):
    """(optimized program, fusion steps, [(group, parts)], input buffers)."""
    low = fgrad.jit(f).lower(*args)
    prog = optimize(low.jaxpr, low.consts)
    steps = fusion.partition(prog)
    bufs = [a._buf if hasattr(a, "_buf") else a for a in args]
    return prog, steps, cc.plan_program(prog, steps), bufs


def specs_of(plan):
    return [p.spec for _, parts in plan for p in parts if p.kind == "kernel"]


def ops_of(plan):
    return [p.eqn for _, parts in plan for p in parts if p.kind == "op"]


def evaluate(prog, bufs):
    """Every value of the program, computed op by op with NumPy (the reference)."""
    env = dict(prog.consts)
    env.update(zip(prog.invars, bufs))
    with np.errstate(all="ignore"):
        for e in prog.eqns:
            vals = [a.val if type(a) is Literal else env[a] for a in e.invars]
            out = e.prim.impl(np, *vals, **e.params)
            for v, o in zip(e.outvars, out if e.prim.multiple_results else [out]):
                env[v] = o
    return env


# ---------------------------------------------------------------------------------------
# source text


def test_chain_with_sum_is_one_reduction_kernel_with_device_prologue():
    f = lambda x: fnp.sum(fnp.tanh(fnp.exp(-x * x) * 2.0 + 1.0) / (1.0 + x * x))
    prog, steps, plan, _ = lowered(f, A(RNG.normal(size=(5, 7)), F32))
    (node, parts), = plan
    assert [p.kind for p in parts] == ["kernel"]
    spec = parts[0].spec
    assert spec.kind == "reduction" and spec.axes == (0, 1)
    assert spec.in_params == "float32 x0" and spec.out_params == "float32 y0"
    assert spec.reduce_type == "float" and spec.reduce_expr == "(a + b)"
    assert spec.identity == "0.0f"
    assert spec.map_expr == "fg_map(x0)"
    assert "__device__ __forceinline__ float fg_map(const float x0) {" in spec.preamble
    # single-precision math, typed float literals, no double anywhere
    assert "expf(" in spec.preamble and "tanhf(" in spec.preamble
    assert "2.0f" in spec.preamble and "1.0f" in spec.preamble
    assert "double" not in spec.source and not re.search(r"\bexp\(", spec.source)
    # every equation of the group is in the prologue
    assert len(re.findall(r"const float v\d+ = ", spec.preamble)) == len(node.members)


def test_float64_uses_double_math_and_literals():
    f = lambda x: fnp.exp(x) * 0.5 + fnp.sin(x)
    _, _, plan, _ = lowered(f, A(RNG.normal(size=6)))
    (spec,) = specs_of(plan)
    assert spec.kind == "elementwise"
    assert spec.in_params == "float64 x0" and spec.out_params == "float64 y0"
    assert "exp(x0)" in spec.operation and "sin(x0)" in spec.operation
    assert "0.5" in spec.operation and "0.5f" not in spec.operation
    assert "expf" not in spec.operation


def test_weak_scalars_keep_float32_and_ints_follow_numpy():
    x32 = A(RNG.normal(size=4), F32)
    i32 = A(np.arange(4), np.int32)
    _, _, plan, _ = lowered(lambda x, i: (x * 3 + 1.5, i + 2, i * 2.5, x + i), x32, i32)
    got = sorted((s.in_params, s.out_params, s.operation) for s in specs_of(plan))
    assert got == sorted([
        # weak int and float literals in a float32 loop are float32 literals
        ("float32 x0", "float32 y0", "const float v0 = (float)(x0 * 3.0f);\n"
                                     "const float v1 = (float)(v0 + 1.5f);\ny0 = v1;"),
        # int32 + weak int stays int32 (the C int promotion is cast back)
        ("int32 x0", "int32 y0", "const int v0 = (int)(x0 + 2);\ny0 = v0;"),
        # int32 * weak float runs NumPy's float64 loop
        ("int32 x0", "float64 y0", "const double v0 = (double)((double)(x0) * 2.5);\ny0 = v0;"),
        # float32 + int32 -> float32 (JAX's lattice: the int32 is converted first)
        ("int32 x0, float32 x1", "float32 y0",
         "const float v0 = (float)(x0);\nconst float v1 = (float)(x1 + v0);\ny0 = v1;"),
    ])


def test_comparisons_select_and_casts():
    x = A(RNG.normal(size=(3, 4)), F32)
    f = lambda x: (fnp.where(x > 0, x, -np.inf), (x < 0.5).astype(np.int8), x.astype(np.int32) // 3,
                   fnp.astype(x, np.float16) * 2)
    _, _, plan, _ = lowered(f, x)
    src = "\n".join(s.source for s in specs_of(plan))
    assert "const bool v" in src and "(x0 > 0.0f)" in src
    assert "fg_f32(0xff800000u)" in src and "__device__ __forceinline__ float fg_f32" in src
    assert "(signed char)(" in src  # bool -> int8
    assert "fg_floordiv_i(" in src and "template <typename T> __device__" in src
    assert "(float)(float16)(x0)" in src  # float32 -> float16 rounds to half
    assert "= (float16)(" in src  # half results are stored through cupy's float16


def test_inexpressible_equation_falls_back_between_kernels():
    # complex values have no kernel type: the group is split around them
    f = lambda x: fnp.abs(fnp.exp(x * 1j)) + x * 2.0
    prog, _, plan, _ = lowered(f, A(RNG.normal(size=5)))
    kinds = [(p.kind, p.eqn.prim.name if p.kind == "op" else p.spec.kind) for _, parts in plan for p in parts]
    assert ("op", "exp") in kinds
    assert all(not any(v.aval.dtype.kind == "c" for v in s.inputs + s.outputs) for s in specs_of(plan))


def test_a_group_whose_kernel_cannot_be_written_runs_as_calls(monkeypatch):
    x = A(RNG.normal(size=(3, 4)), F32)
    node, _ = lowered(lambda x: fnp.sum(fnp.exp(x) * 2.0, axis=0), x)[2][0]

    def fail(*args, **kw):
        raise cc.Unsupported("test")

    monkeypatch.setattr(cc, "reduction_spec", fail)
    parts = cc.plan_group(node, lambda v: False)
    assert [p.kind for p in parts] == ["op"] * len(node.eqns)
    assert [p.eqn for p in parts] == node.eqns


def test_integer_power_needs_a_literal_nonnegative_exponent():
    i = A(np.arange(1, 5), np.int64)
    _, _, plan, _ = lowered(lambda i: pow_p.bind(i, 3), i)  # the pow primitive (x ** 3 is integer_pow)
    assert "fg_ipow_i(x0, 3LL)" in specs_of(plan)[0].operation  # signed: the helper handling y < 0
    _, _, plan, _ = lowered(lambda u: pow_p.bind(u, np.uint32(3)), A(np.arange(1, 5), np.uint32))
    assert "fg_ipow(x0, 3u)" in specs_of(plan)[0].operation  # unsigned: no negative exponents
    _, _, plan, _ = lowered(lambda i, j: i ** j, i, i)
    assert [e.prim.name for e in ops_of(plan)] == ["pow"] and not specs_of(plan)


def test_integer_pow_compiles_to_products_or_its_helper():
    """``x ** 5`` (JAX's integer_pow) is simplified into the products of XLA's lowering,
    ``x * ((x * x) * (x * x))``; a negative exponent keeps the primitive, whose kernel is the
    ``fg_integer_pow`` helper; float16 beyond squaring stays an ordinary call (NumPy rounds
    every product to float16)."""
    x = A(RNG.normal(size=8), F32)
    prog, _, plan, _ = lowered(lambda x: x ** 5, x)
    assert [e.prim.name for e in prog.eqns] == ["mul", "mul", "mul"] and not ops_of(plan)
    _, _, plan, _ = lowered(lambda x: x ** -3, x)
    assert "fg_integer_pow(x0, -3)" in specs_of(plan)[0].operation and not ops_of(plan)
    _, _, plan, _ = lowered(lambda x: lax.integer_pow(x, -3), A(RNG.normal(size=8), np.float16))
    assert [e.prim.name for e in ops_of(plan)] == ["integer_pow"]


def test_uint64_vs_int64_comparison_is_not_compiled():
    u, s = A(np.arange(3), np.uint64), A(np.arange(3), np.int64)
    _, _, plan, _ = lowered(lambda u, s: u < s, u, s)
    assert [e.prim.name for e in ops_of(plan)] == ["lt"]


def test_python_int_literal_wraps_before_it_reaches_the_kernel():
    """A Python int meeting a uint8 operand wraps into uint8 as in JAX (300 -> 44) before
    lowering, so the kernel compares with an in-range literal of the operand's type (before
    the wrapping, an out-of-range literal was kept off the GPU)."""
    _, _, plan, _ = lowered(lambda x: x < 300, A(np.arange(4), np.uint8))
    assert not ops_of(plan) and "((unsigned char)44)" in specs_of(plan)[0].operation


def test_escaping_values_and_reduction_share_one_group():
    # softmax numerator: exp(x - m) escapes and feeds the sum; the sum reads it back
    def f(x):
        e = fnp.exp(x - fnp.max(x, axis=-1, keepdims=True))
        return e / fnp.sum(e, axis=-1, keepdims=True)

    _, _, plan, _ = lowered(f, A(RNG.normal(size=(4, 6)), F32))
    kinds = [p.spec.kind for _, parts in plan for p in parts]
    assert kinds.count("reduction") == 2
    for _, parts in plan:
        assert len([p for p in parts if p.kind == "kernel" and p.spec.kind == "elementwise"]) <= 1
        assert len([p for p in parts if p.kind == "kernel" and p.spec.kind == "reduction"]) <= 1
        assert all(p.kind == "kernel" for p in parts)


def test_reduction_reads_values_its_group_already_wrote():
    # x * 2 leaves the group (it is returned): the sum reads it instead of recomputing it
    _, _, plan, _ = lowered(lambda x: (x * 2.0, fnp.sum(x * 2.0, axis=0)), A(RNG.normal(size=(3, 4)), F32))
    (node, parts), = plan
    ew, red = (p.spec for p in parts)
    assert (ew.kind, red.kind) == ("elementwise", "reduction")
    assert red.inputs == ew.outputs and red.eqns == (node.reduction,)
    assert "return x0;" in red.preamble


def test_reduction_accumulator_types_follow_numpy():
    cases = {
        "sum_i32": (lambda x: fnp.sum(x, axis=0), A(np.arange(6).reshape(2, 3), np.int32), "long long",
                    "0LL"),
        "sum_bool": (lambda x: fnp.sum(x > 0), A(RNG.normal(size=5)), "long long", "0LL"),
        "max_f32": (lambda x: fnp.max(x * 2, axis=1), A(RNG.normal(size=(2, 3)), F32), "float",
                    "fg_f32(0xff800000u)"),
        "min_i8": (lambda x: fnp.min(x + 1, axis=0), A(np.arange(6).reshape(3, 2), np.int8), "signed char",
                   "((signed char)127)"),
        "all": (lambda x: fnp.all(x > 0), A(RNG.normal(size=5)), "bool", "true"),
        "sum_f16": (lambda x: fnp.sum(x, axis=0), A(RNG.normal(size=(3, 2)), np.float16), "float", "0.0f"),
    }
    for name, (f, x, acc, ident) in cases.items():
        _, _, plan, _ = lowered(f, x)
        (spec,) = [s for s in specs_of(plan) if s.kind == "reduction"]
        assert (spec.reduce_type, spec.identity) == (acc, ident), name


def test_empty_max_is_not_a_kernel():
    from fgrad.ops.reductions import reduce_max

    # (fnp.max raises at trace time; the primitive itself must not become a kernel)
    _, _, plan, _ = lowered(lambda x: reduce_max(x * 2, (0,)), A(np.zeros((0, 3))))
    assert [e.prim.name for e in ops_of(plan)] == ["reduce_max"]


def test_literals():
    assert cc.literal(2.0, F32) == "2.0f" and cc.literal(0.1, F32) == "0.1f"
    assert cc.literal(-2.5, F64) == "(-2.5)" and cc.literal(1e-300, F64) == "1e-300"
    assert cc.literal(3, np.int64) == "3LL" and cc.literal(-3, np.int32) == "(-3)"
    assert cc.literal(-2**31, np.int32) == "(-2147483647 - 1)"
    assert cc.literal(-2**63, np.int64) == "(-9223372036854775807LL - 1)"
    assert cc.literal(7, np.uint32) == "7u" and cc.literal(7, np.uint64) == "7ull"
    assert cc.literal(5, np.int8) == "((signed char)5)" and cc.literal(True, np.bool_) == "true"
    assert cc.literal(math.nan, F32) == "fg_f32(0x7fc00000u)"
    assert cc.literal(math.inf, F64) == "fg_f64(0x7ff0000000000000ull)"
    h = cc.literal(0.1, np.float16)  # float16 is computed in float: the half value as a float literal
    assert h.endswith("f") and np.float32(h[:-1]) == np.float32(np.float16(0.1)) != np.float32(0.1)
    assert cc.literal(1e300, F32) == "fg_f32(0x7f800000u)"  # NumPy's conversion overflows too
    for bad in ((300, np.uint8), (-1, np.uint16), (1.5, np.int32), (1j, F64)):
        with pytest.raises(cc.Unsupported):
            cc.literal(*bad)


def test_every_template_names_only_known_helpers():
    from fgrad.core.primitive import PRIMITIVES

    for p in PRIMITIVES.values():
        tpls = p.kernel.values() if isinstance(p.kernel, dict) else [p.kernel] if p.kernel else []
        for t in tpls:
            for name in re.findall(r"\b(fg_\w+)\(", t):
                assert name in cc.HELPERS, (p.name, name)
            t.format("a", "b", "c", T="float", f="f", decimals=1, y=2)  # well-formed


# ---------------------------------------------------------------------------------------
# cache


class RecordingXp:
    """An array module stand-in that records kernel constructions."""

    def __init__(self):
        self.made = []
        outer = self

        class ElementwiseKernel:
            def __init__(self, *args, **kw):
                outer.made.append(("ew", args, kw))

        class ReductionKernel:
            def __init__(self, *args, **kw):
                outer.made.append(("red", args, kw))

        self.ElementwiseKernel, self.ReductionKernel = ElementwiseKernel, ReductionKernel


def test_kernels_are_built_once_per_distinct_source():
    xp = RecordingXp()
    f = lambda x: fnp.sum(fnp.exp(x) * 3.0, axis=1)
    g = lambda y: fnp.sum(fnp.exp(y) * 3.0, axis=0)  # the same kernel text (axes are a call argument)
    h = lambda x: fnp.sum(fnp.exp(x) * 4.0, axis=1)  # a different literal
    specs = [specs_of(lowered(fn, A(RNG.normal(size=(3, 4)), F32))[2])[0] for fn in (f, g, h)]
    assert specs[0].source == specs[1].source and specs[0].key == specs[1].key
    assert specs[0].key != specs[2].key and specs[0].name != specs[2].name
    assert specs[0].name in specs[0].source and specs[0].key in cc.hashlib.sha1(
        specs[0].source.encode()).hexdigest()
    k = [cc.build(s, xp) for s in specs]
    assert k[0] is k[1] and k[0] is not k[2]
    assert len(xp.made) == 2
    kind, args, kw = xp.made[0]
    assert kind == "red" and args[0] == specs[0].in_params and args[6] == specs[0].name
    assert kw == {"reduce_type": "float", "preamble": specs[0].preamble, "options": ("--fmad=false",)}


# ---------------------------------------------------------------------------------------
# the executor, with a NumPy stand-in for cupy


class FakeCupy:
    """NumPy under cupy's kernel API: a kernel evaluates (with NumPy) the equations of the
    spec it was built from, so the generated executor can run without a GPU."""

    def __init__(self):
        self.specs = {}
        self.calls = []
        fake = self

        class _Kernel:
            def __init__(self, *args, **kw):
                self.name = args[3] if len(args) == 4 else args[6]

            def evaluate(self, args):
                spec = fake.specs[self.name]
                fake.calls.append(spec.kind)
                for v, a in zip(spec.inputs, args):  # scalars of the declared dtype, arrays exact
                    assert isinstance(a, np.ndarray) == cc._is_array(v), (v.aval, type(a))
                    assert np.asarray(a).dtype == v.aval.dtype or type(a) in (bool, int, float)
                # a scalar parameter holds a weak (Python) scalar's value: evaluate it as one
                env = {v: a if isinstance(a, np.ndarray) else np.asarray(a).item()
                       for v, a in zip(spec.inputs, args)}
                with np.errstate(all="ignore"):
                    for e in spec.eqns:
                        vals = [a.val if type(a) is Literal else env[a] for a in e.invars]
                        env[e.outvars[0]] = e.prim.impl(np, *vals, **e.params)
                return spec, env

        class ElementwiseKernel(_Kernel):
            def __call__(self, *args):
                spec, env = self.evaluate(args[: len(spec_inputs(fake, self))])
                outs = args[len(spec.inputs):]
                assert len(outs) == len(spec.outputs)
                for o, v in zip(outs, spec.outputs):
                    assert o.dtype == v.aval.dtype and o.shape == spec.shape
                    np.copyto(o, env[v])

        class ReductionKernel(_Kernel):
            def __call__(self, *args, axis):
                spec, env = self.evaluate(args)
                assert axis == spec.axes
                return np.asarray(env[spec.outputs[0]])

        self.ElementwiseKernel, self.ReductionKernel = ElementwiseKernel, ReductionKernel

    def __getattr__(self, name):
        return getattr(np, name)


def spec_inputs(fake, kernel):
    return fake.specs[kernel.name].inputs


def run_fake(f, *args):
    low = fgrad.jit(f).lower(*args)
    xp = FakeCupy()
    exe = compile_executable(low.jaxpr, low.consts, xp=xp)
    xp.specs = {s.name: s for s in exe.cuda_kernels}
    bufs = [a._buf if hasattr(a, "_buf") else a for a in args]
    ref = compile_executable(low.jaxpr, low.consts).run(list(bufs))
    return exe, xp, exe.run(list(bufs)), ref


@pytest.mark.parametrize("case", ["chain_sum", "softmax", "mixed", "fallback", "matmul", "consts", "scalar"])
def test_executor_with_stand_in_kernels(case):
    x = A(RNG.normal(size=(4, 6)), F32)
    w = A(RNG.normal(size=(6, 3)), F32)
    c = np.linspace(0, 1, 6).astype(np.float32)
    fs = {
        "chain_sum": lambda x: fnp.sum(fnp.tanh(x * 2.0 + 1.0), axis=0),
        "softmax": lambda x: fgrad.nn.softmax(x, axis=-1),
        "mixed": lambda x: (x > 0, x.astype(np.int32) // 2, fnp.max(x, axis=1), x * 3),
        "fallback": lambda x: fnp.real(fnp.exp(x * 1j)) * 2.0 + x,
        "matmul": lambda x: fnp.tanh(x @ w + 1.0),
        "consts": lambda x: x * fnp.asarray(c) + 1.0,
        "scalar": lambda x, s: (fnp.sum(x * s, axis=1), x - s),
    }
    args = (x, 2.5) if case == "scalar" else (x,)
    exe, xp, got, want = run_fake(fs[case], *args)
    assert xp.calls, exe.source
    assert len(got) == len(want)
    for g, r in zip(got, want):
        g, r = np.asarray(g), np.asarray(r)
        assert g.dtype == r.dtype and g.shape == r.shape
        np.testing.assert_allclose(g, r, rtol=1e-6, atol=1e-6)
    assert exe.kernel_modes and set(exe.kernel_modes) == {"cuda"}


def test_unfused_cupy_program_still_compiles_kernels():
    low = fgrad.jit(lambda x: fnp.sum(fnp.exp(x) + 1.0)).lower(A(RNG.normal(size=5)))
    exe = compile_executable(low.jaxpr, low.consts, xp=FakeCupy(), fuse=False)
    assert [s.kind for s in exe.cuda_kernels] == ["elementwise", "elementwise", "reduction"]


# ---------------------------------------------------------------------------------------
# nvcc: compile every kernel as device code, run its host twin against NumPy

PRELUDE = r"""
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
// cupy's float16 (include/cupy/float16.cuh): implicit from float, explicit from the other
// C types, converts to float
class float16 {
  __half data_;
 public:
  __host__ __device__ float16() {}
  __host__ __device__ float16(float v) : data_(__float2half_rn(v)) {}
  explicit __host__ __device__ float16(bool v) : data_(__float2half_rn(float(v))) {}
  explicit __host__ __device__ float16(double v) : data_(__double2half(v)) {}
  explicit __host__ __device__ float16(int v) : data_(__int2half_rn(v)) {}
  explicit __host__ __device__ float16(unsigned int v) : data_(__uint2half_rn(v)) {}
  explicit __host__ __device__ float16(long long v) : data_(__ll2half_rn(v)) {}
  explicit __host__ __device__ float16(unsigned long long v) : data_(__ull2half_rn(v)) {}
  __host__ __device__ operator float() const { return __half2float(data_); }
};
"""


@dataclasses.dataclass
class Case:
    spec: cc.KernelSpec
    data: list  # flat input buffers (contiguous; reductions: reduced axes last)
    n: int  # elements (elementwise) or output elements (reduction)
    m: int  # reduced elements per output
    want: list  # expected outputs
    offsets: list = dataclasses.field(default_factory=list)  # of the outputs in the output file


def _aligned(nbytes: int) -> int:
    return -(-max(nbytes, 1) // 16) * 16


class Harness:
    """Collects kernel test cases, writes one .cu file with every kernel (device form, and
    host form called from ``main``), compiles it with nvcc, runs it on the CPU and returns
    the outputs."""

    def __init__(self):
        self.cases: list = []
        self.specs: dict = {}

    def add(self, spec, inputs, expected):
        """``inputs``: values for spec.inputs; ``expected``: values for spec.outputs."""
        shape = spec.shape
        keep = tuple(i for i in range(len(shape)) if i not in spec.axes)
        if spec.kind == "reduction":
            n, m = math.prod(shape[i] for i in keep), math.prod(shape[i] for i in spec.axes)
        else:
            n, m = math.prod(shape), 0
        if n == 0:
            return
        data = []
        for v, x in zip(spec.inputs, inputs):
            dt = v.aval.dtype
            if not cc._is_array(v):
                data.append(np.asarray(x, dt).reshape(1))
                continue
            x = np.asarray(x)
            assert x.dtype == dt, (spec.name, x.dtype, dt)  # the program's avals are NumPy's
            x = np.broadcast_to(x, shape)
            if spec.kind == "reduction":
                x = x.transpose(keep + spec.axes)
            data.append(np.ascontiguousarray(x).reshape(-1))
        out_shape = shape if spec.kind == "elementwise" else None
        want = [np.broadcast_to(np.asarray(e), out_shape or np.shape(e)) for e in expected]
        self.specs.setdefault(spec.key, spec)
        self.cases.append(Case(spec, data, n, m, want))

    def source(self):
        """(device .cu text, host .cu text, total input bytes); sets the cases' output offsets.

        The device file holds every kernel's `source` (compiled to PTX: it must be valid
        device code); the host file its host twin and a ``main`` that runs all cases."""
        ids = {k: i for i, k in enumerate(self.specs)}
        device = [PRELUDE] + [f"namespace d{ids[k]} {{\n{s.source}}}\n"
                              for k, s in self.specs.items()]
        host = [PRELUDE] + [f"namespace h{ids[k]} {{\n{s.render(host=True)}}}\n"
                            for k, s in self.specs.items()]
        calls, in_off, out_off = [], 0, 0
        for c in self.cases:
            args = []
            for v, x in zip(c.spec.inputs, c.data):
                t = cc.ctype(v.aval.dtype)
                ptr = f"(const {t}*)(in + {in_off})"
                args.append(ptr if cc._is_array(v) else f"*{ptr}")
                in_off += _aligned(x.nbytes)
            c.offsets = []
            for v, w in zip(c.spec.outputs, c.want):
                args.append(f"({cc.ctype(v.aval.dtype)}*)(out + {out_off})")
                c.offsets.append(out_off)
                out_off += _aligned(w.size * v.aval.dtype.itemsize)
            args += [f"{c.n}LL"] + ([f"{c.m}LL"] if c.spec.kind == "reduction" else [])
            calls.append(f"  h{ids[c.spec.key]}::{c.spec.name}_host({', '.join(args)});")
        main = (
            "int main(int argc, char** argv) {\n"
            f"  char* in = (char*)aligned_alloc(16, {_aligned(in_off)});\n"
            f"  char* out = (char*)aligned_alloc(16, {_aligned(out_off)});\n"
            f"  memset(out, 0, {_aligned(out_off)});\n"
            "  FILE* f = fopen(argv[1], \"rb\");\n"
            f"  if (fread(in, 1, {in_off}, f) != {in_off}) return 1;\n"
            "  fclose(f);\n" + "\n".join(calls) + "\n"
            "  f = fopen(argv[2], \"wb\");\n"
            f"  fwrite(out, 1, {out_off}, f);\n"
            "  fclose(f);\n  return 0;\n}\n"
        )
        return "".join(device), "".join(host) + main, in_off

    def run(self):
        """[(spec, got outputs, expected outputs)] for every case."""
        device, host, in_size = self.source()
        blob = bytearray(in_size)
        off = 0
        for c in self.cases:
            for x in c.data:
                blob[off: off + x.nbytes] = x.tobytes()
                off += _aligned(x.nbytes)
        with tempfile.TemporaryDirectory() as d:
            files = {name: os.path.join(d, f"{name}.cu") for name in ("device", "host")}
            for name, text in (("device", device), ("host", host)):
                with open(files[name], "w") as fh:
                    fh.write(text)
            exe = os.path.join(d, "k")
            common = [NVCC, "-arch=sm_80", "--fmad=false", "-w"]
            ptx = ["--ptx", "-Xcicc", "-O0", "-o", os.path.join(d, "k.ptx"), files["device"]]
            jobs = {  # in parallel: device code to PTX, the host twins to a program
                "device": subprocess.Popen(common + ptx, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True),
                "host": subprocess.Popen(common + ["-O0", "-Xptxas", "-O0", "-o", exe, files["host"]],
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
            }
            for name, job in jobs.items():
                _, err = job.communicate()
                assert job.returncode == 0, _compile_error(err, device if name == "device" else host)
            with open(os.path.join(d, "in.bin"), "wb") as fh:
                fh.write(bytes(blob))
            r = subprocess.run([exe, os.path.join(d, "in.bin"), os.path.join(d, "out.bin")],
                               capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
            with open(os.path.join(d, "out.bin"), "rb") as fh:
                out = fh.read()
        results = []
        for c in self.cases:
            got = [np.frombuffer(out, v.aval.dtype, count=w.size, offset=o).reshape(w.shape)
                   for v, w, o in zip(c.spec.outputs, c.want, c.offsets)]
            results.append((c.spec, got, c.want))
        return results


def _compile_error(stderr, src):
    lines = src.splitlines()
    shown = []
    for m in re.finditer(r"\.cu\((\d+)\)", stderr):
        ln = int(m.group(1))
        shown.append(f"{ln}: " + "\n".join(lines[max(0, ln - 8): ln + 2]))
        if len(shown) > 3:
            break
    return stderr[:4000] + "\n--- source near errors ---\n" + "\n\n".join(shown)


def tolerance(dt, reduction):
    """(rtol, atol) for values computed with transcendentals (CUDA's / glibc's vs NumPy's:
    a few ulp each) from inputs of order one; reductions also sum in another order."""
    dt = np.dtype(dt)
    if dt == np.float16:
        return 2e-3, 2e-3
    if dt == np.float32:
        return (1e-5, 1e-6) if reduction else (4e-6, 2e-6)
    return (1e-12, 1e-15) if reduction else (1e-14, 4e-15)


LOOSE_ZERO_SIGN = {"max", "min", "fmax", "fmin", "erf", "erfc"}
# correctly rounded (or exact) operations: kernels must match NumPy bit for bit (no fma)
EXACT_OPS = {"add", "sub", "mul", "div", "neg", "abs", "sign", "floor", "ceil", "trunc", "round", "sqrt",
             "max", "min", "fmax", "fmin", "select_n", "convert_element_type", "rem", "floor_divide",
             "remainder"}


def exact_values(spec) -> set:
    """Values of an elementwise kernel computed only by `EXACT_OPS` from its inputs."""
    if spec.kind != "elementwise":
        return set()
    exact = set(spec.inputs)
    for e in spec.eqns:
        if e.prim.name in EXACT_OPS and all(type(a) is Literal or a in exact for a in e.invars):
            exact.add(e.outvars[0])
    return exact


def check_results(results, label=""):
    bad = []
    for spec, got, want in results:
        exact = exact_values(spec)
        for v, g, w in zip(spec.outputs, got, want):
            w = np.asarray(w)
            assert g.dtype == w.dtype, (label, spec.name, g.dtype, w.dtype)
            if g.dtype.kind == "f":
                rtol, atol = (0, 0) if v in exact else tolerance(g.dtype, spec.kind == "reduction")
                scale = np.max(np.abs(w[np.isfinite(w)]), initial=0.0) if spec.kind == "reduction" else 0
                ok = (np.isnan(g) == np.isnan(w)) & (np.isclose(g, w, rtol=rtol, atol=atol + rtol * scale)
                                                      | (g == w) | np.isnan(w))
                # signed zeros matter for elementwise results (NumPy semantics), except where
                # NumPy itself is inconsistent (max/min ties: float16 returns the first operand,
                # float32/64 the second, fmax depends on the array length) and for erf, whose
                # fgrad impl returns +0.0 at -0.0 (erf is odd: CUDA, math.erf and JAX give -0.0)
                producer = {e.outvars[0]: e.prim.name for e in spec.eqns}
                if spec.kind == "elementwise" and producer.get(v) not in LOOSE_ZERO_SIGN:
                    ok &= ~((g == 0) & (w == 0) & (np.signbit(g) != np.signbit(w)))
            else:
                ok = g == w
            if not np.all(ok):
                i = np.argwhere(~np.asarray(ok))[0]
                bad.append(f"{label} {spec.name} {v.aval}: at {tuple(i)} got {g[tuple(i)]!r} want "
                           f"{np.asarray(w)[tuple(i)]!r}\n{spec.source}")
    assert not bad, "\n".join(b.splitlines()[0] for b in bad) + "\n\n" + "\n\n".join(bad[:3])


def add_program(h, f, *args):
    prog, steps, plan, bufs = lowered(f, *args)
    env = evaluate(prog, bufs)
    for spec in specs_of(plan):
        h.add(spec, [env[v] for v in spec.inputs], [env[v] for v in spec.outputs])
    return plan


def specials(dtype, n=24):
    """Values with NaN, infinities, signed zeros, ties and ordinary numbers."""
    base = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.0, -3.0, 1e-3, 7.25, -7.25]
    v = np.array(base + list(RNG.normal(size=n - len(base)) * 4), np.float64)
    return v.astype(dtype)


def int_specials(dtype, n=24):
    info = np.iinfo(dtype)
    base = [0, 1, -1, 2, -2, 3, -3, 7, -7, info.max, info.min, info.min + 1] if info.min < 0 else \
        [0, 1, 2, 3, 7, info.max, info.max - 1]
    rest = RNG.integers(max(info.min, -100), min(info.max, 100), size=n - len(base))
    return np.array(base + [int(r) for r in rest], dtype=dtype)  # exact (no float64 detour)


def _float_programs(dt):
    x, y = A(specials(dt)), A(RNG.permutation(specials(dt)))
    big = A(RNG.normal(size=256).astype(dt)), A(RNG.normal(size=256).astype(dt))
    nd = dt.__name__

    def unary(x):
        return (fnp.abs(x), fnp.sign(x), fnp.floor(x), fnp.ceil(x), fnp.trunc(x), fnp.rint(x), fnp.isnan(x),
                fnp.isinf(x), fnp.isfinite(x), fnp.signbit(x), ~(x > 0), fnp.round(x, 2))

    def math_(x):
        a = fnp.abs(x)
        return (fnp.exp(x), fnp.log(a), fnp.sqrt(a), fnp.tanh(x), fnp.sin(x), fnp.arctan(x), fnp.expm1(x),
                fnp.log1p(a), fnp.cbrt(x), fnp.exp2(x))

    def binary_math(x, y):
        return fnp.arctan2(x, y), fnp.hypot(x, y), fnp.logaddexp(x, y), fnp.power(fnp.abs(x), y)

    def cmp(x, y):
        return (x < y, x <= y, x == y, x != y, x > 0.5, fnp.where(x > y, x, -np.inf), fnp.logical_and(x, y),
                fnp.logical_xor(x, y))

    def nn(x):  # erf is given no -0.0: fgrad's impl returns +0.0 there (see LOOSE_ZERO_SIGN)
        return fgrad.nn.sigmoid(x), fgrad.nn.relu(x), lax.erf(x), lax.erfc(x)

    def casts(x):
        return (x.astype(np.float64), x.astype(np.float32), x.astype(np.float16), x.astype(bool),
                fnp.clip(x, -5, 5).astype(np.int32))

    def reduce(x):
        return (fnp.sum(x * 2, axis=1), fnp.max(x, axis=0), fnp.min(x, axis=1), fnp.prod(x, axis=0),
                fnp.any(x > 1, axis=1))

    def reduce_finite(x):
        return fnp.sum(fnp.exp(-x * x), axis=(0, 2)), fnp.max(x * 3, axis=(1,)), fnp.sum(x)

    return [
        (f"arith[{nd}]", lambda x, y: (x + y, x - y, x * y, x / y, -x, x * 2.5 - 1), (x, y)),
        (f"chain[{nd}]", lambda x, y: ((x * 2.5 - 1) * y + x / 3, fnp.sqrt(fnp.abs(x * y)) - y), big),
        (f"minmax[{nd}]", lambda x, y: (fnp.maximum(x, y), fnp.minimum(x, y), fnp.fmax(x, y), fnp.fmin(x, y)),
         (x, y)),
        (f"divmod[{nd}]", lambda x, y: (x // y, x % y, fnp.fmod(x, y)), (x, y)),
        (f"unary[{nd}]", unary, (x,)),
        (f"math[{nd}]", math_, (x,)),
        (f"binary_math[{nd}]", binary_math, (x, y)),
        (f"cmp[{nd}]", cmp, (x, y)),
        (f"nn[{nd}]", nn, (A(specials(dt)[5:]),)),
        (f"casts[{nd}]", casts, (x,)),
        (f"reduce[{nd}]", reduce, (A(specials(dt).reshape(4, 6)),)),
        (f"reduce_finite[{nd}]", reduce_finite, (A(RNG.normal(size=(3, 4, 5)).astype(dt)),)),
    ]


def _int_programs(dt):
    i, j = A(int_specials(dt)), A(RNG.permutation(int_specials(dt)))
    nd = dt.__name__

    def arith(i, j):
        return (i + j, i - j, i * j, i // j, i % j, fnp.fmod(i, j), -i, fnp.abs(i), fnp.sign(i), ~i, i & j,
                i | j, i ^ j, i / j, fnp.maximum(i, j), i < j, i == 3, i ** 3, i * 2 + 1)

    def casts(i):
        return i.astype(np.float32), i.astype(np.int8), i.astype(bool), i.astype(np.float16), i * 1.5

    def reduce(i):
        return fnp.sum(i, axis=0), fnp.prod(i, axis=1), fnp.max(i, axis=0), fnp.min(i)

    def shifts(i, s):
        return lax.shift_left(i, s), lax.shift_right_logical(i, s), lax.shift_right_arithmetic(i, s)

    out = [(f"int_arith[{nd}]", arith, (i, j)), (f"int_casts[{nd}]", casts, (i,)),
           (f"int_reduce[{nd}]", reduce, (A(int_specials(dt).reshape(4, 6)),))]
    if dt in (np.int32, np.uint32, np.int64):
        s = A(np.array([-1, 0, 1, 5, 31, 32, 63, 64, 3, 7, 2, 100] * 2), np.int32)
        out.append((f"shifts[{nd}]", shifts, (i, s)))
    return out


def _semantics_programs():
    """(label, function, args) covering NumPy semantics the kernels must reproduce."""
    out = [p for dt in (F32, F64, np.float16) for p in _float_programs(dt)]
    ints = (np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64)
    out += [p for dt in ints for p in _int_programs(dt)]

    def boolean(b, c):
        return (b + c, b * c, b & c, ~b, b ^ c, fnp.logical_not(b), b < c, fnp.maximum(b, c), fnp.sum(b),
                b.astype(np.float32) * 2, fnp.exp(b))

    b, c = A(RNG.random(12) < 0.5), A(RNG.random(12) < 0.5)
    x, y = A(RNG.normal(size=4), F32), A(RNG.normal(size=5), F32)
    out += [
        ("bool", boolean, (b, c)),
        ("weak_scalar", lambda x, s: (x * s + 1, x < s), (A(specials(F32)), 2.5)),
        ("broadcast", lambda x, y: fnp.tanh(x[:, None] * y[None, :] + 1.0), (x, y)),
    ]
    return out


@needs_nvcc
def test_nvcc_kernels_match_numpy_on_special_values():
    h = Harness()
    n_groups = 0
    for _, f, args in _semantics_programs():
        n_groups += len(add_program(h, f, *args))
    assert len(h.specs) > 100 and n_groups > 60
    check_results(h.run())


def _op_table_rows():
    rows = []
    for row in T.ROWS:
        if row.missing or row.make_args is not None:
            continue
        for dt in tuple(row.dtypes) + tuple(row.other_dtypes):
            rows.append((row, np.dtype(dt)))
    return rows


def _trace_row(row, dt):
    shapes = row.get_example_shapes()
    args = row.sample_args(np.random.default_rng(1), shapes, row.example_kwargs, dt)
    return args, functools.partial(row.call, kwargs=row.example_kwargs)


def _row_loss(fn):
    def loss(*a):
        leaves = fgrad.tree_util.tree_flatten(fn(a))[0]
        return sum(fnp.sum(x) for x in leaves if fnp.asarray(x).dtype.kind == "f")

    return loss


@functools.lru_cache(maxsize=1)
def op_table_plans():
    """[(label, program, plan, numpy inputs)] for the op table's rows (forward, and the
    gradient of the sum of the outputs for differentiable float rows) whose program has
    kernel groups."""
    out = []
    for row, dt in _op_table_rows():
        try:
            args, fn = _trace_row(row, dt)
            arrays = [A(a) for a in args]
            fns = {"": lambda *a: fn(a)}
            if dt.kind == "f" and row.grad == "yes" and row.diff_argnums(dt):
                fns["grad"] = fgrad.grad(_row_loss(fn), argnums=row.diff_argnums(dt))
            for kind, f in fns.items():
                prog, steps, plan, bufs = lowered(f, *arrays)
                if plan:
                    out.append((f"{kind}{row.name}[{dt}]", prog, plan, bufs))
        except Exception:  # noqa: BLE001 - rows that do not trace under jit are not ours to test
            continue
    return out


def test_op_table_elementwise_rows_compile_to_kernels():
    plans = op_table_plans()
    assert len(plans) > 700 and sum(label.startswith("grad") for label, *_ in plans) > 250
    fallbacks = {}
    for label, _, plan, _ in plans:
        for e in ops_of(plan):
            if not any(v.aval.dtype.kind == "c" for v in list(e.invars) + list(e.outvars)):
                fallbacks.setdefault(e.prim.name, []).append(label)
        for node, parts in plan:
            ew = [p for p in parts if p.kind == "kernel" and p.spec.kind == "elementwise"]
            red = [p for p in parts if p.kind == "kernel" and p.spec.kind == "reduction"]
            assert len(red) == (node.reduction is not None and all(p.kind == "kernel" for p in parts)) or \
                any(p.kind == "op" for p in parts), label
            if all(p.kind == "kernel" for p in parts):
                assert len(ew) <= 1, label
    # only complex values (no kernel type) stay ordinary calls
    assert not fallbacks, {k: v[:3] for k, v in fallbacks.items()}


@needs_nvcc
def test_nvcc_op_table_kernels_match_numpy():
    h = Harness()
    for _, prog, plan, bufs in op_table_plans():
        env = evaluate(prog, bufs)
        for spec in specs_of(plan):
            h.add(spec, [env[v] for v in spec.inputs], [env[v] for v in spec.outputs])
    assert len(h.specs) > 100
    check_results(h.run())


# ---------------------------------------------------------------------------------------
# cupy (importable without a GPU): the kernel objects construct


def test_cupy_kernel_objects_construct():
    cupy = pytest.importorskip("cupy")
    specs = [s for _, f, args in _semantics_programs()[:40] for s in specs_of(lowered(f, *args)[2])]
    assert any(s.kind == "reduction" for s in specs)
    for s in specs:
        k = cc.build(s, cupy)
        assert isinstance(k, cupy.ElementwiseKernel if s.kind == "elementwise" else cupy.ReductionKernel)
        assert k.name == s.name


def cupy_source(cupy, spec):
    """The CUDA source cupy itself generates for ``spec``'s kernel object (its CArray /
    CIndexer wrapper around our pieces), for 1-d contiguous arrays; built with cupy's
    internal code generators (None if those are not available in this cupy version)."""
    try:
        from cupy._core import _kernel, _reduction, _scalar
        from cupy._core._kernel import _ArgInfo, _TypeMap
    except ImportError:
        return None
    k = cc.build(spec, cupy)

    def arg(v):
        if cc._is_array(v):
            return _ArgInfo(1, cupy.ndarray, np.dtype(v.aval.dtype), 1, True, True)
        return _ArgInfo(3, _scalar.CScalar, np.dtype(v.aval.dtype), 0, True, True)

    index = _ArgInfo(2, object, None, 1, True, True)
    try:
        if spec.kind == "elementwise":
            infos = tuple(arg(v) for v in spec.inputs + spec.outputs) + (index,)
            return _kernel._get_elementwise_kernel_code(infos, _TypeMap(()), k.params, k.operation, k.name,
                                                         k.preamble)
        infos = tuple(arg(v) for v in spec.inputs + spec.outputs) + (
            index, index, _ArgInfo(3, _scalar.CScalar, np.dtype(np.int32), 0, True, True))
        return _reduction._ReductionKernel_get_cached_function_code(
            k.nin, k.nout, k._params, infos, _TypeMap((("IndexT", np.dtype(np.int32)),)), k.name, 256,
            k.reduce_type, k.identity, k.map_expr, k.reduce_expr, k.post_map_expr, k.preamble, k.options)
    except (AttributeError, TypeError):
        return None


@needs_nvcc
def test_cupy_generated_sources_compile_with_nvcc():
    """Our pieces inside cupy's own kernel wrappers (CArray, CIndexer, cupy's float16 and
    reduction templates) compile as device code."""
    cupy = pytest.importorskip("cupy")
    include = os.path.join(os.path.dirname(cupy.__file__), "_core", "include")
    specs = {}
    plans = [lowered(f, *args)[2] for _, f, args in _semantics_programs()]
    for plan in plans + [plan for _, _, plan, _ in op_table_plans()]:
        for s in specs_of(plan):
            specs.setdefault(s.key, s)
    parts = ["#include <cassert>\n#include <cupy/carray.cuh>\n#include <cupy/float16.cuh>\n"]
    for i, s in enumerate(specs.values()):
        code = cupy_source(cupy, s)
        if code is None:
            pytest.skip("cupy's internal code generators changed")
        assert s.operation in code or s.map_expr in code
        parts.append(f"namespace k{i} {{\n{code}\n}}\n#undef REDUCE\n#undef POST_MAP\n#undef _REDUCE\n")
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "cupy_kernels.cu")
        with open(cu, "w") as fh:
            fh.write("".join(parts))
        cccl = os.path.join(include, "cupy", "_cccl")
        r = subprocess.run([NVCC, "--ptx", "-Xcicc", "-O0", "-std=c++17", "-arch=sm_80", "-w",
                            f"-I{include}", f"-I{cccl}/libcudacxx", f"-I{cccl}/cub", f"-I{cccl}/thrust",
                            "-o", os.path.join(d, "k.ptx"), cu], capture_output=True, text=True)
        assert r.returncode == 0, _compile_error(r.stderr.replace("cupy_kernels.cu", "k.cu"), "".join(parts))
