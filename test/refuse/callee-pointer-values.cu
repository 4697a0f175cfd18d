// A called function's pointer parameter, given memory through pointers that
// take their value after their declaration, either of two pointers, or a
// pointer the function itself steps: each read gets the verdict of the memory
// it really reads. Nothing is rewritten; the output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

// Set once after its declaration: the kernel's own array, which it writes.
__device__ float look(const float *v, const int *at, int t) { return v[at[t]]; }
__global__ void set_once(float *x, const int *at, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *v;
  v = x;
  if (t < n)
    x[t] = look(v, at, t);
}
// CHECK-DAG: remark: gather site in 'set_once' not transformed: 'v' is written in the kernel

// Set in both branches of an if, alike: the thread's own tables.
__device__ float pick_own(const float *w, const int *at, int t) { return w[at[t] & 3]; }
__global__ void branches_alike(const int *at, float *out, int n) {
  float even[4] = {0.f, 1.f, 2.f, 3.f}, odd[4] = {3.f, 2.f, 1.f, 0.f};
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *w;
  if (t & 1)
    w = odd;
  else
    w = even;
  if (t < n)
    out[t] = pick_own(w, at, t);
}
// CHECK-DAG: remark: indirect read of 'w' in 'branches_alike' (in 'pick_own') not rewritten: it reads memory local to the thread ('w'), an array of its own

// Set in both branches, differently: both values are named.
__device__ float pick_any(const float *w, const int *at, int t) { return w[at[t] & 3]; }
__global__ void branches_unlike(const float *x, const int *at, float *out, int n) {
  float own[4] = {0.f, 1.f, 2.f, 3.f};
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *w;
  if (t & 1)
    w = own;
  else
    w = x + 4 * t;
  if (t < n)
    out[t] = pick_any(w, at, t);
}
// CHECK-DAG: remark: indirect read of 'w' in 'branches_unlike' (in 'pick_any') not rewritten: 'w' of 'pick_any' is not an array the kernel passes unchanged (the call passes 'w'): 'w' is a local pointer declared without a value, given 'own' and 'x + 4 * t', which point into different memory

// Either of two pointers into the one array the kernel writes.
__device__ float either(const float *u, const int *at, int t) { return u[at[t]]; }
__global__ void chosen_half(float *x, const int *at, int n, int half) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *u = half ? x + n : x;
  if (t < n)
    x[t] = either(u, at, t);
}
// CHECK-DAG: remark: gather site in 'chosen_half' not transformed: 'x' is written in the kernel: 'u' of 'either' points into it (the call passes 'u')

// A parameter the function steps along the kernel's array, which nothing writes.
__device__ int pairs(const int *p, const int *at, int t, int steps) {
  int s = 0;
  for (int k = 0; k < steps; ++k) {
    s += p[at[t] + k];
    p += 2;
  }
  return s;
}
__global__ void stepped(const int *x, const int *at, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pairs(x, at, t, 4);
}
// CHECK-DAG: remark: indirect read of 'p' in 'stepped' (in 'pairs') not rewritten: it reads 'x' through 'p', a parameter 'pairs' steps (its offset is not followed)

// The same function stepping along the thread's own array.
__global__ void stepped_own(const int *at, int *out, int n) {
  int own[16] = {0};
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pairs(own, at, t, 4);
}
// CHECK-DAG: remark: indirect read of 'p' in 'stepped_own' (in 'pairs') not rewritten: it reads memory local to the thread ('p')

// Scratch from a pool the thread holds, handed out by a method.
struct Pool {
  int used;
  float words[32];
  __device__ float *take(int k) {
    used += k;
    return words + used - k;
  }
};
__device__ float from_pool(const float *s, const int *at, int t) { return s[at[t] & 7]; }
__global__ void pooled(const int *at, float *out, int n) {
  Pool pool;
  pool.used = 0;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float *s = pool.take(8);
  for (int i = 0; i < 8; ++i)
    s[i] = i;
  if (t < n)
    out[t] = from_pool(s, at, t);
}
// CHECK-DAG: remark: indirect read of 's' in 'pooled' (in 'from_pool') not rewritten: it reads memory local to the thread ('s')

// An array inside the element a local pointer points to, which the kernel writes.
struct Cell {
  int size;
  int members[4];
};
__global__ void cells(Cell *all, const float *x, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  Cell *c = all + t;
  c->members[c->size++] = t;
  out[t] = x[c->members[0]];
}
// CHECK-DAG: remark: indirect read of 'x' in 'cells' not rewritten: its index reads 'c->members', which the kernel writes (it points into 'all')

// Scratch a thread is handed, written and read back through the same pointer.
__global__ void scratch(float *const *pools, const int *at, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float *mem;
  mem = pools[t];
  for (int i = 0; i < 8; ++i)
    mem[i] = i;
  out[t] = mem[at[t] & 7];
}
// CHECK-DAG: remark: indirect read of 'mem' in 'scratch' not rewritten: the memory it reads through 'mem' is written in the kernel: 'scratch' stores through it ('mem[i] = i')
// CHECK-NOT: transformed

void run(float *x, const int *at, float *out, int *iout, const int *ix, Cell *all, float *const *pools, int n) {
  set_once<<<(n + 127) / 128, 128>>>(x, at, n);
  branches_alike<<<(n + 127) / 128, 128>>>(at, out, n);
  branches_unlike<<<(n + 127) / 128, 128>>>(x, at, out, n);
  chosen_half<<<(n + 127) / 128, 128>>>(x, at, n, 1);
  stepped<<<(n + 127) / 128, 128>>>(ix, at, iout, n);
  stepped_own<<<(n + 127) / 128, 128>>>(at, iout, n);
  pooled<<<(n + 127) / 128, 128>>>(at, out, n);
  cells<<<(n + 127) / 128, 128>>>(all, x, out, n);
  scratch<<<(n + 127) / 128, 128>>>(pools, at, out, n);
}
