"""Bounded memory: every per-signature cache is an LRU sized by `fgrad.config`, compiled
programs hold scratch under a global byte budget, and recycled results die with their
executable.  The 10,000-shape variants are marked slow (``python -m pytest -m slow
tests/test_bounded_memory.py``)."""

from __future__ import annotations

import gc
import math
import threading
import tracemalloc
import weakref

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad._config import LIMIT_DEFAULTS
from fgrad.compile import codegen
from fgrad.torch.autograd import graph as G
from fgrad.transforms import tape


@pytest.fixture(autouse=True)
def _host_default():
    """The bounds measured here are those of host memory (the NumPy code generator's scratch,
    recycled results, the tape's caches): arrays are created on the CPU whatever the
    configured default device."""
    with fgrad.default_device("cpu"):
        yield


@pytest.fixture
def limits():
    """``limits(name=value, ...)`` sets cache bounds for one test; all are restored after."""
    def set_(**kw):
        for k, v in kw.items():
            fgrad.config.update(k, v)

    yield set_
    for k in LIMIT_DEFAULTS:
        fgrad.config.update(k, None)


def _chain(x):
    return fnp.sin(x) * 2.0 + fnp.cos(x) * x


def _ref(x):
    return np.sin(x) * 2.0 + np.cos(x) * x


# ---------------------------------------------------------------------------------------
# the config options


def test_cache_bounds_are_config_options(limits):
    for name, default in LIMIT_DEFAULTS.items():
        assert fgrad.config.read(name) == default == getattr(fgrad.config, name)
    limits(jit_cache_size=7)
    assert fgrad.config.read("jit_cache_size") == 7
    fgrad.config.update("jit_cache_size", None)  # None restores the default
    assert fgrad.config.jit_cache_size == LIMIT_DEFAULTS["jit_cache_size"]


@pytest.mark.parametrize("value,err", [(0, ValueError), (-3, ValueError), (2.5, TypeError),
                                       ("10", TypeError), (True, TypeError)])
def test_bad_cache_bounds_are_rejected(value, err):
    with pytest.raises(err, match="jit_cache_size"):
        fgrad.config.update("jit_cache_size", value)
    assert fgrad.config.jit_cache_size == LIMIT_DEFAULTS["jit_cache_size"]


def test_unknown_option_names_the_options():
    with pytest.raises(KeyError, match="tape_cache_size"):
        fgrad.config.update("jit_cache_sise", 3)


# ---------------------------------------------------------------------------------------
# jit's signature cache


def test_jit_cache_is_lru_and_evicted_signatures_recompile(limits):
    limits(jit_cache_size=4)
    f = fgrad.jit(lambda x: _chain(x))  # a fresh function: a cache of its own
    xs = [np.linspace(0, 1, n) for n in range(1, 7)]
    for x in xs[:4]:
        f(fnp.asarray(x))
    assert f.stats["traces"] == 4 and len(f._cache) == 4
    f(fnp.asarray(xs[0]))  # size 1 is now the most recently used
    f(fnp.asarray(xs[4]))  # evicts size 2, the least recently used
    assert len(f._cache) == 4 and f.stats["traces"] == 5
    f(fnp.asarray(xs[0]))  # still cached
    assert f.stats["traces"] == 5
    out = f(fnp.asarray(xs[1]))  # evicted: traced again, and right
    assert f.stats["traces"] == 6 and len(f._cache) == 4
    np.testing.assert_allclose(np.asarray(out), _ref(xs[1]), rtol=1e-15)
    # the call-path index forgets evicted signatures too
    from fgrad.transforms.jit import _SHARED

    (caches,) = [c for fun, per in _SHARED.items() if f.__wrapped__ is fun for c in per.values()]
    assert len(caches[1]) <= 4 and all(e in caches[0].values() for e in caches[1].values())


def test_jit_cache_bound_applies_to_keyword_and_static_calls(limits):
    limits(jit_cache_size=3)
    f = fgrad.jit(lambda x, k: x * k, static_argnums=1)
    for k in range(10):
        np.testing.assert_allclose(np.asarray(f(fnp.ones(2), k)), np.full(2, float(k)))
    assert len(f._cache) == 3 and f.stats["traces"] == 10


def test_lowering_a_bound_trims_at_once(limits):
    f = fgrad.jit(lambda x: x + 1.0)
    for n in range(1, 11):
        f(fnp.ones(n))
    assert len(f._cache) == 10
    limits(jit_cache_size=3)
    assert len(f._cache) <= 3


