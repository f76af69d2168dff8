"""GPU benchmarks: fgrad on CuPy beside unfused CuPy, JAX on the GPU and PyTorch CUDA, one process.

    python -m benchmarks.gpu                  # on a machine with an NVIDIA GPU
    python -m benchmarks.gpu --device cpu     # the same cases on the CPU (a smoke run)
    python -m benchmarks.gpu --json out.json  # also write every number

Cases (each checked against its peer's numbers before it is timed):

* ``chain``: a 10-op elementwise chain over 10M float32.  ``fgrad.jit`` fuses it into one
  generated kernel; beside it the same chain as unfused CuPy calls, ``jax.jit`` on the GPU,
  and a device-to-device copy of a 1 GiB buffer (the device's usable memory bandwidth).  The
  fused kernel's effective bandwidth is the bytes it must move (one read, one write) over its
  kernel time.
* ``jit_mlp``: a jitted SGD train step of a ReLU MLP (fgrad.jit vs jax.jit), two sizes.
* ``shim_mlp`` / ``shim_cnn`` / ``shim_gpt``: the same PyTorch training-step code run with
  ``torch`` on CUDA and with ``fgrad.torch`` on ``cuda``.

Timing: warm-up calls (compilation excluded), then the median over repeats of a block of calls
followed by a device synchronisation (so host overhead that leaves the GPU idle is counted,
as a user sees it).  The chain also reports kernel-only time (CUDA events around one call).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import numpy as np  # noqa: E402
from benchmarks.shim_models import gpt as _gpt_model  # noqa: E402

N_CHAIN = 10_000_000


# ----------------------------------------------------------------------------- timing

def _sync_all() -> None:
    for sync in _SYNCS:
        sync()


_SYNCS: list = []


def _setup_syncs(device: str) -> None:
    if device != "cuda":
        return
    import cupy

    _SYNCS.append(lambda: cupy.cuda.Device().synchronize())
    try:
        import torch

        if torch.cuda.is_available():
            _SYNCS.append(torch.cuda.synchronize)
    except ImportError:
        pass


def timeit(fn, *, warmup: int = 3, min_time: float = 0.05, repeat: int = 7) -> float:
    """Median seconds per call of ``fn`` (blocks of calls, each ended by a device sync)."""
    for _ in range(warmup):
        out = fn()
    _block_until_ready(out)
    _sync_all()
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            out = fn()
        _block_until_ready(out)
        _sync_all()
        dt = time.perf_counter() - t0
        if dt >= min_time or number >= 1 << 16:
            break
        number *= 2
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            out = fn()
        _block_until_ready(out)
        _sync_all()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def _block_until_ready(out) -> None:
    if hasattr(out, "block_until_ready"):
        out.block_until_ready()


def kernel_time(fn, repeat: int = 50) -> float:
    """Median GPU time of one call between CUDA events (cupy's stream)."""
    import cupy

    for _ in range(3):
        fn()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(repeat):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) / 1e3)
    return statistics.median(times)


