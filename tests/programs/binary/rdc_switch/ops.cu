// A device function whose switch nvcc lowers to jump tables (BRX through c[0x2]); after the
// device link the tables sit in the calling kernel's constant bank 2.
__device__ int apply_op(int op, int a, int b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a ^ b;
    case 4: return a | b;
    case 5: return a & b;
    case 6: return a << (b & 7);
    case 7: return a >> (b & 7);
    default: return -1;
    }
}
