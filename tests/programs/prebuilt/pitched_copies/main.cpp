// pitched_copies: a host-only program on the CUDA driver API (g++ and -lcuda) that copies between
// host memory, device memory (pitched and linear) and 1D, 2D and 3D arrays with cuMemcpy2D,
// cuMemcpy2DUnaligned, cuMemcpy2DAsync, cuMemcpy3D, cuMemcpy3DAsync and cuMemcpy3DPeer(Async), at
// offsets on both sides, sets 2D regions with cuMemsetD2D8/16/32 and their Async forms, checks
// every byte against a host model (copies.h), and tries the bad arguments each must refuse with
// CUDA_ERROR_INVALID_VALUE. It runs everything twice: with the legacy default stream (this file)
// and with the per-thread default stream (per_thread.cpp: the _ptds/_ptsz functions).
//
// usage: pitched_copies
//
// Prints deterministic lines (descriptors, checksums of the models, error names; never pitches or
// addresses) and PASS; exits 1 at the first failed call or check.

#include "copies.h"

int per_thread_copies();    // per_thread.cpp

int main()
{
    CHECK(cuInit(0));
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    CUcontext primary;
    CHECK(cuDevicePrimaryCtxRetain(&primary, dev));
    CHECK(cuCtxSetCurrent(primary));
    int good = pitched_copies("legacy stream");
    good &= per_thread_copies();
    CHECK(cuDevicePrimaryCtxRelease(dev));
    std::printf("%s\n", good ? "PASS" : "FAIL");
    return good ? 0 : 1;
}
