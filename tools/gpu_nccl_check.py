"""On a machine with a GPU and cupy: fgrad's NCCL engine against cupy's real NCCL bindings on a
one-process NCCL communicator (checks the call signatures, dtypes and results; several GPUs
are needed for real multi-process traffic), and a collective on a cupy Array through the
one-process world.

    python tools/gpu_nccl_check.py
"""

import numpy as np

import cupy
from cupy.cuda import nccl

import fgrad
import fgrad.distributed as dist
from fgrad.backends.nccl import NcclEngine


class OneProcessMPI:
    def bcast(self, obj, root=0):
        return obj


eng = NcclEngine(OneProcessMPI(), 0, 1, nccl, cupy)
x = cupy.arange(12.0).reshape(4, 3)
for red in ("sum", "max", "min", "prod"):
    np.testing.assert_array_equal(cupy.asnumpy(eng.allreduce(x, red)), cupy.asnumpy(x))
np.testing.assert_array_equal(cupy.asnumpy(eng.allgather(x)), cupy.asnumpy(x)[None])
np.testing.assert_array_equal(cupy.asnumpy(eng.reduce_scatter(x, "sum")), cupy.asnumpy(x))
np.testing.assert_array_equal(cupy.asnumpy(eng.broadcast(x.astype(cupy.float32), 0)), cupy.asnumpy(x))
cupy.cuda.get_current_stream().synchronize()
a = fgrad.device_put(fgrad.numpy.arange(3.0), "cuda")
print("psum on cuda:", dist.psum(a), dist.psum(a).device)
print("NCCL engine OK, nccl version", nccl.get_version())
