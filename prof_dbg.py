import sys, numpy as np, fgrad, fgrad.numpy as fnp, fgrad.ops, cProfile, pstats
rng = np.random.default_rng(0)
if sys.argv[1] == "seg":
    data = fnp.asarray(rng.standard_normal((100_000, 64)).astype(np.float32))
    ids = fnp.asarray(rng.integers(0, 1000, 100_000).astype(np.int32))
    f = fgrad.jit(lambda d, i: fgrad.ops.segment_sum(d, i, num_segments=1000)); args = (data, ids)
else:
    w = fnp.asarray(rng.standard_normal((10_000, 64)).astype(np.float32))
    ids = fnp.asarray(rng.integers(0, 10_000, 4096).astype(np.int32))
    g = fnp.asarray(rng.standard_normal((4096, 64)).astype(np.float32))
    f = fgrad.jit(fgrad.grad(lambda w, g: fnp.sum(w[ids] * g))); args = (w, g)
print(f.lower(*args).compile().source)
for _ in range(3): np.asarray(f(*args))
pr = cProfile.Profile(); pr.enable()
for _ in range(100): np.asarray(f(*args))
pr.disable()
pstats.Stats(pr).sort_stats('tottime').print_stats(16)
