// Loop bounds computed by small functions: a member function of a by-value
// graph (`g.degree(v)` returning `off[v + 1] - off[v]`), a free function given
// the graph by const reference, and one given the offsets array. Each is read
// through its one return statement, in the site's analysis and in the index
// kernels (every load of the body checked). Refused: a member function called
// on a graph in memory (`p->degree(v)`), and a function of two statements.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
// RUN: %irregfix --report %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=REPORT
// The reads in the small functions themselves are indirect where a call gives
// them a loaded value (`g.degree(dst[t])`): reported, in the callee, with what
// keeps them from being rewritten there (a member function is not copied).
// REPORT: :22:47: read kernel=by_member function=degree array=off index="v + 1" pattern=gather verdict=not-rewritten reason="'degree' is a member function"
// REPORT: :25:55: read kernel=by_reference function=end_of array=g.off index="v + 1" pattern=gather verdict=not-rewritten

#include <cuda_runtime.h>

struct Graph {
  int *off;
  int *adj;
  __device__ int first(int v) const { return off[v]; }
  __device__ int degree(int v) const { return off[v + 1] - first(v); }
};

__device__ int end_of(const Graph &g, int v) { return g.off[v + 1]; }
__device__ int row_end(const int *off, int v) { return off[v + 1]; }
__device__ int two_statements(const int *off, int v) {
  int e = off[v + 1];
  return e;
}

__global__ void by_member(Graph g, int n, const int *dst, const float *w, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int v = dst[t];
    int start = g.off[v];
    float s = 0;
    for (int i = 0; i < g.degree(v); i++)
      s += w[g.adj[start + i]];
    out[t] = s;
  }
}
// WHY: remark: indexed site in 'by_member' transformed: 'w' at 'g.adj[start + i]' read through coalesced copies over the loop's iterations
// CHECK-LABEL: static __global__ void by_member_irregfix_lengths
// CHECK:    const long long __irregfix_end = (long long)((irregfix::checked_load(g.off, (long long)(((irregfix::checked_load(dst, (long long)(((int)__irregfix_t)), __irregfix_x, 2, __irregfix_ok))) + 1), __irregfix_x, 1, __irregfix_ok) - (irregfix::checked_load(g.off, (long long)((((irregfix::checked_load(dst, (long long)(((int)__irregfix_t)), __irregfix_x, 2, __irregfix_ok))))), __irregfix_x, 1, __irregfix_ok))));

__global__ void by_reference(Graph g, int n, const int *dst, const float *w, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int v = dst[t];
    float s = 0;
    for (int k = g.off[v]; k < end_of(g, v); k++)
      s += w[g.adj[k]];
    out[t] = s;
  }
}
// WHY: remark: indexed site in 'by_reference' transformed: 'w' at 'g.adj[k]' read through coalesced copies over the loop's iterations
// CHECK-LABEL: static __global__ void by_reference_irregfix_lengths
// CHECK:    const long long __irregfix_end = (long long)((irregfix::checked_load(g.off, (long long)(((irregfix::checked_load(dst, (long long)(((int)__irregfix_t)), __irregfix_x, 2, __irregfix_ok))) + 1), __irregfix_x, 1, __irregfix_ok)));

__global__ void by_array(int n, const int *off, const int *dst, const float *w, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int v = dst[t];
    float s = 0;
    for (int k = off[v]; k < row_end(off, v); k++)
      s += w[k];
    out[t] = s;
  }
}
// WHY: remark: indexed site in 'by_array' transformed: 'w' at 'k' read through coalesced copies over the loop's iterations

__global__ void in_memory(const Graph *p, int n, const int *dst, const float *w, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int v = dst[t];
    float s = 0;
    for (int i = 0; i < p->degree(v); i++)
      s += w[i + v];
    out[t] = s;
  }
}
// WHY: remark: indirect read of 'w' in 'in_memory' not rewritten: the bounds of its loop cannot be computed outside the kernel: it calls 'degree' on an object the launch cannot name

__global__ void not_one_return(int n, const int *off, const int *dst, const float *w, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int v = dst[t];
    float s = 0;
    for (int k = off[v]; k < two_statements(off, v); k++)
      s += w[k];
    out[t] = s;
  }
}
// REPORT: read kernel=not_one_return array=w index="k" pattern=range verdict=not-rewritten reason="the bounds of its loop cannot be computed outside the kernel: it calls 'two_statements', which may read memory"
// WHY: remark: range2 site in 'not_one_return' not transformed: the loop bound is not off[t + 1]

void run(Graph g, const Graph *p, int n, const int *dst, const float *w, float *out) {
  by_member<<<n / 128 + 1, 128>>>(g, n, dst, w, out);
  by_reference<<<n / 128 + 1, 128>>>(g, n, dst, w, out);
  by_array<<<n / 128 + 1, 128>>>(n, g.off, dst, w, out);
  in_memory<<<n / 128 + 1, 128>>>(p, n, dst, w, out);
  not_one_return<<<n / 128 + 1, 128>>>(n, g.off, dst, w, out);
}
