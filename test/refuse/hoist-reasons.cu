// --hoist refusals, one kernel per reason: each loop stays in its kernel (the
// in-kernel transformation, no hoisted kernel), and a remark says why.
// RUN: %irregfix --hoist %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: not grep 'irregfix::[H]oistStep' %t.out
// RUN: grep -c '[_]irregfix<<<' %t.out | grep -x 16
#include <cuda_runtime.h>


__global__ void with_break(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (s > 10.0f)
        break;
      s += A[k];
    }
    y[t] = s;
  }
}
// CHECK: remark: loop of 'with_break' stays in the kernel (not hoisted): the loop contains 'break'

__global__ void with_return(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (A[k] < 0.0f)
        return;
      s += A[k];
    }
    y[t] = s;
  }
}
// CHECK: remark: loop of 'with_return' stays in the kernel (not hoisted): the loop contains 'return'

__global__ void with_goto(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (A[k] < 0.0f)
        goto skip;
      s += A[k];
    skip:;
    }
    y[t] = s;
  }
}
// CHECK: remark: loop of 'with_goto' stays in the kernel (not hoisted): the kernel contains 'goto'

__global__ void with_barrier(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k];
      __syncthreads();
    }
    y[t] = s;
  }
}
// CHECK: remark: loop of 'with_barrier' stays in the kernel (not hoisted): the kernel calls '__syncthreads'

__global__ void with_shared(int n, const int *B, const float *A, float *y) {
  __shared__ float tile[32];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    tile[threadIdx.x % 32] = s;
    y[t] = s;
  }
}
// CHECK: remark: loop of 'with_shared' stays in the kernel (not hoisted): the kernel uses shared memory ('tile')

__global__ void store_before(int n, const int *B, const float *A, float *y, int *visits) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    visits[t] = 1;
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: loop of 'store_before' stays in the kernel (not hoisted): the code before the loop stores to memory

__global__ void nested(int n, int reps, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int r = 0; r < reps; ++r)
      for (int k = B[t]; k < B[t + 1]; ++k)
        s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: loop of 'nested' stays in the kernel (not hoisted): the loop is nested in another loop

__device__ void accumulate(float *acc, float v) { *acc += v; }

__global__ void address_taken(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += 0.0f;
      accumulate(&s, A[k]);
    }
    y[t] = s;
  }
}
// CHECK: remark: loop of 'address_taken' stays in the kernel (not hoisted): the live variable 's' has its address taken

__device__ int counter;
__device__ float next_weight() { return static_cast<float>(counter++); }

__global__ void side_effect_call(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float w = next_weight();
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += w * A[k];
    y[t] = s;
  }
}
// CHECK: remark: loop of 'side_effect_call' stays in the kernel (not hoisted): the code before the loop calls 'next_weight', which may have side effects

__global__ void atomic_in_loop(int n, const int *B, const float *A, float *y, int *hits) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k];
      atomicAdd(hits, 1);
    }
    y[t] = s;
  }
}
// CHECK: remark: loop of 'atomic_in_loop' stays in the kernel (not hoisted): the kernel calls 'atomicAdd'

__global__ void with_else(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  } else {
    y[t] += 1.0f;
  }
}
// CHECK: remark: loop of 'with_else' stays in the kernel (not hoisted): the loop is in an 'if' with an 'else' branch

__global__ void reads_written(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = y[t];
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}
// CHECK: remark: loop of 'reads_written' stays in the kernel (not hoisted): it reads 'y' before or in the loop, and writes it

__global__ void modifies_param(int n, float bias, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k] + bias;
      bias *= 0.5f;
    }
    y[t] = s;
  }
}
// CHECK: remark: loop of 'modifies_param' stays in the kernel (not hoisted): the loop modifies the parameter 'bias'

__global__ void live_array(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s[2] = {0, 0};
    for (int k = B[t]; k < B[t + 1]; ++k)
      s[k & 1] += A[k];
    y[t] = s[0] + s[1];
  }
}
// CHECK: remark: loop of 'live_array' stays in the kernel (not hoisted): the live variable 's' is an array

__global__ void two_sites(int n, const int *B, const float *A, const float *C, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    float u = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      u += C[k];
    y[t] = s + u;
  }
}
// CHECK: remark: loop of 'two_sites' stays in the kernel (not hoisted): it has more than one transformed site

__global__ void gather_only(int n, const int *G, const float *C, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = C[G[t]];
}
// CHECK: remark: loop of 'gather_only' stays in the kernel (not hoisted): its site is a gather, which has no loop
