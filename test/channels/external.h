// Code in another file, which irregfix does not rewrite (channels.cu calls it).
#pragma once
#include <cuda_runtime.h>

// Halves v[0, n) with a kernel of its own.
void external_update(float *v, int n);
__global__ void external_halve(float *v, int n);
// Calls cb(ctx), then halves v[0, n).
void external_with_callback(float *v, int n, void (*cb)(void *), void *ctx);
// runs times: channels_step(i), then (but after the last) halves v[0, n).
void external_drive(float *v, int n, int runs);
// Defined in channels.cu.
void channels_step(int run);
