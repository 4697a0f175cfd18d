// An index array read through a local pointer into it: `v[c]` with
// `v = tets + 4 * e` is tets[4 * e + c], and the reads it indexes are gathers
// like any other. The index kernels read the array at the sum of the offsets
// (`&at[base]` and a pointer into a pointer count too); a loop over a row
// reached through such a pointer is a loop site, and `&corners[first[g]]`
// that starts the pointer is no read of its own. A pointer into the data
// array at a gathered element (`&val[at[t]]`) reads it at at[t] + c.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err --implicit-check-not="not transformed" --implicit-check-not="not rewritten"
// RUN: %irregfix --report %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

// Four vertices an element, their coordinates gathered.
__global__ void tet_volume(const int *tets, const double *px, const double *py, double *vol, int elements) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= elements)
    return;
  const int *const v = tets + 4 * e;
  int a = v[0], b = v[1], c = v[2], d = v[3];
  vol[e] = (px[b] - px[a]) * (py[d] - py[c]);
}
// WHY: remark: indexed site in 'tet_volume' transformed: 'px' at 'b', 'px' at 'a', 'py' at 'd', 'py' at 'c'
// CHECK: irregfix::checked_load(tets, (long long)((long long)(4 * ((int)__irregfix_t)) + (long long)(1)), __irregfix_x, 0, __irregfix_ok)
// CHECK: irregfix::checked_load(tets, (long long)((long long)(4 * ((int)__irregfix_t)) + (long long)(0)), __irregfix_x, 0, __irregfix_ok)

// A pointer taken with & (not const), and a second one into the first.
__global__ void edge_ends(const int *edges, const float *h, float *drop, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const int *pair = &edges[2 * t];
    const int *second = pair + 1;
    drop[t] = h[*pair] - h[second[0]];
  }
}
// WHY: remark: indexed site in 'edge_ends' transformed: 'h' at '*pair', 'h' at 'second[0]'
// CHECK: irregfix::checked_load(edges, (long long)((long long)(2 * ((int)__irregfix_t)) + (long long)(0)), __irregfix_x, 0, __irregfix_ok)
// CHECK: irregfix::checked_load(edges, (long long)((long long)(2 * ((int)__irregfix_t)) + (long long)((long long)(1) + (long long)(0))), __irregfix_x, 0, __irregfix_ok)

// A row of a CSR list reached through a pointer to its first entry.
__global__ void corner_sum(const int *first, const int *corners, const float *f, float *out, int nodes) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= nodes)
    return;
  const int count = first[g + 1] - first[g];
  const int *list = &corners[first[g]];
  float s = 0;
  for (int i = 0; i < count; ++i)
    s += f[list[i]];
  out[g] = s;
}
// WHY: remark: indexed site in 'corner_sum' transformed: 'f' at 'list[i]'
// CHECK: irregfix::checked_load(corners, (long long)((long long)(irregfix::checked_load(first, (long long)(((int)__irregfix_t)), __irregfix_x, 1, __irregfix_ok)) + (long long)(((int)(__irregfix_first + __irregfix_iter)))), __irregfix_x, 0, __irregfix_ok)

// A pointer to a gathered element: its reads are the array's at B[t] + c.
__global__ void neighbour_pair(const int *at, const float *val, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const float *p = &val[at[t]];
    out[t] = p[0] - p[1];
  }
}
// WHY: remark: indexed site in 'neighbour_pair' transformed: 'val' at 'at[t] + 0', 'val' at 'at[t] + 1'
// CHECK: (long long)((long long)(irregfix::checked_load(at, (long long)(((int)__irregfix_t)), __irregfix_x, 0, __irregfix_ok)) + (long long)(1))
// The report gives each read's element in the array: the pointer's offset and its subscript.
// REPORT: read kernel=neighbour_pair array=val index="at[t] + 0" pattern=indexed verdict=rewritten
// REPORT: read kernel=neighbour_pair array=val index="at[t] + 1" pattern=indexed verdict=rewritten

void run(const int *tets, const double *px, const double *py, double *vol, int elements, const int *edges,
         const float *h, float *drop, int n, const int *first, const int *corners, const float *f, float *out) {
  tet_volume<<<(elements + 127) / 128, 128>>>(tets, px, py, vol, elements);
  edge_ends<<<(n + 127) / 128, 128>>>(edges, h, drop, n);
  corner_sum<<<(n + 127) / 128, 128>>>(first, corners, f, out, n);
  neighbour_pair<<<(n + 127) / 128, 128>>>(first, f, out, n);
}
