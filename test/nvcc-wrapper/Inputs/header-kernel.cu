// The kernel is in a header; the launch is here.
#include "header-kernel.cuh"
void run(int n, const int *B, const float *A, float *y) { gather<<<n / 128 + 1, 128>>>(n, B, A, y); }
