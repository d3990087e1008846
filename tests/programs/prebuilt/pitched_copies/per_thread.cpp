// pitched_copies with the per-thread default stream: cuda.h renames the copies and sets to their
// _ptds (synchronous) and _ptsz (asynchronous) forms.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include "copies.h"

int per_thread_copies() { return pitched_copies("per-thread stream"); }
