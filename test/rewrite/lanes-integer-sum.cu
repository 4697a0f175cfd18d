// A range loop that sums integers may run with several lanes a row: the tool
// writes rowsum_irregfix_lanes beside rowsum_irregfix, and the launcher runs
// it when the runtime's view is in the lanes layout. Each lane adds its part
// from 0, the parts are combined by shuffles, and lane 0 stores the row's sum.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: %irregfix --quiet --report %s -- %stub | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

__global__ void rowsum(int n, const int *B, const int *A, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    out[t] = s;
  }
}

// CHECK-LABEL: __global__ void rowsum_irregfix_lanes(int n, const int *B, const int *A, int *out, const irregfix::Lanes __irregfix_lanes) {
// CHECK-NEXT:    const long long __irregfix_g = irregfix::lanes_global_thread();
// CHECK-NEXT:    if (__irregfix_g >= irregfix::lanes_threads(__irregfix_lanes))
// CHECK-NEXT:      return;
// CHECK-NEXT:    const int __irregfix_lane = irregfix::lane_of(__irregfix_lanes, __irregfix_g);
// CHECK-NEXT:    int t = static_cast<int>(irregfix::row_of(__irregfix_lanes, __irregfix_g));
// CHECK-NEXT:    if (t < n) {
// CHECK-NEXT:      int s = 0;
// CHECK-NEXT:      { // several lanes a row, each with its part of the row's result
// CHECK-NEXT:      int __irregfix_part0_s = 0;
// CHECK-NEXT:      for (int k = (B[t]) + __irregfix_lane; k < B[t + 1]; k += __irregfix_lanes.lanes)
// CHECK-NEXT:        __irregfix_part0_s += A[k];
// CHECK-NEXT:      __irregfix_part0_s = irregfix::lanes_combine<irregfix::kLanesSum>(__irregfix_part0_s, __irregfix_lanes);
// CHECK-NEXT:      s += __irregfix_part0_s;
// CHECK-NEXT:      if (__irregfix_lane != 0) return; // lane 0 goes on
// CHECK-NEXT:      }
// CHECK-NEXT:      out[t] = s;
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// CHECK:       static const irregfix::SiteInfo __irregfix_site_rowsum_0 = {"lanes-integer-sum.cu:15:5", "rowsum", "range", irregfix::kSitePermutable | irregfix::kSiteChunkable | irregfix::kSiteLanes, nullptr, "A,B"};
// CHECK-NEXT:  // irregfix: launches rowsum_irregfix_lanes (several lanes a row) or rowsum_irregfix on remapped copies, as the runtime chooses, or the original kernel when it declines or times it faster.
// CHECK-NEXT:  static void rowsum_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const int *B, const int *A, int *out) {
// CHECK-NEXT:    irregfix::View __irregfix_v0;
// CHECK-NEXT:    const void *__irregfix_v0_out[1];
// CHECK-NEXT:    const void *const __irregfix_v0_src[1] = {A};
// CHECK-NEXT:    const size_t __irregfix_v0_size[1] = {sizeof(*A)};
// CHECK-NEXT:    int __irregfix_chunks = 0;
// CHECK-NEXT:    void *__irregfix_reference0 = nullptr;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_rowsum_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_rowsum_0, out, B) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_rowsum_0, out, A) &&
// CHECK-NEXT:        irregfix::prepare_range(__irregfix_site_rowsum_0, B, irregfix::index_kind(B), (long long)(n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_rowsum_0, __irregfix_stream, &__irregfix_chunks)) {
// CHECK-NEXT:      if (irregfix::runs_lanes(__irregfix_v0)) {
// CHECK-NEXT:        const irregfix::LanesLaunch __irregfix_lanes_launch = irregfix::lanes_launch(__irregfix_v0, __irregfix_grid, __irregfix_block);
// CHECK-NEXT:        irregfix::lanes_reference(__irregfix_site_rowsum_0, 0, out, sizeof(*out), irregfix::value_kind(out), irregfix::lanes_rows(__irregfix_lanes_launch, (long long)(n)), &__irregfix_reference0, __irregfix_stream);
// CHECK-NEXT:        rowsum_irregfix_lanes<<<__irregfix_lanes_launch.grid, __irregfix_lanes_launch.block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, out, __irregfix_lanes_launch.lanes);
// CHECK-NEXT:      } else {
// CHECK-NEXT:        for (int __irregfix_c = 0; __irregfix_c < __irregfix_chunks; ++__irregfix_c) {
// CHECK-NEXT:          const irregfix::Chunk __irregfix_chunk = irregfix::launch_chunk(__irregfix_site_rowsum_0, __irregfix_c, __irregfix_grid, __irregfix_stream);
// CHECK-NEXT:          rowsum_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, out, __irregfix_v0, static_cast<const int *>(__irregfix_v0_out[0]), __irregfix_chunk.block_offset);
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      irregfix::end_transformed_launch(__irregfix_site_rowsum_0, __irregfix_stream);
// CHECK-NEXT:      if (__irregfix_reference0) {
// CHECK-NEXT:        rowsum<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, static_cast<int *>(__irregfix_reference0));
// CHECK-NEXT:        irregfix::lanes_compare(__irregfix_site_rowsum_0, __irregfix_stream);
// CHECK-NEXT:      }
// CHECK-NEXT:      return;
// CHECK-NEXT:    }
// CHECK-NEXT:    rowsum<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, out);
// CHECK-NEXT:    irregfix::end_original_launch(__irregfix_site_rowsum_0, __irregfix_stream);
// CHECK-NEXT:  }

void run(int n, const int *B, const int *A, int *out) { rowsum<<<(n + 255) / 256, 256>>>(n, B, A, out); }

// REMARK: remark: range site in 'rowsum' transformed: 'A' read through a coalesced copy indexed by 'B'
// REMARK: remark: threads of 'rowsum' may be permuted (SELL-32-sigma regroups rows by length)
// REMARK: lanes-integer-sum.cu:15:5: remark: rows of 'rowsum' may run with several lanes each (warp-cooperative rows: sum of 's' combined by shuffles; exact in any order)
// REMARK: remark: cached copies are dropped whenever 'run' is entered from another file

// REPORT: lanes-integer-sum.cu:15:5: kernel=rowsum pattern=range offsets=B arrays=A verdict=transformed threads=permutable launch=chunked alias-checks=out/B,out/A lanes=exact
