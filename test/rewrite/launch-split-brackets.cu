// A launch written with split brackets, as nvcc accepts it (`k << < g, b >> > (...)`),
// is parsed as `<<<`/`>>>` and rewritten; the text the tool does not rewrite
// keeps its spelling (another such launch, `operator<< <>`, `>> >` closing templates).
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
template <class T> struct Box;
template <class T> int operator<<(int o, const Box<T> &b);
template <class T> struct Box { friend int operator<< <>(int, const Box<T> &); };
template <class T> struct Wrap {};
Wrap<Wrap<Wrap<int>> > w;

__global__ void gather(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]];
}
__global__ void fill(int n, float *out) { out[0] = n; }

void run(int n, const int *idx, const float *a, float *out) {
  gather << < n / 64 + 1, 64 >> > (n, idx, a, out);
  fill << < 1, 1 >> > (n, out);
}

// CHECK:      template <class T> struct Box { friend int operator<< <>(int, const Box<T> &); };
// CHECK:      Wrap<Wrap<Wrap<int>> > w;
// CHECK-LABEL: void run(int n, const int *idx, const float *a, float *out) {
// CHECK:        gather_irregfix_launch(n / 64 + 1, 64, 0, 0, n, idx, a, out);
// CHECK:        fill << < 1, 1 >> > (n, out);
