"""``python -m fgrad.torch.distributed.run``: torchrun's command line over ``mpiexec``.

``python -m fgrad.torch.distributed.run --nproc-per-node 4 train.py --lr 0.1`` runs
``mpiexec -n 4 python -m fgrad.torch.distributed.run --worker train.py --lr 0.1``; each worker
sets PyTorch's environment (``RANK``, ``LOCAL_RANK``, ``WORLD_SIZE``, ``LOCAL_WORLD_SIZE``,
``GROUP_RANK``, ``MASTER_ADDR``, ``MASTER_PORT``, ``TORCHELASTIC_RUN_ID``) from the MPI
launcher's and runs the script as ``__main__``.  The exit status is mpiexec's.  One node
only: across nodes, start the job with the cluster's launcher (``srun``, ``mpiexec -f hosts``)
directly -- see docs/distributed.md.

Example::

    >>> build_command(parse_args(["--nproc-per-node", "2", "train.py", "--lr", "0.1"]))[:3]
    ['mpiexec', '-n', '2']
"""

from __future__ import annotations

import argparse
import os
import runpy
import shutil
import subprocess
import sys

_RANK_VARS = ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK", "SLURM_PROCID")
_SIZE_VARS = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "MV2_COMM_WORLD_SIZE", "SLURM_NTASKS")
_LOCAL_RANK_VARS = ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
                    "SLURM_LOCALID")
_LOCAL_SIZE_VARS = ("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE")


def parse_args(args: list) -> argparse.Namespace:
    """torchrun's arguments (the ones that mean something for one node over MPI).

    Example::

        >>> from fgrad.torch.distributed import run
        >>> args = run.parse_args(['--nproc-per-node', '2', 'train.py', '--lr', '0.1'])
        >>> args.training_script, args.training_script_args
        ('train.py', ['--lr', '0.1'])
    """
    p = argparse.ArgumentParser(prog="python -m fgrad.torch.distributed.run",
                                description="torchrun for fgrad: runs the script on N processes with mpiexec")
    p.add_argument("--nproc-per-node", "--nproc_per_node", default="1")
    p.add_argument("--nnodes", default="1")
    p.add_argument("--node-rank", "--node_rank", type=int, default=0)
    p.add_argument("--master-addr", "--master_addr", default="127.0.0.1")
    p.add_argument("--master-port", "--master_port", type=int, default=29500)
    p.add_argument("--standalone", action="store_true")
    p.add_argument("--rdzv-backend", "--rdzv_backend", default="static")
    p.add_argument("--rdzv-endpoint", "--rdzv_endpoint", default="")
    p.add_argument("--rdzv-id", "--rdzv_id", default="none")
    p.add_argument("--max-restarts", "--max_restarts", type=int, default=0)
    p.add_argument("--run-path", "--run_path", action="store_true")
    p.add_argument("-m", "--module", action="store_true", help="run the script as a module (python -m)")
    p.add_argument("--no-python", "--no_python", action="store_true")
    p.add_argument("--mpiexec", default=os.environ.get("FGRAD_MPIEXEC", "mpiexec"),
                   help="the MPI launcher (default: mpiexec; FGRAD_MPIEXEC)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("training_script")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    args = p.parse_args(args)
    if args.nproc_per_node in ("auto", "cpu"):
        args.nproc_per_node = str(os.cpu_count() or 1)
    if args.nproc_per_node == "gpu":
        raise SystemExit("--nproc-per-node gpu: give the number of processes explicitly")
    try:
        args.nproc_per_node = int(args.nproc_per_node)
    except ValueError:
        raise SystemExit(f"--nproc-per-node: expected a number, got {args.nproc_per_node!r}") from None
    if str(args.nnodes) not in ("1", "1:1"):
        raise SystemExit("fgrad.torch.distributed.run starts one node; for several nodes start the job with "
                         "the cluster's MPI launcher (srun, mpiexec -f hostfile) -- see docs/distributed.md")
    if args.max_restarts:
        raise SystemExit("--max-restarts is not supported (MPI jobs do not restart single workers)")
    return args


def build_command(args: argparse.Namespace) -> list:
    """The mpiexec command line that starts the workers.

    Example::

        >>> from fgrad.torch.distributed import run
        >>> args = run.parse_args(['--nproc-per-node', '2', '--mpiexec', 'mpiexec', 'train.py'])
        >>> run.build_command(args)[:3], run.build_command(args)[-1]
        (['mpiexec', '-n', '2'], 'train.py')
    """
    worker = [sys.executable, "-m", "fgrad.torch.distributed.run", "--worker",
              "--master-addr", args.master_addr, "--master-port", str(args.master_port),
              "--nproc-per-node", str(args.nproc_per_node)]
    if args.module:
        worker.append("-m")
    if args.no_python:
        worker.append("--no-python")
    return [args.mpiexec, "-n", str(args.nproc_per_node), *worker, args.training_script,
            *args.training_script_args]


def _first(names, default: str) -> str:
    for n in names:
        v = os.environ.get(n)
        if v:
            return v
    return default


def worker_environment(args: argparse.Namespace) -> dict:
    """PyTorch's launcher variables for this worker, from the MPI launcher's.

    Example::

        >>> from fgrad.torch.distributed import run
        >>> env = run.worker_environment(run.parse_args(['--nproc-per-node', '2', 'train.py']))
        >>> sorted(env)[:4]
        ['GROUP_RANK', 'LOCAL_RANK', 'LOCAL_WORLD_SIZE', 'MASTER_ADDR']
    """
    rank = _first(_RANK_VARS, "0")
    size = _first(_SIZE_VARS, str(args.nproc_per_node))
    return {
        "RANK": rank, "WORLD_SIZE": size, "GROUP_RANK": "0", "ROLE_RANK": rank, "ROLE_WORLD_SIZE": size,
        "LOCAL_RANK": _first(_LOCAL_RANK_VARS, rank),
        "LOCAL_WORLD_SIZE": _first(_LOCAL_SIZE_VARS, size),
        "MASTER_ADDR": args.master_addr, "MASTER_PORT": str(args.master_port),
        "TORCHELASTIC_RUN_ID": os.environ.get("TORCHELASTIC_RUN_ID", "fgrad-mpi"),
    }


def _run_worker(args: argparse.Namespace) -> None:
    os.environ.update(worker_environment(args))
    if args.no_python:
        os.execvp(args.training_script, [args.training_script, *args.training_script_args])
    sys.argv = [args.training_script, *args.training_script_args]
    if args.module:
        runpy.run_module(args.training_script, run_name="__main__", alter_sys=True)
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(args.training_script)))
        runpy.run_path(args.training_script, run_name="__main__")


def main(args: list | None = None) -> int:
    """Entry point: start the workers (or, with ``--worker``, be one).

    Example::

        >>> from fgrad.torch.distributed import run
        >>> callable(run.main)
        True
    """
    args = parse_args(sys.argv[1:] if args is None else args)
    if args.worker:
        _run_worker(args)
        return 0
    cmd = build_command(args)
    if shutil.which(cmd[0]) is None:
        raise SystemExit(f"{cmd[0]} not found: install the MPI extra (pip install 'fgrad[mpi]') or pass "
                         "--mpiexec PATH")
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
