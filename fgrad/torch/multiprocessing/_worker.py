"""One worker of `fgrad.torch.multiprocessing.spawn` (run under ``mpiexec``): import the
parent's main script as ``__mp_main__``, unpickle ``fn`` and ``args``, run ``fn(rank,
*args)``; a raised exception is written for the parent and then ends the job (MPI_Abort,
through fgrad's exception hook), so no worker hangs."""

from __future__ import annotations

import json
import os
import pickle
import sys
import traceback
import types

import fgrad  # noqa: F401  (under the launcher: installs the abort-on-exception hook)
from fgrad.backends import world


def _import_main(path: str | None) -> None:
    """The parent's main script as module ``__mp_main__`` (also ``__main__``), as Python's
    ``spawn`` start method does, so functions and classes pickled by reference resolve."""
    if not path or not os.path.exists(path):
        return
    mod = types.ModuleType("__mp_main__")
    mod.__file__ = path
    sys.modules["__mp_main__"] = mod
    sys.modules["__main__"] = mod
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, mod.__dict__)  # noqa: S102 - the user's own script, as multiprocessing's spawn


def main(workdir: str) -> None:
    rank = world.world().rank
    with open(os.path.join(workdir, "meta.json")) as f:
        meta = json.load(f)
    sys.argv = meta["argv"]
    _import_main(meta["main"])  # first: fn and args may refer to it
    try:
        with open(os.path.join(workdir, "job.pkl"), "rb") as f:
            job = pickle.load(f)  # noqa: S301 - written by this job's parent process
        job["fn"](rank, *job["args"])
    except BaseException:
        with open(os.path.join(workdir, f"error_{rank}.txt"), "w") as f:
            f.write(f"{os.getpid()}\n{traceback.format_exc()}")
        raise


if __name__ == "__main__":
    main(sys.argv[1])
