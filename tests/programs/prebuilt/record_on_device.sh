#!/usr/bin/env bash
# Records the prebuilt programs' references on an NVIDIA machine (an H200 here), in one go:
#
#   bash tests/programs/prebuilt/record_on_device.sh [OUT]      (from the repository root)
#
# 1. builds every tests/programs/prebuilt/<name>/ with NVIDIA's toolkit by its build.json
#    (prebuilt.py build), {cubin_arch} being the GPU's own sm_XY, and runs it by its run.json:
#    stdout -> OUT/<name>/reference.txt;
# 2. builds three existing programs of the program convention with plain nvcc four ways (default
#    architecture with the static runtime, -cudart shared, compute_80 PTX only, sm_90 only), runs
#    each and compares its stdout with the program's reference.txt -> OUT/plain_nvcc.txt;
# 3. writes the machine (GPU, driver, nvcc, NVRTC, cuda-bindings) to OUT/machine.txt and every
#    command with its output and exit status to OUT/log.txt.
#
# cuda_python needs cuda.bindings: wheels in .whl/ (cuda-bindings, cuda-pathfinder), if present,
# are installed into /tmp/prebuilt-site first and put first on PYTHONPATH.
# Exits non-zero when any program fails or any plain build differs from its reference.

set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=${1:-${OUT:-/tmp/prebuilt-out}}
WORK=${PREBUILT_WORK:-/tmp/prebuilt-work}
PREBUILT=tests/programs/prebuilt
PLAIN_PROGRAMS="bench/crypto/crc32_table bench/primitives/reduce_warp bench/bio/smith_waterman"
cd "$ROOT" || exit 1
rm -rf "$WORK"
mkdir -p "$OUT" "$WORK"
LOG=$OUT/log.txt
: >"$LOG"
status=0

log() { printf '%s\n' "$*" >>"$LOG"; }
# Runs a command with its output appended to the log; returns its exit status.
logged() {
    log "+ $*"
    "$@" >>"$LOG" 2>&1
    local rc=$?
    log "  -> exit $rc"
    return $rc
}

