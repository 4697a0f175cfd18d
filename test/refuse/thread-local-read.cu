// A thread's own arrays (declared in the kernel, members of a struct it
// declares, or a called function's parameter that the kernel binds to one)
// live in local memory, private to the thread and interleaved by thread in
// hardware: there is no copy to lay out before the launch. The remark says so
// rather than naming an array the launch cannot name. An index kept in such
// an array is the kernel's to compute. A function called with device memory
// somewhere else is judged as before.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

struct Subgraph {
  int size;
  unsigned long long nodes[32];
};

__device__ int pick(const Subgraph *g, int at) { return (int)g->nodes[at]; }

__device__ int walk(int cur, const int *match, const int *fanin, int depth) {
  if (depth == 0)
    return match[cur];
  return walk(fanin[cur], match, fanin, depth - 1);
}

__global__ void cones(const int *kind, const int *fanin, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int match[16];
  Subgraph g;
  g.size = 0;
  for (int i = 0; i < 16; ++i)
    match[i] = fanin[16 * t + i];
  for (int i = 0; i < 32; ++i)
    g.nodes[i] = i;
  const Subgraph *pg = &g;
  out[t] = (int)g.nodes[kind[t]] + (int)pg->nodes[kind[t] + 1] + pick(&g, kind[t]) + walk(kind[t], match, fanin, 3);
}
// CHECK-DAG: remark: indirect read of 'g.nodes' in 'cones' not rewritten: it reads memory local to the thread ('g.nodes'), an array of its own: no copy can be laid out for it before the launch
// CHECK-DAG: remark: indirect read of 'pg->nodes' in 'cones' not rewritten: it reads memory local to the thread ('pg->nodes'), an array of its own: no copy can be laid out for it before the launch
// CHECK-DAG: remark: indirect read of 'g->nodes' in 'cones' (in 'pick') not rewritten: it reads memory local to the thread ('g->nodes'), an array of its own: no copy can be laid out for it before the launch
// CHECK-DAG: remark: indirect read of 'match' in 'cones' (in 'walk') not rewritten: it reads memory local to the thread ('match'), an array of its own: no copy can be laid out for it before the launch

// An index read from the thread's own table, in the kernel and in a function it calls.
__device__ float through(const float *w, const int *slots, int k) { return w[slots[k % 4]]; }

__global__ void staged(const float *w, const int *from, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int slots[4];
  for (int i = 0; i < 4; ++i)
    slots[i] = from[4 * t + i];
  if (t < n)
    out[t] = through(w, slots, t) + w[slots[t & 3]];
}
// CHECK-DAG: remark: indirect read of 'w' in 'staged' not rewritten: its index cannot be computed outside the kernel
// CHECK-DAG: remark: indirect read of 'w' in 'staged' (in 'through') not rewritten: its index cannot be computed outside the kernel: it reads memory local to the thread ('slots'), an array of its own: no copy can be laid out for it before the launch

// Called twice, each time with an array of the thread's own.
__device__ int lookup(const int *table, int at) { return table[at]; }

__global__ void twice_own(const int *at, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lo[8], hi[8];
  for (int i = 0; i < 8; ++i)
    lo[i] = hi[i] = i;
  if (t < n)
    out[t] = lookup(lo, at[t]) + lookup(hi, at[t]);
}
// CHECK-DAG: remark: indirect read of 'table' in 'twice_own' (in 'lookup') not rewritten: it reads memory local to the thread ('table'), an array of its own: no copy can be laid out for it before the launch

// A parameter given the thread's own array but set again in the function may
// point anywhere.
__device__ int hop(const int *p, const int *dev, int k) {
  if (k > 4)
    p = dev;
  return p[k];
}

__global__ void reseated(const int *dev, const int *at, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int own[8];
  for (int i = 0; i < 8; ++i)
    own[i] = i;
  if (t < n)
    out[t] = hop(own, dev, at[t]);
}
// CHECK-DAG: remark: indirect read of 'p' in 'reseated' (in 'hop') not rewritten: the array it reads ('p') is a parameter 'hop' assigns (reads through it are not followed)

// Called with the thread's own array and with device memory: neither call
// decides what its parameter is.
__device__ int either(const int *table, const int *at) { return table[at[0]]; }

__global__ void mixed(const int *table, const int *at, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int own[8];
  for (int i = 0; i < 8; ++i)
    own[i] = table[i];
  if (t < n)
    out[t] = either(own, at + t) + either(table, at + t);
}
// CHECK-DAG: remark: indirect read of 'table' in 'mixed' (in 'either') not rewritten: 'table' of 'either' is not an array the kernel passes unchanged (the call passes 'own')

void run(const int *kind, const int *fanin, int *out, const float *w, const int *from, float *fout, int n) {
  cones<<<(n + 127) / 128, 128>>>(kind, fanin, out, n);
  staged<<<(n + 127) / 128, 128>>>(w, from, fout, n);
  mixed<<<(n + 127) / 128, 128>>>(kind, fanin, out, n);
  twice_own<<<(n + 127) / 128, 128>>>(kind, out, n);
  reseated<<<(n + 127) / 128, 128>>>(kind, fanin, out, n);
}
