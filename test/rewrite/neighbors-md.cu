// Molecular dynamics: neighbour-list gathers. Column-major lists with a per-atom
// count, row-major lists with a fixed width and a -1 sentinel, whole float4 and
// struct elements (two fields read: one 8-byte piece, not shared). The kernel keeps its loop; the read uses the loop variable.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void lj_forces(int n, const int *nb_count, const int *nb_list, const float4 *pos, float4 *force, float cutsq) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 pi = pos[t];
    float fx = 0.f;
    int cnt = nb_count[t];
    for (int j = 0; j < cnt; j++) {
      int q = nb_list[j * n + t];
      float4 pj = pos[q];
      float dx = pi.x - pj.x;
      if (dx * dx < cutsq)
        fx += dx;
    }
    force[t] = float4{fx, 0.f, 0.f, 0.f};
  }
}
// CHECK-LABEL: __global__ void lj_forces_irregfix(int n, const int *nb_count, const int *nb_list, const float4 *pos, float4 *force, float cutsq, irregfix::View __irregfix_v0, const float4 *__restrict__ __irregfix_v0_pos, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:      extern __shared__ __align__(16) unsigned char __irregfix_stage[];
// CHECK-NEXT:      irregfix::stage_shared(__irregfix_v0, __irregfix_v0_pos, __irregfix_stage, (blockIdx.x + __irregfix_block_offset));
// CHECK-NEXT:      const long long __irregfix_p = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:      int t = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// CHECK:           for (int j = 0; j < cnt; j++) {
// CHECK-NEXT:        {{\[\[}}maybe_unused{{\]\]}} int q = nb_list[j * n + t];
// CHECK-NEXT:        float4 pj = irregfix::read_shared(__irregfix_v0, __irregfix_v0_pos, __irregfix_stage, __irregfix_p, j);
// CHECK:       static const irregfix::SiteInfo __irregfix_site_lj_forces_0 = {"neighbors-md.cu:16:19", "lj_forces", "neighbors", irregfix::kSitePermutable | irregfix::kSiteChunkable | irregfix::kSiteShareable, (const void *)lj_forces_irregfix, "pos,nb_list,nb_count"};
// CHECK:         if (irregfix::begin_launch(__irregfix_site_lj_forces_0, __irregfix_stream, __irregfix_grid, __irregfix_block, __irregfix_shmem) &&
// CHECK:             irregfix::prepare_neighbors(__irregfix_site_lj_forces_0, nb_list, irregfix::index_kind(nb_list), (long long)(n), 1, 0, nb_count, irregfix::index_kind(nb_count), (long long)(n), pos, sizeof(*pos), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_lj_forces_0, __irregfix_stream, &__irregfix_chunks)) {
// CHECK:             lj_forces_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem + irregfix::shared_bytes(__irregfix_v0), __irregfix_stream>>>(n, nb_count, nb_list, pos, force, cutsq, __irregfix_v0, static_cast<const float4 *>(__irregfix_v0_out[0]), __irregfix_chunk.block_offset);

struct Atom { float x, y, z; int type; };

__global__ void density(int n, int width, const int *__restrict__ nb, const Atom *__restrict__ atoms, float *__restrict__ rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float r = 0;
  for (int j = 0; j < width; ++j) {
    int q = nb[t * width + j];
    if (q >= 0)
      r += atoms[q].x * atoms[q].y;
  }
  rho[t] = r;
}
// CHECK-LABEL: __global__ void density_irregfix(int n, int width, const int *__restrict__ nb, const Atom *__restrict__ atoms, float *__restrict__ rho, irregfix::View __irregfix_v0, const __irregfix_piece_density_0_atoms_0 *__restrict__ __irregfix_v0_atoms_piece0, const unsigned __irregfix_block_offset) {
// CHECK:           int q = nb[t * width + j];
// CHECK-NEXT:      if (q >= 0)
// CHECK-NEXT:        r += __irregfix_v0_atoms_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].x * __irregfix_v0_atoms_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].y;
// CHECK:         if (irregfix::begin_launch(__irregfix_site_density_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:             irregfix::prepare_neighbors_fields(__irregfix_site_density_0, nb, irregfix::index_kind(nb), 1, (long long)(width), (long long)(width), nullptr, irregfix::kIndexI32, (long long)(n), atoms, sizeof(*atoms), 1, __irregfix_site_density_0_atoms_pieces, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_density_0, __irregfix_stream, &__irregfix_chunks)) {
