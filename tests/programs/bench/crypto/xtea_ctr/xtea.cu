#include "xtea.h"

__host__ __device__ void xtea_encipher(unsigned v[2], const unsigned key[4])
{
    unsigned v0 = v[0], v1 = v[1], sum = 0, delta = 0x9E3779B9u;
    for (int r = 0; r < 32; r++) {
        v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + key[sum & 3]);
        sum += delta;
        v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + key[(sum >> 11) & 3]);
    }
    v[0] = v0;
    v[1] = v1;
}
