"""Single-threaded BLAS for the tests: the engine's matrices are tiny, and on a busy 2-core machine
OpenBLAS's spinning worker threads make them many times slower. Must run before numpy is imported."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
