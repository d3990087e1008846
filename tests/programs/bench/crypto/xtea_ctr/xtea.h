#pragma once
__host__ __device__ void xtea_encipher(unsigned v[2], const unsigned key[4]);
