// Structure elements read through a neighbour list: the copy holds only the
// fields the kernel reads, in aligned pieces (x, y, z, mass together, kind on
// its own), and the reads go to the pieces; an element read into a local whose
// fields alone are used is built from the pieces.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: %irregfix %s -- %stub 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

#include <cuda_runtime.h>

struct Body { float x, y, z, mass, vx, vy, vz; int kind; };

__global__ void gravity(int n, int m, const int *__restrict__ nb, const Body *__restrict__ bodies, float *__restrict__ ax) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float a = 0.f;
    for (int j = 0; j < m; ++j) {
      int q = nb[j * n + t];
      if (bodies[q].kind != 0)
        a += bodies[q].mass * (bodies[q].x + bodies[q].y + bodies[q].z);
    }
    ax[t] = a;
  }
}
// REMARK: fields-neighbors.cu:[[@LINE-6]]:11: remark: 'bodies' is copied as the fields the kernel reads, in 2 pieces: {x, y, z, mass} (16 bytes), {kind} (4 bytes); 20 of 32 bytes an element
// REMARK: remark: no sharing layout for 'gravity': its neighbour-list site reads structure fields through pieces

__global__ void nearest(int n, const int *__restrict__ count, const int *__restrict__ nb, const Body *__restrict__ bodies, float *__restrict__ best) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float d = 1e30f;
  for (int j = 0; j < count[t]; ++j) {
    Body other = bodies[nb[j * n + t]];
    float r = other.x * other.x + other.vx * other.vx;
    d = r < d ? r : d;
  }
  best[t] = d;
}
// REMARK: remark: 'bodies' is copied as the fields the kernel reads, in 1 piece: {x, vx} (8 bytes); 8 of 32 bytes an element
// CHECK-LABEL: // irregfix: 'gravity' reading its indirect arrays through coalesced copies; the original above is the fallback.
// CHECK-NEXT:  static_assert(sizeof(Body) == 32, "irregfix: 'Body' is laid out other than the tool computed");
// CHECK-NEXT:  struct alignas(16) __irregfix_piece_gravity_0_bodies_0 { float x; float y; float z; float mass; };
// CHECK-NEXT:  static_assert(__builtin_offsetof(Body, x) == 0, "irregfix: 'Body' is laid out other than the tool computed");
// CHECK:       static_assert(__builtin_offsetof(Body, mass) == 12, "irregfix: 'Body' is laid out other than the tool computed");
// CHECK-NEXT:  struct alignas(4) __irregfix_piece_gravity_0_bodies_1 { int kind; };
// CHECK-NEXT:  static_assert(__builtin_offsetof(Body, kind) == 28, "irregfix: 'Body' is laid out other than the tool computed");
// CHECK-NEXT:  __global__ void gravity_irregfix(int n, int m, const int *__restrict__ nb, const Body *__restrict__ bodies, float *__restrict__ ax, irregfix::View __irregfix_v0, const __irregfix_piece_gravity_0_bodies_0 *__restrict__ __irregfix_v0_bodies_piece0, const __irregfix_piece_gravity_0_bodies_1 *__restrict__ __irregfix_v0_bodies_piece1, const unsigned __irregfix_block_offset) {
// CHECK:             if (__irregfix_v0_bodies_piece1[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].kind != 0)
// CHECK-NEXT:          a += __irregfix_v0_bodies_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].mass * (__irregfix_v0_bodies_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].x + __irregfix_v0_bodies_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].y + __irregfix_v0_bodies_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].z);
// CHECK:       static const irregfix::SiteInfo __irregfix_site_gravity_0 = {"fields-neighbors.cu:18:11", "gravity", "neighbors", irregfix::kSitePermutable | irregfix::kSiteChunkable, nullptr, "bodies,nb"};
// CHECK-NEXT:  static const irregfix::FieldPiece __irregfix_site_gravity_0_bodies_pieces[2] = {
// CHECK-NEXT:      {sizeof(__irregfix_piece_gravity_0_bodies_0), 4, {
// CHECK-NEXT:        {__builtin_offsetof(Body, x), __builtin_offsetof(__irregfix_piece_gravity_0_bodies_0, x), 4},
// CHECK-NEXT:        {__builtin_offsetof(Body, y), __builtin_offsetof(__irregfix_piece_gravity_0_bodies_0, y), 4},
// CHECK-NEXT:        {__builtin_offsetof(Body, z), __builtin_offsetof(__irregfix_piece_gravity_0_bodies_0, z), 4},
// CHECK-NEXT:        {__builtin_offsetof(Body, mass), __builtin_offsetof(__irregfix_piece_gravity_0_bodies_0, mass), 4}}},
// CHECK-NEXT:      {sizeof(__irregfix_piece_gravity_0_bodies_1), 1, {
// CHECK-NEXT:        {__builtin_offsetof(Body, kind), __builtin_offsetof(__irregfix_piece_gravity_0_bodies_1, kind), 4}}}};
// CHECK:         const void *__irregfix_v0_out[2];
// CHECK:             irregfix::prepare_neighbors_fields(__irregfix_site_gravity_0, nb, irregfix::index_kind(nb), (long long)(n), 1, (long long)(m), nullptr, irregfix::kIndexI32, (long long)(n), bodies, sizeof(*bodies), 2, __irregfix_site_gravity_0_bodies_pieces, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK:             gravity_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, m, nb, bodies, ax, __irregfix_v0, static_cast<const __irregfix_piece_gravity_0_bodies_0 *>(__irregfix_v0_out[0]), static_cast<const __irregfix_piece_gravity_0_bodies_1 *>(__irregfix_v0_out[1]), __irregfix_chunk.block_offset);

// CHECK-LABEL: struct alignas(8) __irregfix_piece_nearest_0_bodies_0 { float x; float vx; };
// CHECK:           Body other = [&]() { Body __irregfix_e{}; __irregfix_e.x = __irregfix_v0_bodies_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].x; __irregfix_e.vx = __irregfix_v0_bodies_piece0[irregfix::neighbor_slot(__irregfix_v0, __irregfix_p, j)].vx; return __irregfix_e; }();
// CHECK-NEXT:      float r = other.x * other.x + other.vx * other.vx;
// CHECK:             irregfix::prepare_neighbors_fields(__irregfix_site_nearest_0, nb, irregfix::index_kind(nb), (long long)(n), 1, 0, count, irregfix::index_kind(count), (long long)(n), bodies, sizeof(*bodies), 1, __irregfix_site_nearest_0_bodies_pieces, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
