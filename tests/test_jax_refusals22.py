"""Bad input gets JAX's error (round 22): calls the functional face answered differently from JAX 0.10.2.

* ``argmin``/``argmax`` (and the ``nan`` forms) of an empty complex array: JAX checks the size
  first (``ValueError``: "attempt to get argmin of an empty sequence"); fgrad refused the dtype
  (``TypeError``).  The size check is now fgrad's own (a trace-time shape check, also under jit).
* ``scipy.special.xlogy``/``xlog1py`` differentiated with a bool or integer operand (Python ints
  too): JAX's derivative takes the log of the unconverted operand and raises ``TypeError``;
  fgrad returned a value.  Without differentiation both compute.
* ``polyval``/``polyadd``/``polysub`` (``IndexError``) and ``polymul``/``polydiv``/``polyder``/
  ``polyint`` (``TypeError``) of a 0-d coefficient array: JAX refuses it; fgrad computed (NumPy's
  constant polynomial) or raised ``ValueError``.  ``roots``/``poly`` of a 0-d array compute in both.

``STORED`` holds JAX 0.10.2's answers (error type, or the result's shape); the live test runs
every call on JAX too.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests._peers import jax_faces


def _calls(jax, jnp, special) -> dict:
    """name -> a call of the face (fgrad or JAX) on fresh inputs."""
    empty_c, empty_c2 = jnp.zeros((0,), jnp.complex64), jnp.zeros((2, 0), jnp.complex64)
    calls = {}
    for fn in ("argmin", "argmax", "nanargmin", "nanargmax"):
        f = getattr(jnp, fn)
        calls[f"{fn}(complex (0,))"] = lambda f=f: f(empty_c)
        calls[f"{fn}(complex (2, 0), axis=1)"] = lambda f=f: f(empty_c2, axis=1)
        calls[f"{fn}(complex (2,))"] = lambda f=f: f(jnp.ones((2,), jnp.complex64))
        calls[f"{fn}(float (0,))"] = lambda f=f: f(jnp.zeros((0,), jnp.float32))
    calls["argmax(complex (0, 2), axis=1)"] = lambda: jnp.argmax(jnp.zeros((0, 2), jnp.complex64), axis=1)
    calls["jit(argmin)(float (0,))"] = lambda: jax.jit(jnp.argmin)(jnp.zeros((0,)))
    x = jnp.ones(3, jnp.float32)
    b, i = jnp.array([True, False, True]), jnp.array([1, 0, 2], jnp.int32)
    for fn in ("xlogy", "xlog1py"):
        f = getattr(special, fn)
        calls[f"{fn}(f32, bool)"] = lambda f=f: f(x, b)
        calls[f"jit({fn})(f32, bool)"] = lambda f=f: jax.jit(f)(x, b)
        calls[f"grad {fn}(x, bool)"] = lambda f=f: jax.grad(lambda x: f(x, b).sum())(x)
        calls[f"grad {fn}(x, int32)"] = lambda f=f: jax.grad(lambda x: f(x, i).sum())(x)
        calls[f"jvp {fn}(x, bool)"] = lambda f=f: jax.jvp(lambda x: f(x, b), (x,), (x,))[1]
        calls[f"grad {fn}(x, Python int)"] = lambda f=f: jax.grad(lambda x: f(x, 2).sum())(x)
        calls[f"grad {fn}(int32, y)"] = lambda f=f: jax.grad(lambda y: f(i, y).sum())(x)
        calls[f"grad {fn}(x, Python float)"] = lambda f=f: jax.grad(lambda x: f(x, 2.0).sum())(x)
    s, v = jnp.array(2.0), jnp.array([1.0, 2.0])
    for fn, args in (("polyval", (s, v)), ("polyval", (v, s)), ("polyadd", (s, v)), ("polyadd", (v, s)),
                     ("polysub", (s, v)), ("polymul", (s, v)), ("polymul", (v, s)), ("polydiv", (s, v)),
                     ("polydiv", (v, s)), ("polyder", (s,)), ("polyint", (s,)), ("roots", (s,)),
                     ("poly", (s,)), ("polyadd", (v, v))):
        calls[f"{fn}{tuple(a.ndim for a in args)}"] = lambda fn=fn, args=args: getattr(jnp, fn)(*args)
    calls["polyadd(Python float, 1-d)"] = lambda: jnp.polyadd(2.0, v)
    calls["jit(polyadd)(0-d, 1-d)"] = lambda: jax.jit(jnp.polyadd)(s, v)
    calls["grad polyval(0-d p)"] = lambda: jax.grad(lambda p: jnp.polyval(p, v).sum())(s)
    return calls


VE, TE, IE = ValueError, TypeError, IndexError
STORED: dict = {
    **{k: v for fn in ("argmin", "argmax", "nanargmin", "nanargmax") for k, v in {
        f"{fn}(complex (0,))": VE, f"{fn}(complex (2, 0), axis=1)": VE, f"{fn}(complex (2,))": TE,
        f"{fn}(float (0,))": VE}.items()},
    "argmax(complex (0, 2), axis=1)": TE,
    "jit(argmin)(float (0,))": VE,
    **{k: v for fn in ("xlogy", "xlog1py") for k, v in {
        f"{fn}(f32, bool)": (3,), f"jit({fn})(f32, bool)": (3,), f"grad {fn}(x, bool)": TE,
        f"grad {fn}(x, int32)": TE, f"jvp {fn}(x, bool)": TE, f"grad {fn}(x, Python int)": TE,
        f"grad {fn}(int32, y)": TE, f"grad {fn}(x, Python float)": (3,)}.items()},
    "polyval(0, 1)": IE, "polyval(1, 0)": (), "polyadd(0, 1)": IE, "polyadd(1, 0)": IE, "polysub(0, 1)": IE,
    "polymul(0, 1)": TE, "polymul(1, 0)": TE, "polydiv(0, 1)": TE, "polydiv(1, 0)": TE, "polyder(0,)": TE,
    "polyint(0,)": TE, "roots(0,)": (0,), "poly(0,)": (2,), "polyadd(1, 1)": (2,),
    "polyadd(Python float, 1-d)": IE, "jit(polyadd)(0-d, 1-d)": IE, "grad polyval(0-d p)": IE,
}


def _outcome(call):
    """The error type, or the result's shape."""
    try:
        r = call()
    except Exception as e:  # noqa: BLE001 - the outcome compared
        return type(e)
    return tuple(np.shape(r))


