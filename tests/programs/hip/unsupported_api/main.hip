// An API the emulated runtime lacks returns hipErrorNotSupported, and is named once on stderr.
#include <hip/hip_runtime.h>
#include <cstdio>

int main() {
    hipMipmappedArray_t array;
    hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
    hipError_t first = hipMallocMipmappedArray(&array, &desc, make_hipExtent(8, 8, 0), 2, 0);
    hipError_t second = hipMallocMipmappedArray(&array, &desc, make_hipExtent(8, 8, 0), 2, 0);
    hipError_t last = hipGetLastError();
    hipIpcMemHandle_t handle;
    hipError_t ipc_error = hipIpcGetMemHandle(&handle, nullptr);
    int bad = first != hipErrorNotSupported || second != hipErrorNotSupported ||
              last != hipErrorNotSupported || ipc_error != hipErrorNotSupported || desc.x != 32;
    printf("checksum: %d\n", (int)first);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad;
}
