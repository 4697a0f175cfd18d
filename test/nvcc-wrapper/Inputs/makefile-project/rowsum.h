#pragma once
// Sums each row of a matrix stored as row offsets and values, on the GPU.
void row_sums(int rows, const int *offsets, const float *values, float *sums);
