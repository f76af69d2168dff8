"""`fgrad.test_util` is JAX's ``jax.test_util``: ``check_jvp(f, f_jvp, args, ...)`` and
``check_vjp(f, f_vjp, args, ...)`` take the derivative function to check (fgrad's took
``(f, args)`` and checked `fgrad.jvp` itself, so a JAX test calling them failed)."""

from __future__ import annotations

import functools
import inspect

import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import test_util

ARGS = (fnp.asarray([0.5, 1.0, -2.0]),)


def _wrong_jvp(primals, tangents):
    return fnp.sin(*primals), 2.0 * fnp.cos(*primals) * tangents[0]


def _wrong_vjp(*primals):
    return fnp.sin(*primals), lambda u: (2.0 * fnp.cos(*primals) * u,)


def test_signatures_are_jaxs():
    names = ["f", "f_jvp", "args", "atol", "rtol", "eps", "err_msg"]
    assert list(inspect.signature(test_util.check_jvp).parameters) == names
    assert list(inspect.signature(test_util.check_vjp).parameters) == ["f", "f_vjp", *names[2:]]
    jax_test_util = pytest.importorskip("jax.test_util")
    for name in ("check_jvp", "check_vjp"):
        assert (list(inspect.signature(getattr(test_util, name)).parameters)
                == list(inspect.signature(getattr(jax_test_util, name)).parameters))


def test_a_right_derivative_passes_a_wrong_one_fails():
    test_util.check_jvp(fnp.sin, functools.partial(fgrad.jvp, fnp.sin), ARGS)
    test_util.check_vjp(fnp.sin, functools.partial(fgrad.vjp, fnp.sin), ARGS)
    with pytest.raises(AssertionError):
        test_util.check_jvp(fnp.sin, _wrong_jvp, ARGS)
    with pytest.raises(AssertionError):
        test_util.check_vjp(fnp.sin, _wrong_vjp, ARGS)


def test_custom_vjp_function_checks_with_its_vjp_only():
    """As JAX's: ``check_vjp`` compares with finite differences, not with a ``jvp`` (which a
    ``custom_vjp`` function does not have)."""
    @fgrad.custom_vjp
    def f(x):
        return fnp.sin(x)

    f.defvjp(lambda x: (fnp.sin(x), x), lambda x, g: (fnp.cos(x) * g,))
    test_util.check_vjp(f, functools.partial(fgrad.vjp, f), ARGS)


def test_jax_agrees_on_what_fails():
    jax = pytest.importorskip("jax")
    from jax import test_util as jtu

    x64 = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        x = (jax.numpy.asarray([0.5, 1.0, -2.0]),)
        jtu.check_jvp(jax.numpy.sin, functools.partial(jax.jvp, jax.numpy.sin), x)
        with pytest.raises(AssertionError):
            jtu.check_jvp(jax.numpy.sin, lambda p, t: (jax.numpy.sin(*p), 2.0 * jax.numpy.cos(*p) * t[0]), x)
    finally:
        jax.config.update("jax_enable_x64", x64)
