"""numba's settings and the compiled kernels' cache."""