def _face_calls(face):
    name, module, numpy, _ = face
    special = __import__(f"{'jax' if name == 'jax' else 'fgrad'}.scipy.special", fromlist=["x"])
    return _calls(module, numpy, special)


def test_stored_cases_cover_every_call():
    assert set(STORED) == set(_face_calls(jax_faces()[0]))


@pytest.mark.parametrize("face", jax_faces(), ids=lambda f: f[0])
def test_each_face_answers_as_jax_0_10_2(face):
    """fgrad (always) and the installed JAX (where present) give JAX 0.10.2's answers."""
    calls = _face_calls(face)
    wrong = {n: (got, STORED[n]) for n in STORED if (got := _outcome(calls[n])) != STORED[n]}
    assert not wrong, wrong


def test_errors_name_the_op_and_the_fix():
    import fgrad
    import fgrad.numpy as fnp
    import fgrad.scipy.special as sp

    with pytest.raises(TypeError, match=r"xlog1py: cannot differentiate with y of dtype bool.*astype"):
        fgrad.grad(lambda x: sp.xlog1py(x, fnp.array([True, False])).sum())(fnp.ones(2, fnp.float32))
    with pytest.raises(IndexError, match=r"polyadd: a1 must have at least one dimension.*atleast_1d"):
        fnp.polyadd(fnp.array(2.0), fnp.array([1.0]))
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        fnp.argmax(fnp.zeros((2, 0), fnp.complex64), axis=1)


def test_floating_operands_still_differentiate():
    """xlogy's derivative in x is log(y), in y x / y (analytic), with the refusal in place."""
    import fgrad
    import fgrad.numpy as fnp
    import fgrad.scipy.special as sp

    x, y = fnp.array([0.5, 2.0]), fnp.array([3.0, 0.25])
    gx, gy = fgrad.grad(lambda x, y: sp.xlogy(x, y).sum(), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(np.asarray(gx), np.log([3.0, 0.25]), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gy), [0.5 / 3.0, 2.0 / 0.25], rtol=1e-12)
    g1 = fgrad.grad(lambda x: sp.xlog1py(x, y).sum())(x)
    np.testing.assert_allclose(np.asarray(g1), np.log1p([3.0, 0.25]), rtol=1e-12)
