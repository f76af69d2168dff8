#!/bin/bash
# On a machine with an NVIDIA GPU and cupy: the device tests on cupy, the GPU benchmarks, then
# the whole default suite with the GPU as the default device.  Logs go to $OUT (default
# /tmp/fgrad_gpu).  Each phase has a time limit so the whole script ends in about 10 minutes
# (the suite alone needs about 4 minutes on 11 workers of a 16-core H100 machine: 2026-11-26;
# more than 290 s on 15 workers of the H200 machine, 2026-11-27: give it T_SUITE=360).
# Re-run only what a previous run failed: python3 tools/run_test_ids.py ids.txt -n 14 ...
#   bash tools/gpu_check.sh            # all phases
#   PHASES="tests bench" bash tools/gpu_check.sh
#   NW=4 PHASES=tests bash tools/gpu_check.sh & NW=10 PHASES=suite bash tools/gpu_check.sh   # side by side
set -u
OUT=${OUT:-/tmp/fgrad_gpu}; mkdir -p "$OUT"
PY=${PY:-python3}
PHASES=${PHASES:-"nccl tests bench profile suite"}
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
# this checkout's fgrad, not an installed one (pytest-xdist workers do not put the working
# directory on sys.path; an editable install elsewhere would be tested instead)
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
if ! $PY -c "import fgrad, os, sys; sys.exit(not fgrad.__file__.startswith(os.getcwd()))"; then
  echo "fgrad does not import from $PWD: $($PY -c 'import fgrad; print(fgrad.__file__)')"; exit 2
fi
NPROC=$(nproc)
NW=${NW:-$((NPROC - 2))}   # pytest-xdist workers (two phases may run side by side)
EXTRA=${PYTEST_EXTRA:-}   # e.g. "--timeout 120" where pytest-timeout is installed
SUITE_MARK=${SUITE_MARK:-"not slow"}   # e.g. "not slow and not cpu_program": leave out the CPU-pinned program runs
export FGRAD_DURATION_LOG=${FGRAD_DURATION_LOG:-}   # e.g. $OUT/durations.log: every test's seconds as the run goes
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  $PY -c "import sys, numpy, cupy; print(sys.version); print('numpy', numpy.__version__, 'cupy', cupy.__version__)"
  $PY -c "import fgrad; print('fgrad from', fgrad.__file__)"
  $PY -m fgrad; } > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
for phase in $PHASES; do
  start=$SECONDS
  case $phase in
    tests)  # backend-parametrized tests on cupy, nvcc/cupy kernel codegen, the shim on cuda
      FGRAD_FAILURE_LOG="$OUT/tests_failures.log" FGRAD_TEST_BACKENDS=numpy,fake,cupy timeout ${T_TESTS:-110} $PY -m pytest -q -m "" -p no:cacheprovider \
        -n $NW $EXTRA -rfEs --tb=short tests/test_backends.py tests/test_cuda_codegen.py \
        tests/shim/test_cuda.py > "$OUT/tests.log" 2>&1 ;;
    nccl)  # fgrad's NCCL engine against cupy's NCCL bindings (one process, one GPU)
      timeout ${T_NCCL:-60} $PY tools/gpu_nccl_check.py > "$OUT/nccl.log" 2>&1 ;;
    bench)
      timeout ${T_BENCH:-150} $PY -m benchmarks.gpu --json "$OUT/gpu_bench.json" > "$OUT/bench.log" 2>&1 ;;
    profile)  # where the shim's train steps spend their time on the GPU
      timeout ${T_PROF:-60} $PY -m benchmarks.gpu --profile "$OUT/profile.txt" > "$OUT/profile.log" 2>&1 ;;
    suite)  # every default test with arrays created on the GPU
      FGRAD_FAILURE_LOG="$OUT/suite_failures.log" FGRAD_BACKEND=cupy FGRAD_TEST_BACKENDS=numpy,fake,cupy timeout ${T_SUITE:-360} $PY -m pytest -q \
        -p no:cacheprovider -m "$SUITE_MARK" -n $NW $EXTRA -rfE --tb=line > "$OUT/suite.log" 2>&1 ;;
  esac
  echo "== $phase: rc=$? in $((SECONDS - start)) s"
  tail -n ${TAIL:-25} "$OUT/$phase.log"
done