def test_global_bound_over_all_jitted_functions(limits):
    limits(jit_total_cache_size=10)
    fs = [fgrad.jit(lambda x, i=i: x * i) for i in range(3)]
    for f in fs:
        for n in range(1, 9):
            f(fnp.ones(n))
    assert sum(len(f._cache) for f in fs) <= 10
    assert len(fs[2]._cache) >= 5  # the newest entries (the last function's) stay
    np.testing.assert_allclose(np.asarray(fs[0](fnp.ones(3))), np.zeros(3))


def test_derived_program_caches_are_bounded(limits):
    limits(jit_derived_cache_size=4)
    f = fgrad.jit(lambda x: fnp.sin(x) * x)
    g = fgrad.vmap(f)
    for b in range(1, 12):
        x = np.linspace(0, 1, 3 * b).reshape(b, 3)
        np.testing.assert_allclose(np.asarray(g(fnp.asarray(x))), np.sin(x) * x, rtol=1e-15)
    (entry,) = f._cache.values()
    assert len(entry.closed._batch) == 4


def _shapes(count):
    """``count`` distinct 1-, 2- and 3-d shapes of 3000 to 3600 elements (programs with
    scratch buffers of similar sizes), in a fixed shuffled order."""
    out = [(n,) for n in range(3000, 3601)]
    out += [(r, c) for r in range(2, 3601) for c in range(-(-3000 // r), 3600 // r + 1)]
    out += [(a, b, c) for a in range(2, 40) for b in range(2, 40)
            for c in range(-(-3000 // (a * b)), 3600 // (a * b) + 1)]
    assert len(out) >= count
    order = np.random.default_rng(0).permutation(len(out))[:count]
    return [out[i] for i in order]


def _traced_growth(f, shapes, warm):
    """tracemalloc growth (bytes) between call number ``warm`` and the last call."""
    tracemalloc.start()
    try:
        base = None
        for i, n in enumerate(shapes):
            f(fnp.ones(n))
            if i == warm:
                gc.collect()
                base = tracemalloc.get_traced_memory()[0]
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()


def test_200_shapes_keep_bounded_memory(limits):
    limits(jit_cache_size=16)
    f = fgrad.jit(lambda x: _chain(x))  # a fresh function: a cache of its own
    shapes = _shapes(200)  # scratch-using kernels (~50 KB per program)
    growth = _traced_growth(f, shapes, warm=50)
    assert len(f._cache) == 16
    # bounded: 0.14 MB; unbounded (jit_cache_size=100000): 150 programs, 9.3 MB (measured)
    assert growth < 4 << 20, growth
    x = np.linspace(-1, 1, math.prod(shapes[0])).reshape(shapes[0])  # evicted: recompiled
    np.testing.assert_allclose(np.asarray(f(fnp.asarray(x))), _ref(x), rtol=1e-15)


@pytest.mark.slow
def test_10000_shapes_keep_bounded_memory():
    f = fgrad.jit(lambda x: _chain(x))  # a fresh function: a cache of its own
    shapes = _shapes(10_000)
    growth = _traced_growth(f, shapes, warm=1000)
    assert len(f._cache) <= fgrad.config.jit_cache_size
    assert growth < 24 << 20, growth


def test_scratch_is_held_under_a_global_budget(limits):
    limits(jit_cache_size=1000, jit_total_cache_size=1000, jit_scratch_bytes=1 << 20)
    f = fgrad.jit(lambda x: _chain(x))  # a fresh function: a cache of its own
    gc.collect()
    before = codegen.scratch_bytes()
    for n in range(3000, 3100):  # ~50 KB of scratch each: 5 MB unbounded
        f(fnp.ones(n))
    assert len(f._cache) == 100
    assert codegen.scratch_bytes() - before <= (1 << 20) + (100 << 10)
    x = np.linspace(-1, 1, 3000)  # its scratch was freed: allocated again, right results
    np.testing.assert_allclose(np.asarray(f(fnp.asarray(x))), _ref(x), rtol=1e-15)


def test_scratch_is_freed_with_its_executable(limits):
    f = fgrad.jit(lambda x: _chain(x))  # a fresh function: a cache of its own
    f(fnp.ones(5000))
    held = codegen.scratch_bytes()
    assert held > 0
    del f
    gc.collect()
    assert codegen.scratch_bytes() < held


def test_recycled_results_are_released_with_their_executable():
    gc.collect()
    base = codegen.recycled_bytes()
    f = fgrad.jit(lambda x: fnp.sin(x) * 2.0 + x)
    f(fnp.ones(300_000))  # 2.4 MB result, dropped at once: held for reuse
    f(fnp.ones(300_000))
    assert codegen.recycled_bytes() > base
    del f
    gc.collect()
    assert codegen.recycled_bytes() == base


def _dies_under(lock, holder) -> bool:
    """Drop the last reference to ``holder``'s object while ``lock`` is held (what the garbage
    collector does when it frees a dead executable during an allocation under that lock), in a
    thread; True if that thread finished (a weakref callback taking the lock again hangs)."""
    def run():
        with lock:
            holder.clear()
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout=20)
    return not t.is_alive()


def test_a_site_freed_while_the_registry_is_locked_does_not_deadlock():
    """The full suite stalled at 0% CPU in test_fusion's recycling tests: a dead executable's
    recycle site was collected inside `RecycleSite.put` (which holds the registry lock), and
    its weakref callback took the same lock."""
    site = codegen.RecycleSite(8)
    site.put(np.zeros(1))
    base = codegen.recycled_bytes()
    holder = [site]
    del site
    assert _dies_under(codegen._sites_lock, holder)
    assert codegen.recycled_bytes() == base - 8  # forgotten at the next look


def test_a_pool_freed_while_the_registry_is_locked_does_not_deadlock():
    pool = codegen.ScratchPool([64], [])
    pool.alloc()
    before = codegen.scratch_bytes()
    holder = [pool]
    del pool
    assert _dies_under(codegen._pools_lock, holder)
    assert codegen.scratch_bytes() == before - 64


# ---------------------------------------------------------------------------------------
# the reverse-mode tape and the shim's backward programs


def test_tape_cache_is_bounded(limits):
    limits(tape_cache_size=8)
    g = fgrad.grad(lambda x: fnp.sum(fnp.sin(x) * x))
    for n in range(1, 40):
        x = np.linspace(0, 1, n)
        np.testing.assert_allclose(np.asarray(g(fnp.asarray(x))), np.cos(x) * x + np.sin(x),
                                   rtol=1e-14)
    assert len(tape._cache) <= 8


def test_tape_cache_keeps_recently_used_signatures(limits):
    limits(tape_cache_size=8)
    g = fgrad.grad(lambda x: fnp.sum(fnp.exp(x)))
    hot = fnp.ones(7)
    for n in range(20, 40):
        g(fnp.ones(n))
        g(hot)  # used between every new signature: never evicted
        hot_ops = [op for k, op in tape._cache.items() if (7,) in k]
        assert hot_ops, "the hot signature was evicted"


def test_shim_backward_programs_are_bounded(limits):
    limits(autograd_cache_size=8)
    for n in range(1, 40):
        x = torch.linspace(0, 1, n, dtype=torch.float64, requires_grad=True)
        (x.sin() * x).sum().backward()
        xn = np.linspace(0, 1, n)
        np.testing.assert_allclose(x.grad.numpy(), np.cos(xn) * xn + np.sin(xn), rtol=1e-14)
    assert len(G._PROGS) <= 8


def test_shim_program_cache_evicts_least_recently_used(limits):
    limits(autograd_cache_size=6)
    hot = torch.ones(5, dtype=torch.float64, requires_grad=True)
    for n in range(10, 30):
        torch.ones(n, dtype=torch.float64, requires_grad=True).exp().sum().backward()
        hot.exp().sum().backward()
        assert any(((5,), np.dtype("float64")) in k[1] for k in G._PROGS.keys())
    np.testing.assert_allclose(hot.grad.numpy(), 20 * np.e * np.ones(5))


def test_executables_are_freed_on_eviction(limits):
    limits(jit_cache_size=2)
    f = fgrad.jit(lambda x: x * 3.0)
    f(fnp.ones(1))
    (entry,) = f._cache.values()
    ref = weakref.ref(entry.closed)
    del entry
    f(fnp.ones(2))
    f(fnp.ones(3))
    gc.collect()
    assert ref() is None


def test_cuda_kernel_cache_is_bounded_and_lru(limits):
    from types import SimpleNamespace

    from fgrad.compile import cuda_codegen as cc

    limits(cuda_kernel_cache_size=4)
    built = []

    class StandInXp:  # records kernel constructions (no GPU needed)
        class ElementwiseKernel:
            def __init__(self, *args, **kw):
                built.append(args[3])

    xp = StandInXp()

    def spec(i):
        return SimpleNamespace(key=f"k{i}", kind="elementwise", in_params="float32 x",
                               out_params="float32 y", operation="y = x", name=f"fg_ew_{i}",
                               preamble="")

    hot = cc.build(spec(0), xp)
    for i in range(1, 12):
        cc.build(spec(i), xp)
        assert cc.build(spec(0), xp) is hot  # used between every new kernel: never evicted
    assert built.count("fg_ew_0") == 1 and len(built) == 12
    assert len(cc._CACHE) <= 4
    cc.build(spec(1), xp)  # evicted long ago: built again
    assert built.count("fg_ew_1") == 2