PY=${PYTHON:-python3}
if ls .whl/*.whl >/dev/null 2>&1; then
    logged "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/prebuilt-site .whl/*.whl && export PYTHONPATH=/tmp/prebuilt-site${PYTHONPATH:+:$PYTHONPATH}
fi

# --- the machine -------------------------------------------------------------------------------
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA_HOME=${CUDA_HOME:-$(cd "$(dirname "$NVCC")/.." && pwd)}
[ -f "$CUDA_HOME/include/cuda.h" ] || CUDA_HOME=/usr/local/cuda
export CUDA_HOME
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
ARCH=sm_${cap:-90}
{
    echo "gpu, driver, compute capability: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -1)"
    echo "nvcc: $("$NVCC" --version 2>&1 | grep -E '^Build|release' | tr '\n' ' ')"
    echo "g++: $(g++ --version 2>&1 | head -1)"
    echo "python: $("$PY" --version 2>&1)"
    echo "cuda-bindings: $("$PY" -c 'import cuda.bindings, sys; print(cuda.bindings.__version__, cuda.bindings.__file__)' 2>&1 | tail -1)"
    echo "cuda-pathfinder: $("$PY" -c 'import cuda.pathfinder as p; print(p.__version__)' 2>&1 | tail -1)"
    echo "nvrtc (cuda.bindings): $("$PY" -c 'from cuda.bindings import nvrtc; import cuda.pathfinder as p; print(nvrtc.nvrtcVersion()[1:], p.load_nvidia_dynamic_lib("nvrtc").abs_path)' 2>&1 | tail -1)"
    echo "libcuda.so.1: $(ldconfig -p 2>/dev/null | grep -m1 'libcuda.so.1 ' | sed 's/.*=> //')"
    echo "cubin_arch: $ARCH"
} >"$OUT/machine.txt"
cat "$OUT/machine.txt" >>"$LOG"
logged nvidia-smi
logged ls -l "$CUDA_HOME/lib64/stubs" "$CUDA_HOME/lib64/" 

# A libcuda.so to link against: the toolkit's stub, else the driver's.
LIBCUDA_DIR=""
if [ -f "$CUDA_HOME/lib64/stubs/libcuda.so" ]; then
    LIBCUDA_DIR=$CUDA_HOME/lib64/stubs
else
    real=$(ldconfig -p 2>/dev/null | grep -m1 'libcuda.so.1 ' | sed 's/.*=> //')
    [ -n "$real" ] || { echo "record_on_device.sh: no libcuda.so (toolkit stub or driver)" >&2; exit 1; }
    LIBCUDA_DIR=$WORK/libcuda
    mkdir -p "$LIBCUDA_DIR" && ln -sf "$real" "$LIBCUDA_DIR/libcuda.so"
fi
# NVRTC: the toolkit's, else an nvidia-cuda-nvrtc wheel of this Python (prebuilt.py values).
value() { "$PY" $PREBUILT/prebuilt.py values | "$PY" -c "import json, sys; print(json.load(sys.stdin)['$1'])"; }
NVRTC_INCLUDE=$CUDA_HOME/include
[ -f "$NVRTC_INCLUDE/nvrtc.h" ] || NVRTC_INCLUDE=$(value nvrtc_include)
NVRTC_LIB=$CUDA_HOME/lib64
[ -e "$NVRTC_LIB/libnvrtc.so.13" ] || NVRTC_LIB=$(value nvrtc_lib)
VALUES=(nvcc="$NVCC" cxx=g++ python="$PY" cuda_include="$CUDA_HOME/include" cuda_lib="$CUDA_HOME/lib64"
        libcuda_dir="$LIBCUDA_DIR" nvrtc_include="$NVRTC_INCLUDE" nvrtc_lib="$NVRTC_LIB" cubin_arch="$ARCH")
log "values: ${VALUES[*]}"

# --- 1. the prebuilt programs ------------------------------------------------------------------
for name in $("$PY" $PREBUILT/prebuilt.py list); do
    mkdir -p "$OUT/$name"
    if logged "$PY" $PREBUILT/prebuilt.py build "$name" "$WORK/$name" "${VALUES[@]}"; then
        log "+ run $name"
        "$PY" $PREBUILT/prebuilt.py run "$name" "$WORK/$name" "${VALUES[@]}" >"$OUT/$name/reference.txt" 2>>"$LOG"
        rc=$?
        log "  -> exit $rc; stdout:"
        cat "$OUT/$name/reference.txt" >>"$LOG"
        if [ $rc -ne 0 ] || [ "$(tail -n1 "$OUT/$name/reference.txt")" != PASS ]; then
            log "PROGRAM FAILED: $name"
            status=1
        fi
    else
        log "BUILD FAILED: $name"
        status=1
    fi
done
# What the H200 makes of an sm_80 cubin (expected: no binary for this GPU), for the record.
if [ -x "$WORK/driver_api/driver_api" ]; then
    mkdir -p "$WORK/driver_api_sm80" && cp "$WORK/driver_api/kernels.fatbin" "$WORK/driver_api_sm80/" &&
        "$NVCC" -x cu -cubin -arch=sm_80 $PREBUILT/driver_api/kernels.cuh -o "$WORK/driver_api_sm80/kernels.cubin" &&
        logged "$WORK/driver_api/driver_api" "$WORK/driver_api_sm80"
fi

# --- 2. plain nvcc builds of existing programs ---------------------------------------------------
declare -A HOW=(
    [default]="-O2"
    [cudart_shared]="-O2 -cudart shared"
    [ptx_compute_80]="-O2 -gencode arch=compute_80,code=compute_80"
    [sm_90]="-O2 -arch=sm_90"
)
PLAIN=$OUT/plain_nvcc.txt
: >"$PLAIN"
for program in $PLAIN_PROGRAMS; do
    folder=tests/programs/$program
    for how in default cudart_shared ptx_compute_80 sm_90; do
        exe=$WORK/plain/${program//\//_}.$how
        mkdir -p "$WORK/plain"
        # shellcheck disable=SC2086
        if logged "$NVCC" ${HOW[$how]} -o "$exe" "$folder"/*.cu; then
            logged "$(command -v cuobjdump || echo "$CUDA_HOME/bin/cuobjdump")" --list-elf --list-ptx "$exe"
            [ "$how" = cudart_shared ] && logged ldd "$exe"
            log "+ $exe"
            "$exe" >"$exe.stdout" 2>>"$LOG"
            rc=$?
            log "  -> exit $rc; stdout:"
            cat "$exe.stdout" >>"$LOG"
            if [ $rc -eq 0 ] && cmp -s "$exe.stdout" "$folder/reference.txt"; then
                verdict="equal to reference.txt"
            else
                verdict="DIFFERS (exit $rc): $(tr '\n' '|' <"$exe.stdout")"
                status=1
            fi
        else
            verdict="BUILD FAILED"
            status=1
        fi
        printf '%s\t%s\t%s\t%s\n' "$program" "$how" "nvcc ${HOW[$how]}" "$verdict" >>"$PLAIN"
    done
done
cat "$PLAIN" >>"$LOG"
log "status: $status"
exit $status
