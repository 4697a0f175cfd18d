// One-level gather A[B[t]], read twice (two fields: one 8-byte piece); restrict pointers need no alias check.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

struct Particle { float x, y, z, m; };

__global__ void pull(int n, const int *__restrict__ idx, const Particle *__restrict__ p, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = p[idx[t]].x * p[idx[t]].m;
}
// CHECK-LABEL: __global__ void pull_irregfix(int n, const int *__restrict__ idx, const Particle *__restrict__ p, float *__restrict__ out, irregfix::View __irregfix_v0, const __irregfix_piece_pull_0_p_0 *__restrict__ __irregfix_v0_p_piece0, const unsigned __irregfix_block_offset) {
// CHECK:           out[t] = __irregfix_v0_p_piece0[irregfix::gather_slot(__irregfix_v0, t)].x * __irregfix_v0_p_piece0[irregfix::gather_slot(__irregfix_v0, t)].m;
// CHECK:       static const irregfix::SiteInfo __irregfix_site_pull_0 = {"gather.cu:11:14", "pull", "gather", irregfix::kSiteChunkable, nullptr, "p,idx"};
// CHECK:         irregfix::View __irregfix_v0;
// CHECK-NEXT:    const void *__irregfix_v0_out[1];
// CHECK-NEXT:    int __irregfix_chunks = 0;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_pull_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::prepare_gather_fields(__irregfix_site_pull_0, idx, irregfix::index_kind(idx), (long long)(n), p, sizeof(*p), 1, __irregfix_site_pull_0_p_pieces, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_pull_0, __irregfix_stream, &__irregfix_chunks)) {
// CHECK-NEXT:      for (int __irregfix_c = 0; __irregfix_c < __irregfix_chunks; ++__irregfix_c) {
// CHECK-NEXT:        const irregfix::Chunk __irregfix_chunk = irregfix::launch_chunk(__irregfix_site_pull_0, __irregfix_c, __irregfix_grid, __irregfix_stream);
// CHECK-NEXT:      pull_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, idx, p, out, __irregfix_v0, static_cast<const __irregfix_piece_pull_0_p_0 *>(__irregfix_v0_out[0]), __irregfix_chunk.block_offset);

void go(int n, const int *idx, const Particle *p, float *out) { pull<<<n / 64 + 1, 64>>>(n, idx, p, out); }
// CHECK: void go(int n, const int *idx, const Particle *p, float *out) { irregfix::EntryGuard __irregfix_entry("gather.cu:26"); irregfix_invalidate(out);
// CHECK-NEXT: pull_irregfix_launch(n / 64 + 1, 64, 0, 0, n, idx, p, out); }
