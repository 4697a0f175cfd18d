// Reads in called functions that no range or gather site of the function
// takes: each is judged as a read of the kernel would be, through the call
// (the arrays the call passes, the kernel's writes, the thread index the call
// gives), and its remark names what is in the way. Only a read that passes
// every rule is left with the note that indexed sites are not made in a
// called function. The output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

// An open-addressing table probed until the key or an empty slot is found.
__device__ int lookup(const int *keys, const int *vals, int key, int cap) {
  int slot = (key * 7) % cap;
  while (keys[slot] != key && keys[slot] != -1)
    slot = (slot + 1) % cap;
  return vals[slot];
}
__global__ void probe(const int *wanted, const int *keys, const int *vals, int *found, int n, int cap) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    found[t] = lookup(keys, vals, wanted[t], cap);
}
// CHECK: remark: indirect read of 'vals' in 'probe' (in 'lookup') not rewritten: its index cannot be computed outside the kernel: local 'slot' is set under a condition on values loaded from memory

// Which bucket a thread reads is found by a search in the kernel.
__device__ float weight_of(const float *w, int bucket) { return w[bucket]; }
__global__ void bucketed(const int *limits, const float *w, float *out, int n, int buckets) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int b = buckets - 1;
  for (int i = 0; i < buckets; ++i)
    if (limits[i] > t) {
      b = i;
      break;
    }
  out[t] = weight_of(w, b);
}
// CHECK: remark: indirect read of 'w' in 'bucketed' (in 'weight_of') not rewritten: its index cannot be computed outside the kernel: 'bucket' of 'weight_of' is given 'b': local 'b' is set under a condition on values loaded from memory

// The kernel writes the array the function reads.
__device__ float pair_sum(const float *a, const int *idx, int i) { return a[idx[2 * i]] + a[idx[2 * i + 1]]; }
__global__ void smoothed(float *a, const int *idx, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    out[t] = pair_sum(a, idx, t);
    a[t] = out[t];
  }
}
// CHECK: remark: indirect read of 'a' in 'smoothed' (in 'pair_sum') not rewritten: 'a' is written in the kernel

// The call passes a pointer into the array, and an index array at an offset.
// The first is read as the kernel's array at that offset, judged as such: an
// indexed read in a called function is not rewritten. The index array at an
// offset is not followed, and the remark says where it points.
__device__ float shifted_pair(const float *a, const int *idx, int i) { return a[idx[2 * i]]; }
__device__ float offset_index(const float *a, const int *idx, int i) { return a[idx[2 * i]]; }
__global__ void offsets(const float *a, const int *idx, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = shifted_pair(a + n, idx, t) + offset_index(a, idx + n, t);
}
// CHECK: remark: indirect read of 'a' in 'offsets' (in 'shifted_pair') not rewritten: it is in 'shifted_pair', a function the kernel calls, where only range and gather sites are rewritten
// CHECK: remark: indirect read of 'a' in 'offsets' (in 'offset_index') not rewritten: its index reads 'idx' of 'offset_index', which points into 'idx' at an offset (the call passes 'idx + n'): an index array is followed only where the kernel passes it unchanged

// The call gives the function another value than the thread index.
__device__ float halved(const float *a, const int *idx, int i) { return a[idx[i + 1]]; }
__global__ void half_index(const float *a, const int *idx, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = halved(a, idx, t / 2);
}
// CHECK: remark: indirect read of 'a' in 'half_index' (in 'halved') not rewritten: its index depends on 'i' of 'halved', which the kernel's call does not give the thread index nor a value of the launch (it passes 't / 2')

// Everything holds through the call: only the place is in the way.
__device__ float next_of(const float *a, const int *idx, int i) { return a[idx[i + 1]]; }
__global__ void next_index(const float *a, const int *idx, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = next_of(a, idx, t);
}
// CHECK: remark: indirect read of 'a' in 'next_index' (in 'next_of') not rewritten: it is in 'next_of', a function the kernel calls, where only range and gather sites are rewritten

// The same read, in a function called twice: the function is in the way.
__device__ float next_again(const float *a, const int *idx, int i) { return a[idx[i + 1]]; }
__global__ void next_twice(const float *a, const int *idx, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = next_again(a, idx, t) * next_again(a, idx, t);
}
// CHECK: remark: indirect read of 'a' in 'next_twice' (in 'next_again') not rewritten: 'next_again' is called at 2 places in the kernel and the functions it calls (sites in a called function are rewritten where it is called once)

// A table inside a struct the function is given by reference: the kernel's
// own argument, which the launch passes with the call, in no device memory.
struct Palette {
  float shade[16];
  int count;
};
__device__ float shade_of(const Palette &p, int k) { return p.shade[k]; }
__global__ void shaded(Palette p, const int *which, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = shade_of(p, which[t]);
}
// CHECK: remark: indirect read of 'p.shade' in 'shaded' (in 'shade_of') not rewritten: it reads kernel arguments ('p.shade', an array inside a struct the kernel takes by value), which the launch passes with the call: there is no device memory to copy

void run(const int *wanted, const int *keys, const int *vals, int *found, const int *limits, float *a, const int *idx,
         float *out, int n, int cap, int buckets) {
  probe<<<(n + 127) / 128, 128>>>(wanted, keys, vals, found, n, cap);
  bucketed<<<(n + 127) / 128, 128>>>(limits, a, out, n, buckets);
  smoothed<<<(n + 127) / 128, 128>>>(a, idx, out, n);
  offsets<<<(n + 127) / 128, 128>>>(a, idx, out, n);
  half_index<<<(n + 127) / 128, 128>>>(a, idx, out, n);
  next_index<<<(n + 127) / 128, 128>>>(a, idx, out, n);
  next_twice<<<(n + 127) / 128, 128>>>(a, idx, out, n);
  shaded<<<(n + 127) / 128, 128>>>(Palette{}, idx, out, n);
}
