"""Run under ``mpiexec -n 2``: fault cases; each must end the whole job promptly.

* ``raise``: process 1 raises after a collective while process 0 waits in the next one;
  the job must end with process 1's traceback (not hang).
* ``early``: process 1 raises before the world exists (``import fgrad`` installed the hook,
  which initializes MPI only to abort the job);
* ``timeout``: process 1 never joins a collective; process 0's collective times out after
  1 s with `CollectiveTimeoutError`, which ends the job.

Usage: mpiexec -n 2 python tests/mpi_programs/mpi_faults.py raise|early|timeout
"""

import os
import sys
import time

import numpy as np

import fgrad.distributed as dist


def main():
    case = sys.argv[1]
    if case == "early" and os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK")) == "1":
        raise ValueError("early boom on rank 1")
    dist.initialize(timeout=1.0 if case == "timeout" else 60.0)
    r = dist.process_index()
    dist.psum(np.ones(2))
    if case == "raise":
        if r == 1:
            raise ValueError("boom on rank 1")
        dist.psum(np.ones(2))  # would wait forever for process 1
    elif case == "timeout":
        if r == 1:
            time.sleep(60)  # never joins
        dist.psum(np.ones(2))
    print(f"UNREACHED {r}", flush=True)


if __name__ == "__main__":
    main()
