"""User-defined primitives through ``jax.extend.core`` and ``jax.interpreters`` (`fgrad.extend`,
`fgrad.interpreters`): JAX's primitives tutorial prints JAX's output (stored; live when JAX is
installed), and the adapters' conventions (symbolic zeros, unbatched operands) hold."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.extend import core
from fgrad.interpreters import ad, batching

HERE = pathlib.Path(__file__).parent
PROGRAM = HERE / "extend_programs" / "custom_primitive.py"
STORED = (HERE / "stored" / "custom_primitive_jax.out").read_text()


def _run(face: str) -> str:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "FGRAD_BACKEND": "cpu"}  # printed as on the CPU
    res = subprocess.run([sys.executable, str(PROGRAM), face], capture_output=True, text=True, timeout=300,
                         cwd=HERE.parent, env=env)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_tutorial_program_prints_jaxs_output():
    assert _run("fgrad") == STORED


def test_tutorial_program_stored_output_is_jaxs():
    pytest.importorskip("jax")
    assert _run("jax") == STORED


def _unary(name, impl, jvp=None):
    p = core.Primitive(name)
    p.def_impl(impl)
    p.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    if jvp is not None:
        ad.defjvp(p, jvp)
    return p


def test_eager_bind_returns_the_implementations_value():
    p = _unary("t_eager", lambda x: np.float64(3.0) * x)
    assert type(p.bind(np.float64(2.0))) is np.float64  # as JAX: no wrapping outside transforms


def test_defjvp_grad_jvp_vmap_jit_agree_with_analytic():
    cube = _unary("t_cube", lambda x: np.power(x, 3), lambda g, x: g * 3 * x ** 2)
    batching.defvectorized(cube)
    x = np.array([0.5, -1.5, 2.0])
    np.testing.assert_allclose(fgrad.grad(lambda v: cube.bind(v).sum())(x), 3 * x ** 2)
    np.testing.assert_allclose(fgrad.jit(fgrad.vmap(fgrad.grad(cube.bind)))(x), 3 * x ** 2)
    _, t = fgrad.jvp(cube.bind, (x,), (np.ones(3),))
    np.testing.assert_allclose(t, 3 * x ** 2)
    fgrad.test_util.check_grads(lambda v: cube.bind(v).sum(), (x,), order=1, modes=("fwd", "rev"))


def test_symbolic_zeros_reach_the_rules_as_Zero():
    seen = []
    p = core.Primitive("t_zero_seen")
    p.def_impl(lambda x, y: np.multiply(x, y))
    p.def_abstract_eval(lambda x, y: core.ShapedArray(x.shape, x.dtype))

    def rule(primals, tangents):
        seen.append(tuple(type(t) is ad.Zero for t in tangents))
        x, y = primals
        tx, ty = (ad.instantiate_zeros(t) for t in tangents)
        return p.bind(x, y), tx * y + x * ty

    ad.primitive_jvps[p] = rule
    out, t = fgrad.jvp(lambda a: p.bind(a, 3.0), (2.0,), (1.0,))
    assert seen[-1] == (False, True) and float(t) == 3.0


def test_missing_rules_raise_clear_errors():
    p = core.Primitive("t_no_rules")
    with pytest.raises(NotImplementedError, match="Evaluation rule for 't_no_rules'"):
        p.bind(fnp.ones(2))
    p.def_impl(lambda x: x)
    with pytest.raises(NotImplementedError, match="Abstract evaluation for 't_no_rules'"):
        fgrad.jit(p.bind)(fnp.ones(2))
    p.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    with pytest.raises(NotImplementedError, match="t_no_rules"):
        fgrad.grad(lambda v: p.bind(v).sum())(fnp.ones(2))


def test_jax_core_names():
    assert fgrad.core.ShapedArray is fgrad.ShapedArray and fgrad.core.Tracer is fgrad.Tracer
    seen = []
    fgrad.jit(lambda x: seen.append(isinstance(x, fgrad.core.Tracer)) or x)(1.0)
    assert seen == [True]
    cj = fgrad.make_jaxpr(lambda x: x * 2.0)(1.0)
    assert float(core.jaxpr_as_fun(cj)(3.0)[0]) == 6.0
    assert float(fgrad.core.eval_jaxpr(cj.jaxpr, cj.consts, 4.0)[0]) == 8.0  # JAX's (jaxpr, consts, *args)