def rel_err(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


# ----------------------------------------------------------------------------- peers

def _torch(device: str):
    try:
        import torch
    except ImportError:
        return None
    if device == "cuda" and not torch.cuda.is_available():
        return None
    torch.backends.cuda.matmul.allow_tf32 = False  # plain float32, as cuBLAS under cupy
    torch.backends.cudnn.allow_tf32 = False
    return torch


def _jax(device: str):
    """(jax, device), or a string saying why JAX is not usable here."""
    try:
        import jax
    except ImportError as e:
        return f"jax not installed ({e})"
    errors = []
    for want in (("cuda", "gpu") if device == "cuda" else ("cpu",)):
        try:
            return jax, jax.devices(want)[0]
        except RuntimeError as e:
            errors.append(f"{want}: {e}")
    return "; ".join(errors)


# ----------------------------------------------------------------------------- cases

def chain(m, x):
    """Ten elementwise ops, written once for fgrad.numpy, cupy and jax.numpy."""
    y = m.sin(x) * 1.5 + m.cos(x) ** 2
    y = m.tanh(y) * m.exp(-x * x) + 0.5 * x
    return m.where(y > 0, y, 0.1 * y)


def light_chain(m, x):
    """Five cheap ops: memory-bound on any GPU (the heavy chain's sin/cos/tanh/exp make it
    compute-bound on an H200, where 8 bytes per element leave time for ~60 instructions)."""
    return m.maximum(x * 1.5 + 0.5, 0.0) * x - 0.25 * x


# The same chains written by hand as one CUDA kernel each: the best one kernel can do.
HAND_WRITTEN = {
    "chain": "float v = tanhf(sinf(x) * 1.5f + cosf(x) * cosf(x)) * expf(-x * x) + 0.5f * x;\n"
             "y = v > 0.0f ? v : 0.1f * v;",
    "light": "y = fmaxf(x * 1.5f + 0.5f, 0.0f) * x - 0.25f * x;",
}
CHAINS = {"chain": chain, "light": light_chain}


def case_chain(device: str, rows: list, n: int, kind: str = "chain") -> None:
    import fgrad
    import fgrad.numpy as fnp

    fn = CHAINS[kind]
    label = f"{kind} {n // 1_000_000}M f32"
    x_host = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    ref = fn(np, x_host.astype(np.float64))
    nbytes = 2 * x_host.nbytes  # one read, one write
    x = fgrad.device_put(x_host, device)
    fused = fgrad.jit(lambda v: fn(fnp, v))
    out = fused(x)
    assert out.device == x.device, (out.device, x.device)
    err = rel_err(np.asarray(out), ref)
    assert err < 1e-5, f"fused chain differs from float64 NumPy: {err}"
    t_fused = timeit(lambda: fused(x))
    rows.append(dict(case=label, impl="fgrad.jit (fused)", seconds=t_fused, err=err,
                     gbps=nbytes / t_fused / 1e9))
    if device == "cuda":
        import cupy

        xc = cupy.asarray(x_host)
        err_c = rel_err(fn(cupy, xc).get(), ref)
        t_cupy = timeit(lambda: fn(cupy, xc))
        rows.append(dict(case=label, impl="cupy (unfused)", seconds=t_cupy, err=err_c,
                         fused_speedup=t_cupy / t_fused))
        hand = cupy.ElementwiseKernel("float32 x", "float32 y", HAND_WRITTEN[kind], f"hand_{kind}")
        err_h = rel_err(hand(xc).get(), ref)
        t_hand = kernel_time(lambda: hand(xc))
        rows.append(dict(case=label, impl="hand-written kernel", seconds=t_hand, err=err_h,
                         gbps=nbytes / t_hand / 1e9, fgrad_over_hand=t_fused / t_hand))
        big = cupy.empty(1 << 28, dtype=cupy.float32)
        dst = cupy.empty_like(big)
        tcopy = kernel_time(lambda: dst.__setitem__(Ellipsis, big), repeat=20)
        bw = 2 * big.nbytes / tcopy
        rows.append(dict(case=label, impl="device copy 1 GiB", seconds=tcopy, gbps=bw / 1e9,
                         fused_fraction_of_bandwidth=(nbytes / t_fused) / bw))
        del big, dst
    jx = _jax(device)
    if isinstance(jx, str):
        rows.append(dict(case=label, impl="jax.jit", error=jx))
        return
    jax, dev = jx
    import jax.numpy as jnp

    xj = jax.device_put(x_host, dev)
    jf = jax.jit(lambda v: fn(jnp, v))
    err_j = rel_err(np.asarray(jf(xj)), ref)
    t_jax = timeit(lambda: jf(xj))
    rows.append(dict(case=label, impl="jax.jit", seconds=t_jax, err=err_j,
                     fgrad_over_jax=t_fused / t_jax))


def mlp_case(device: str, rows: list, sizes: tuple, batch: int) -> None:
    import fgrad
    import fgrad.numpy as fnp

    from .cases import _models as M

    old = M.SIZES, M.BATCH
    M.SIZES, M.BATCH = sizes, batch
    try:
        params, x, y, onehot = M.mlp_data()
    finally:
        M.SIZES, M.BATCH = old
    label = f"jit MLP step {'-'.join(map(str, sizes))} b{batch}"
    put = lambda t: fgrad.device_put(t, device)  # noqa: E731
    fparams = [(put(W), put(b)) for W, b in params]
    fx, fo = put(x), put(onehot)
    fstep = M.functional_step(fnp, fgrad.value_and_grad, fgrad.jit)
    state = [fparams]

    def run_f():
        state[0], loss = fstep(state[0], fx, fo)
        return loss

    loss_f = float(np.asarray(fstep(fparams, fx, fo)[1]))
    t_f = timeit(run_f)
    rows.append(dict(case=label, impl="fgrad.jit", seconds=t_f, loss=loss_f))
    torch = _torch(device)
    if torch is not None:
        nn = torch.nn
        layers = []
        for i, (W, b) in enumerate(params):
            lin = nn.Linear(*W.shape)
            with torch.no_grad():
                lin.weight.copy_(torch.from_numpy(np.ascontiguousarray(W.T)))
                lin.bias.copy_(torch.from_numpy(b))
            layers += [lin] + ([nn.ReLU()] if i < len(params) - 1 else [])
        model = nn.Sequential(*layers).to(device)
        opt = torch.optim.SGD(model.parameters(), lr=M.LR)
        tx, ty = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)

        def run_t():
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(tx), ty)
            loss.backward()
            opt.step()
            return loss

        loss_t = float(run_t().item())
        t_t = timeit(run_t)
        rows.append(dict(case=label, impl="torch (eager)", seconds=t_t, loss=loss_t,
                         fgrad_over_torch=t_f / t_t, loss_rel_diff=abs(loss_f - loss_t) / abs(loss_t)))
    jx = _jax(device)
    if not isinstance(jx, str):
        jax, dev = jx
        import jax.numpy as jnp

        jp = jax.device_put(params, dev)
        jxx, jo = jax.device_put(x, dev), jax.device_put(onehot, dev)
        jstep = M.functional_step(jnp, jax.value_and_grad, jax.jit)
        loss_j = float(jstep(jp, jxx, jo)[1])
        jstate = [jp]

        def run_j():
            jstate[0], loss = jstep(jstate[0], jxx, jo)
            return loss

        t_j = timeit(run_j)
        rows.append(dict(case=label, impl="jax.jit", seconds=t_j, loss=loss_j,
                         loss_rel_diff=abs(loss_f - loss_j) / abs(loss_j)))


