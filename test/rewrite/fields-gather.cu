// A gather of structures read through two 8-byte fields: one 16-byte piece,
// the fields at their own alignment in it; the read redirected to the piece.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: %irregfix %s -- %stub 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

#include <cuda_runtime.h>

struct Sample { double value; float lo, hi; double weight; int tag; long long id; };

__global__ void weigh(int n, const int *__restrict__ pick, const Sample *__restrict__ s, double *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = s[pick[t]].value * (s[pick[t]].weight);
}
// REMARK: fields-gather.cu:[[@LINE-2]]:14: remark: 's' is copied as the fields the kernel reads, in 1 piece: {value, weight} (16 bytes); 16 of 40 bytes an element
// CHECK-LABEL: struct alignas(16) __irregfix_piece_weigh_0_s_0 { double value; double weight; };
// CHECK-NEXT:  static_assert(__builtin_offsetof(Sample, value) == 0, "irregfix: 'Sample' is laid out other than the tool computed");
// CHECK-NEXT:  static_assert(__builtin_offsetof(Sample, weight) == 16, "irregfix: 'Sample' is laid out other than the tool computed");
// CHECK-NEXT:  __global__ void weigh_irregfix(int n, const int *__restrict__ pick, const Sample *__restrict__ s, double *__restrict__ out, irregfix::View __irregfix_v0, const __irregfix_piece_weigh_0_s_0 *__restrict__ __irregfix_v0_s_piece0, const unsigned __irregfix_block_offset) {
// CHECK:             out[t] = __irregfix_v0_s_piece0[irregfix::gather_slot(__irregfix_v0, t)].value * (__irregfix_v0_s_piece0[irregfix::gather_slot(__irregfix_v0, t)].weight);
// CHECK:       static const irregfix::FieldPiece __irregfix_site_weigh_0_s_pieces[1] = {
// CHECK-NEXT:      {sizeof(__irregfix_piece_weigh_0_s_0), 2, {
// CHECK-NEXT:        {__builtin_offsetof(Sample, value), __builtin_offsetof(__irregfix_piece_weigh_0_s_0, value), 8},
// CHECK-NEXT:        {__builtin_offsetof(Sample, weight), __builtin_offsetof(__irregfix_piece_weigh_0_s_0, weight), 8}}}};
// CHECK:             irregfix::prepare_gather_fields(__irregfix_site_weigh_0, pick, irregfix::index_kind(pick), (long long)(n), s, sizeof(*s), 1, __irregfix_site_weigh_0_s_pieces, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK:             weigh_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, pick, s, out, __irregfix_v0, static_cast<const __irregfix_piece_weigh_0_s_0 *>(__irregfix_v0_out[0]), __irregfix_chunk.block_offset);
