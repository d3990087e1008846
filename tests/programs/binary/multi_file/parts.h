// Host entry points of the kernels in scale.cu and reduce.cu.
#pragma once
void scale_on_device(float *d_x, float factor, int n);
float sum_on_device(const float *d_x, int n);
