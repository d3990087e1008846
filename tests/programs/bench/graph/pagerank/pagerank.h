#pragma once
void pagerank_iteration(float *rank, float *contrib, const int *outdeg, const int *rowptr,
                        const int *src, int n, float d);
