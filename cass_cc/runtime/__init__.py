"""Running AMD programs: `cass-run` (run.py), the emulated libamdhip64 (a C shim built by
shim.py from emuhip/, forwarding to the Python HIP runtime in emulated/), and libcassrt (the
CUDA runtime API on HIP, cassrt/)."""
