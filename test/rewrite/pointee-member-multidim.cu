// Members of two and three dimensions inside the struct a pointer parameter
// points to are read as the flat arrays of their scalars: `lib->fanin[c][j]`
// of `int fanin[48][60]` is element c * 60 + j of the 2880 ints that start at
// the member. A gather through a loaded row, a loop over a row chosen by a
// loaded value, a member read as the index of another (a chain), and a
// three-dimensional member become indexed sites: the kernels read the copies
// at their slots, the index kernels compute the flat index with the strides
// of the member's type, and the launchers name each member by the pointer
// plus its offset, as a pointer to its first scalar.
// RUN: %irregfix %s -o %t.cu -- %stub 2> %t.err
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: FileCheck %s --input-file=%t.cu

#include <cuda_runtime.h>

struct Lib {
  int nodes[48];
  int fanin[48][60];
  float cube[8][4][16];
  float weight[512];
};

__global__ void pick_in_row(const Lib *lib, const int *cls, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = lib->fanin[cls[t]][t & 31];
}
// REMARK: remark: indexed site in 'pick_in_row' transformed: 'lib->fanin' at '(cls[t]) * 60 + (t & 31)' read through coalesced copies, their indices computed by generated kernels
// CHECK-LABEL: __global__ void pick_in_row_irregfix(const Lib *lib, const int *cls, int *out, int n, irregfix::View __irregfix_v0, const int *__restrict__ __irregfix_v0_lib_fanin_0) {
// CHECK:         out[t] = __irregfix_v0_lib_fanin_0[irregfix::slot(__irregfix_v0, t, 0)];
// CHECK:       static __global__ void pick_in_row_irregfix_indices0(
// CHECK:         const long long __irregfix_i = (long long)((long long)(irregfix::checked_load(cls, (long long)(((int)__irregfix_t)), __irregfix_x, 0, __irregfix_ok)) * 60 + (long long)(((int)__irregfix_t) & 31));
// CHECK:         const void *const __irregfix_arrays[1] = {reinterpret_cast<const int *>(reinterpret_cast<const char *>(lib) + __builtin_offsetof(Lib, fanin))};

__global__ void sum_row(const Lib *lib, const int *cls, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int c = cls[t], s = 0;
    for (int j = 0; j < lib->nodes[c]; ++j)
      s += lib->fanin[c][j];
    out[t] = s;
  }
}
// REMARK: remark: indexed site in 'sum_row' transformed: 'lib->fanin' at '(c) * 60 + (j)' read through coalesced copies over the loop's iterations, their indices computed by generated kernels
// CHECK-LABEL: __global__ void sum_row_irregfix(
// CHECK:         s += __irregfix_v{{[0-9]}}_lib_fanin_0[irregfix::slot(__irregfix_v{{[0-9]}}, t, (j - __irregfix_first{{[0-9]}}))];
// The loop's bound reads `lib->nodes`, a one-dimensional member, at the row.
// CHECK:       static __global__ void sum_row_irregfix_lengths1(
// CHECK:         const long long __irregfix_end = (long long)(irregfix::checked_load(lib->nodes, (long long)((irregfix::checked_load(cls,
// CHECK:       static __global__ void sum_row_irregfix_indices1(
// CHECK:         const long long __irregfix_i = (long long)((long long)((irregfix::checked_load(cls, (long long)(((int)__irregfix_t)), __irregfix_x, {{[0-9]}}, __irregfix_ok))) * 60 + (long long)(((int)(__irregfix_first + __irregfix_iter))));

// A two-dimensional member read in the index of another: the index kernel
// loads it at its flat index, from its first scalar.
__global__ void chain(const Lib *lib, const int *cls, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = lib->weight[lib->fanin[cls[t]][t & 7]];
}
// REMARK: remark: indexed site in 'chain' transformed: 'lib->weight' at 'lib->fanin[cls[t]][t & 7]' read through coalesced copies, their indices computed by generated kernels
// CHECK-LABEL: static __global__ void chain_irregfix_indices0(
// CHECK:         const long long __irregfix_i = (long long)(irregfix::checked_load(&lib->fanin[0][0], (long long)((long long)(irregfix::checked_load(cls, (long long)(((int)__irregfix_t)), __irregfix_x, 1, __irregfix_ok)) * 60 + (long long)(((int)__irregfix_t) & 7)), __irregfix_x, 0, __irregfix_ok));
// CHECK:         const void *const __irregfix_sources[2] = {reinterpret_cast<const int *>(reinterpret_cast<const char *>(lib) + __builtin_offsetof(Lib, fanin)), cls};

// Three dimensions: strides 4 * 16 and 16.
__global__ void corner(const Lib *lib, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = lib->cube[keys[t] & 7][t & 3][keys[t] >> 4];
}
// REMARK: remark: indexed site in 'corner' transformed: 'lib->cube' at '(keys[t] & 7) * 64 + (t & 3) * 16 + (keys[t] >> 4)' read through coalesced copies, their indices computed by generated kernels
// CHECK-LABEL: __global__ void corner_irregfix(
// CHECK:         out[t] = __irregfix_v0_lib_cube_0[irregfix::slot(__irregfix_v0, t, 0)];
// CHECK:         const long long __irregfix_i = (long long)((long long)(irregfix::checked_load(keys, {{.*}}) & 7) * 64 + (long long)(((int)__irregfix_t) & 3) * 16 + (long long)(irregfix::checked_load(keys, {{.*}}) >> 4));
// CHECK:         const void *const __irregfix_arrays[1] = {reinterpret_cast<const float *>(reinterpret_cast<const char *>(lib) + __builtin_offsetof(Lib, cube))};
// CHECK-LABEL: static void corner_irregfix_launch(
// CHECK-NEXT:    const auto *const __irregfix_lib_cube = reinterpret_cast<const float *>(reinterpret_cast<const char *>(lib) + __builtin_offsetof(Lib, cube));
// CHECK:             irregfix::disjoint(__irregfix_site_corner_0, out, __irregfix_lib_cube) &&

void run(const Lib *lib, const int *cls, int *out, float *fout, int n) {
  pick_in_row<<<(n + 127) / 128, 128>>>(lib, cls, out, n);
  sum_row<<<(n + 127) / 128, 128>>>(lib, cls, out, n);
  chain<<<(n + 127) / 128, 128>>>(lib, cls, fout, n);
  corner<<<(n + 127) / 128, 128>>>(lib, cls, fout, n);
}
// CHECK-LABEL: void run(const Lib *lib, const int *cls, int *out, float *fout, int n) {
// CHECK:         pick_in_row_irregfix_launch(
// CHECK:         corner_irregfix_launch(