# -- the shim's cases: one PyTorch program, two libraries ----------------------------------

def _cnn(t):
    nn = t.nn
    return nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(64 * 8 * 8, 10))


def _mlp(t):
    nn = t.nn
    return nn.Sequential(nn.Linear(1024, 2048), nn.ReLU(), nn.Linear(2048, 2048), nn.ReLU(),
                         nn.Linear(2048, 10))


def _gpt(t, d=256, heads=4, seq=128, vocab=512):
    return _gpt_model(t, d=d, heads=heads, seq=seq, vocab=vocab)


def _shim_inputs(name: str):
    rng = np.random.default_rng(1)
    if name == "cnn":
        return rng.standard_normal((128, 3, 32, 32)).astype(np.float32), rng.integers(0, 10, 128)
    if name == "mlp":
        return rng.standard_normal((512, 1024)).astype(np.float32), rng.integers(0, 10, 512)
    idx = rng.integers(0, 512, (16, 128))
    return idx, rng.integers(0, 512, (16, 128))


def _train_step(t, model, x, y):
    opt = t.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    F = t.nn.functional

    def step():
        opt.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))
        loss.backward()
        opt.step()
        return loss

    return step


def shim_case(device: str, rows: list, name: str) -> None:
    import fgrad.torch as ft

    build = {"cnn": _cnn, "mlp": _mlp, "gpt": _gpt}[name]
    torch = _torch(device)
    label = f"shim {name.upper()} train step"
    xh, yh = _shim_inputs(name)
    fm = build(ft)
    if torch is not None:
        torch.manual_seed(0)
        tm = build(torch)
        state = {k: ft.from_numpy(v.detach().numpy().copy()) for k, v in tm.state_dict().items()}
        fm.load_state_dict(state)
        tm = tm.to(device)
    fm = fm.to(device)
    fx, fy = ft.from_numpy(xh).to(device), ft.from_numpy(yh).to(device)
    fstep = _train_step(ft, fm, fx, fy)
    losses_f = [float(fstep().item()) for _ in range(3)]
    t_f = timeit(fstep, warmup=2)
    row = dict(case=label, impl="fgrad.torch", seconds=t_f, losses=losses_f)
    rows.append(row)
    if torch is not None:
        tx, ty = torch.from_numpy(xh).to(device), torch.from_numpy(yh).to(device)
        tstep = _train_step(torch, tm, tx, ty)
        losses_t = [float(tstep().item()) for _ in range(3)]
        t_t = timeit(tstep, warmup=2)
        rows.append(dict(case=label, impl="torch", seconds=t_t, losses=losses_t,
                         loss_rel_diff=max(abs(a - b) / abs(b) for a, b in
                                           zip(losses_f, losses_t, strict=True))))


