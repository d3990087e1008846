#pragma once
#include <cstring>
void heat_step(const float *in, float *out, int nx, int ny, float alpha);
