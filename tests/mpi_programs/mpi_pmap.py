"""Run under ``mpiexec -n P``: ``fgrad.pmap`` over processes, as JAX's multi-process pmap.
Each process maps 2 slices of a global axis of ``2 * P``; every case of pmap_cases.py
(collectives, derivatives, jit and vmap inside, data-parallel training) must equal the same
function mapped over all ``2 * P`` slices on one process (fgrad's ``vmap(axis_name=)``), the
full-batch training run, and, when a .npz of live JAX results is given, JAX's one-process
pmap over ``2 * P`` devices (all cases when the test ran JAX live, a few stored ones
otherwise).  Then the device functions and the errors.  Each process
prints ``OK <rank>``.

Usage: mpiexec -n 2 python tests/mpi_programs/mpi_pmap.py [jax_results.npz]
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fgrad  # noqa: E402
import fgrad.distributed as dist  # noqa: E402
import fgrad.lax as lax  # noqa: E402
import fgrad.numpy as fnp  # noqa: E402
import pmap_cases as C  # noqa: E402

L = 2  # slices per process


def close(a, b, what, tol=1e-12):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    assert a.dtype.kind == b.dtype.kind, (what, a.dtype, b.dtype)
    assert np.allclose(a, b, rtol=tol, atol=tol), (what, a, b)


def one_process_map(f, axis_name=None, in_axes=0, out_axes=0):
    return fgrad.vmap(f, in_axes=in_axes, out_axes=out_axes, axis_name=axis_name)


def cases(r, p, jax_path):
    n = L * p
    lo, hi = r * L, r * L + L
    api = dict(pmap=fgrad.pmap, lax=lax, grad=fgrad.grad, jit=fgrad.jit, vmap=fgrad.vmap, np=fnp)
    got = C.run(api, lo, hi, n)
    got["outer_grad"] = C.outer_grad(api, lo, hi, n)
    ref_api = dict(api, pmap=one_process_map)
    ref = C.run(ref_api, 0, n, n)
    ref["outer_grad"] = C.outer_grad(ref_api, 0, n, n)
    for k in ref:
        close(got[k], ref[k][lo:hi], f"{k} (one-process reference)")
    if jax_path:
        theirs = np.load(jax_path)
        assert set(theirs) <= set(got), (sorted(theirs), sorted(got))  # all of them live, some stored
        for k in theirs:
            close(got[k], theirs[k][lo:hi], f"{k} (JAX)")
    w, losses = C.full_batch_training(n)
    close(got["train_w"][0], w, "data-parallel training = full-batch training")
    close(got["train_loss"][0], losses, "data-parallel losses = full-batch losses")


def device_functions(r, p):
    assert fgrad.process_index() == r and fgrad.process_count() == p
    local = fgrad.local_devices()
    assert fgrad.local_device_count() == len(local) and all(d.process_index == r for d in local)
    assert fgrad.device_count() == p * len(local)
    every = fgrad.devices("cpu")
    per = len(fgrad.local_devices(backend="cpu"))
    assert [d.process_index for d in every] == [q for q in range(p) for _ in range(per)], every
    here = fnp.zeros(1).device  # the default device: only this process's copy of it is ours
    assert sum(d == here for d in fgrad.devices()) == 1 and here in fgrad.local_devices()
    assert all(d.process_index == (r + 1) % p for d in fgrad.local_devices(process_index=(r + 1) % p))
    info = fgrad.print_environment_info(return_string=True)
    k = len(fgrad.local_devices())  # the default platform's (devices() lists those, as JAX)
    assert f"process_count: {p}" in info and f"({p * k} total, {k} local)" in info, info
    # axis_size / psum(1) inside pmap: the global size, also with pmap's axis_size argument
    f = fgrad.pmap(lambda: lax.psum(1, "i"), axis_name="i", axis_size=L)
    assert np.asarray(f()).tolist() == [L * p] * L


def errors(r, p):
    # a local size that differs between processes: every process raises, naming both sides
    mine = np.ones((L + (r == 0), 2))
    try:
        fgrad.pmap(lambda x: lax.psum(x, "i"), axis_name="i")(mine)
    except ValueError as e:
        assert "every process must map the same number of slices" in str(e), e
        assert f"process {r} maps {L + (r == 0)}" in str(e), e
    else:
        raise AssertionError("no error for different local sizes")
    # nested pmaps over processes
    try:
        fgrad.pmap(lambda x: fgrad.pmap(lambda y: lax.psum(y, "j"), axis_name="j")(x), axis_name="i")(
            np.ones((L, 1, 2)))
    except NotImplementedError as e:
        assert "nested pmaps over processes" in str(e), e
    else:
        raise AssertionError("no error for a nested pmap")
    # processes with different numbers of devices: initialize says so on every process
    from fgrad.testing import fake_device

    with fake_device.installed("fake", 1 + r, default=True):
        try:
            dist.initialize()
        except ValueError as e:
            assert "must have the same number of local devices" in str(e), e
            assert f"process {r} has {1 + r} and process " in str(e), e
        else:
            raise AssertionError("no error for processes with different device counts")
    dist.initialize()  # the same devices again: fine
    # without an axis name nothing crosses processes: any local size
    out = fgrad.pmap(lambda x: x * 2)(np.ones((1 + r, 2)))
    assert np.asarray(out).shape == (1 + r, 2)
    dist.barrier()  # the processes are still in step


def main():
    fgrad.config.update("pmap_any_size", True)  # 2 "devices" per process on the one CPU
    dist.initialize()
    r, p = dist.process_index(), dist.process_count()
    cases(r, p, sys.argv[1] if len(sys.argv) > 1 else None)
    device_functions(r, p)
    errors(r, p)
    print(f"OK {r}", flush=True)


if __name__ == "__main__":
    main()