def profile_shim(device: str, path: str, steps: int = 20) -> None:
    """cProfile tables (top functions by own time) of fgrad.torch's train steps."""
    import cProfile
    import io
    import pstats

    import fgrad.torch as ft

    with open(path, "w") as f:
        for name, build in (("mlp", _mlp), ("cnn", _cnn), ("gpt", _gpt)):
            xh, yh = _shim_inputs(name)
            model = build(ft).to(device)
            step = _train_step(ft, model, ft.from_numpy(xh).to(device), ft.from_numpy(yh).to(device))
            for _ in range(3):
                step()
            _sync_all()
            prof = cProfile.Profile()
            t0 = time.perf_counter()
            prof.enable()
            for _ in range(steps):
                step()
            _sync_all()
            prof.disable()
            dt = (time.perf_counter() - t0) / steps
            buf = io.StringIO()
            stats = pstats.Stats(prof, stream=buf)
            stats.sort_stats("tottime").print_stats(30)
            stats.sort_stats("cumulative").print_stats(30)
            f.write(f"##### {name}: {dt * 1e3:.2f} ms per step under the profiler\n{buf.getvalue()}\n")


# ----------------------------------------------------------------------------- main

def environment(device: str) -> dict:
    env = dict(python=platform.python_version(), numpy=np.__version__, machine=platform.machine())
    for mod in ("cupy", "torch", "jax"):
        try:
            env[mod] = __import__(mod).__version__
        except ImportError:
            pass
    if device == "cuda":
        import cupy

        props = cupy.cuda.runtime.getDeviceProperties(0)
        env["gpu"] = props["name"].decode()
        env["cuda_runtime"] = cupy.cuda.runtime.runtimeGetVersion()
        env["driver"] = cupy.cuda.runtime.driverGetVersion()
    return env


def main(argv=None) -> list:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--json", default="", help="write the rows and environment here")
    p.add_argument("--profile", default="", help="write cProfile tables of the shim's steps here")
    args = p.parse_args(argv)
    _setup_syncs(args.device)
    if args.profile:
        profile_shim(args.device, args.profile)
        return []
    cases = {
        "chain": lambda rows: case_chain(args.device, rows, N_CHAIN),
        "chain_100M": lambda rows: case_chain(args.device, rows, 10 * N_CHAIN),
        "light_10M": lambda rows: case_chain(args.device, rows, N_CHAIN, "light"),
        "light_100M": lambda rows: case_chain(args.device, rows, 10 * N_CHAIN, "light"),
        "jit_mlp_small": lambda rows: mlp_case(args.device, rows, (784, 512, 512, 10), 128),
        "jit_mlp_large": lambda rows: mlp_case(args.device, rows, (1024, 4096, 4096, 10), 2048),
        "shim_mlp": lambda rows: shim_case(args.device, rows, "mlp"),
        "shim_cnn": lambda rows: shim_case(args.device, rows, "cnn"),
        "shim_gpt": lambda rows: shim_case(args.device, rows, "gpt"),
    }
    only = [c for c in args.only.split(",") if c]
    rows: list = []
    for name, fn in cases.items():
        if only and name not in only:
            continue
        try:
            fn(rows)
        except Exception as e:  # report and go on: one broken case must not hide the others
            rows.append(dict(case=name, impl="ERROR", error=f"{type(e).__name__}: {e}"))
        print(json.dumps(rows[-1], default=str), flush=True)
    env = environment(args.device)
    print(f"\n{env}")
    print(f"{'case':34} {'impl':24} {'time':>12}  extra")
    for r in rows:
        t = f"{r['seconds'] * 1e6:10.1f}us" if "seconds" in r else ""
        extra = {k: v for k, v in r.items() if k not in ("case", "impl", "seconds")}
        print(f"{r['case']:34} {r['impl']:24} {t:>12}  {extra}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(environment=env, rows=rows), f, indent=1, default=str)
    return rows


if __name__ == "__main__":
    main()
