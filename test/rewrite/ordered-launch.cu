// A kernel without a site whose indirect reads the tool cannot copy (a
// cell-list traversal, its cell from the thread's own position) runs its
// threads in the locality order a site over as many threads computes: the
// kernel takes a View and works for logical_thread(v, p); its launcher checks
// every array it writes apart from every array it reads, then asks
// prepare_order. Kernels whose threads could see each other's writes, and
// files where no site computes an order, keep their kernels as they are.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: %irregfix --report %s -- %stub | FileCheck %s --check-prefix=REPORT
// REPORT: kernel=scan_cells pattern=order offsets=- arrays=- verdict=transformed threads=permutable launch=whole alias-checks=nb_count/pos,nb_count/cell_start,nb_count/cell_atoms,nb_list/pos,nb_list/cell_start,nb_list/cell_atoms,overflow/pos,overflow/cell_start,overflow/cell_atoms
// RUN: %irregfix %s -- %stub -DNO_SITE 2> %t.nosite.err | sed 's,//.*,,' | FileCheck %s --check-prefix=NOSITE
// RUN: FileCheck %s --check-prefix=NOSITE-REMARK --input-file=%t.nosite.err
#include <cuda_runtime.h>

#ifndef NO_SITE
// The site whose locality order the others share.
__global__ void forces(int n, const int *cnt, const int *nb, const float4 *pos, float4 *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    for (int j = 0; j < cnt[t]; ++j)
      s += pos[nb[j * n + t]].x;
    f[t].x = s;
  }
}
#endif

__device__ int cell_coord(float x, float scale, int cells) {
  const int c = static_cast<int>(x * scale);
  return c < 0 ? 0 : c >= cells ? cells - 1 : c;
}

__global__ void scan_cells(int n, const float4 *pos, const int *cell_start, const int *cell_atoms, float scale,
                           int cells, int *nb_count, int *nb_list, int *overflow) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const float4 p = pos[t];
    const int cx = cell_coord(p.x, scale, cells), cy = cell_coord(p.y, scale, cells);
    int found = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int c = ((cy + dy + cells) % cells) * cells + (cx + dx + cells) % cells;
        for (int k = cell_start[c]; k < cell_start[c + 1]; ++k) {
          const int q = cell_atoms[k];
          if (q != t && pos[q].z < p.z) {
            if (found < 8)
              nb_list[found * n + t] = q;
            ++found;
          }
        }
      }
    nb_count[t] = found < 8 ? found : 8;
    if (found > 8)
      atomicAdd(overflow, 1);
  }
}
// CHECK-LABEL: // irregfix: 'scan_cells' running its threads in a locality order; the original above is the fallback.
// CHECK-NEXT:  __global__ void scan_cells_irregfix(
// CHECK-NEXT:    int cells, int *nb_count, int *nb_list, int *overflow, irregfix::View __irregfix_v0) {
// CHECK-NEXT:    const long long __irregfix_p = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:    int t = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// CHECK:       static const irregfix::SiteInfo __irregfix_site_scan_cells_0 = {"ordered-launch.cu:34:17", "scan_cells", "order", irregfix::kSitePermutable, nullptr};
// CHECK:         if (irregfix::begin_launch(__irregfix_site_scan_cells_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_scan_cells_0, nb_count, pos) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_scan_cells_0, nb_count, cell_start) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_scan_cells_0, nb_count, cell_atoms) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_scan_cells_0, nb_list, pos) &&
// CHECK:             irregfix::disjoint(__irregfix_site_scan_cells_0, overflow, cell_atoms) &&
// CHECK-NEXT:        irregfix::prepare_order(__irregfix_site_scan_cells_0, &__irregfix_v0, __irregfix_stream)) {
// CHECK-NEXT:      scan_cells_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, pos, cell_start, cell_atoms, scale, cells, nb_count, nb_list, overflow, __irregfix_v0);
// CHECK-NEXT:      irregfix::end_transformed_launch(__irregfix_site_scan_cells_0, __irregfix_stream);
// REMARK: ordered-launch.cu:34:17: remark: threads of 'scan_cells' may run in a locality order that a site over as many threads computes (its indirect reads then fall near each other's); timed against the original

// It reads what it writes: another thread's store could be seen.
__global__ void reads_its_output(int n, const int *map, float *a) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    a[t] = a[map[t]] * 0.5f;
}
// CHECK-NOT: reads_its_output_irregfix
// REMARK-NOT: threads of 'reads_its_output' may run

void step(int n, const float4 *pos, const int *cell_start, const int *cell_atoms, int cells, int *nb_count,
          int *nb_list, int *overflow, const int *map, float *a, float4 *f) {
  scan_cells<<<(n + 255) / 256, 256>>>(n, pos, cell_start, cell_atoms, 0.5f, cells, nb_count, nb_list, overflow);
#ifndef NO_SITE
  forces<<<(n + 255) / 256, 256>>>(n, nb_count, nb_list, pos, f);
#endif
  reads_its_output<<<(n + 255) / 256, 256>>>(n, map, a);
}
// CHECK: scan_cells_irregfix_launch((n + 255) / 256, 256, 0, 0, n, pos, cell_start, cell_atoms, 0.5f, cells, nb_count, nb_list, overflow);

// Without a site, nothing computes an order: the file is left as it is.
// NOSITE-NOT: irregfix
// NOSITE: void step(
// NOSITE-NOT: irregfix
// NOSITE-REMARK-NOT: may run in a locality order
