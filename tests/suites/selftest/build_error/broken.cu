// The selftest suite's build error: an undeclared name, which nvcc and cass-nvcc both reject.
__global__ void k(int* p) { p[threadIdx.x] = undeclared_value; }

int main() { return 0; }
