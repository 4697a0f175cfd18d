// Which kernels a launch may run in chunks of blocks (a pipelined remap), both
// ways. A chunkable kernel takes the chunk's first block as a parameter and
// reads blockIdx.x + offset wherever its text reads blockIdx.x (also inside
// copied text: slots, the permuted thread index); its launcher runs it chunk by
// chunk and its SiteInfo says kSiteChunkable. Any other kernel is launched
// whole, and a remark says why.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

// The thread index inline, read in the guard, the loop bounds and the store.
__global__ void inline_index(int n, const int *B, const float *A, float *y) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n) {
    float s = 0;
    for (int k = B[blockIdx.x * blockDim.x + threadIdx.x]; k < B[blockIdx.x * blockDim.x + threadIdx.x + 1]; ++k)
      s += A[k];
    y[blockIdx.x * blockDim.x + threadIdx.x] = s;
  }
}
// CHECK-LABEL: __global__ void inline_index_irregfix(int n, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:    if ((blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x < n) {
// CHECK:           for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, ((blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x)); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:        s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, ((blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x), __irregfix_iter0)];
// CHECK-NEXT:      y[(blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x] = s;
// CHECK:       static const irregfix::SiteInfo __irregfix_site_inline_index_0 = {"chunkable.cu:15:5", "inline_index", "range", irregfix::kSiteChunkable, nullptr, "A,B"};
// CHECK:         int __irregfix_chunks = 0;
// CHECK:             irregfix::start_chunks(__irregfix_site_inline_index_0, __irregfix_stream, &__irregfix_chunks)) {
// CHECK-NEXT:      for (int __irregfix_c = 0; __irregfix_c < __irregfix_chunks; ++__irregfix_c) {
// CHECK-NEXT:        const irregfix::Chunk __irregfix_chunk = irregfix::launch_chunk(__irregfix_site_inline_index_0, __irregfix_c, __irregfix_grid, __irregfix_stream);
// CHECK-NEXT:        inline_index_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, y, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]), __irregfix_chunk.block_offset);
// CHECK-NEXT:      }
// CHECK-NEXT:      irregfix::end_transformed_launch(__irregfix_site_inline_index_0, __irregfix_stream);
// The original kernel, the fallback, runs whole.
// CHECK:         inline_index<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, y);

// Permutable and chunkable: the physical index gets the offset, once.
__global__ void both(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void both_irregfix(
// CHECK-NEXT:    const long long __irregfix_p = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:    int t = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// CHECK:       static const irregfix::SiteInfo __irregfix_site_both_0 = {"chunkable.cu:{{[0-9]+}}:5", "both", "range", irregfix::kSitePermutable | irregfix::kSiteChunkable | irregfix::kSiteLanes | irregfix::kSiteLanesInOrder, nullptr, "A,B"};
// WHY-NOT: launches of 'both'

__device__ bool first_block() { return blockIdx.x == 0; }
__global__ void callee_block(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]] + (first_block() ? 1.0f : 0.0f);
}
// WHY: remark: launches of 'callee_block' run whole (no remap overlapping the kernel): it calls 'first_block', which reads 'blockIdx'

__global__ void grid_stride(int n, const int *B, const float *A, float *y) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x)
    y[t] = A[B[t]];
}
// WHY: remark: launches of 'grid_stride' run whole (no remap overlapping the kernel): it reads 'gridDim'
// CHECK-LABEL: __global__ void grid_stride_irregfix(int n, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A) {
// CHECK:       static const irregfix::SiteInfo __irregfix_site_grid_stride_0 = {"chunkable.cu:{{[0-9]+}}:12", "grid_stride", "gather", 0, nullptr, "A,B"};
// CHECK-NOT:     start_chunks
// CHECK:         grid_stride_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, y, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]));

__global__ void two_d(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && blockIdx.y == 0) y[t] = A[B[t]];
}
// WHY: remark: launches of 'two_d' run whole (no remap overlapping the kernel): it uses 'blockIdx' other than as 'blockIdx.x'

#define BLOCK_X blockIdx.x
__global__ void macro_block(int n, const int *B, const float *A, float *y) {
  int t = BLOCK_X * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
// WHY: remark: launches of 'macro_block' run whole (no remap overlapping the kernel): it reads 'blockIdx' through a macro

__device__ float opaque(float);
__global__ void unseen(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = opaque(A[B[t]]);
}
// A callee whose body is not visible may write anything (A through a global
// pointer): the site is not transformed at all.
// WHY: remark: gather site in 'unseen' not transformed: the kernel may write memory the analysis cannot name: it calls 'opaque', whose body the analysis cannot see

__global__ void with_asm(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    asm volatile("" ::: "memory");
    y[t] = s;
  }
}
// WHY: remark: launches of 'with_asm' run whole (no remap overlapping the kernel): it contains inline assembly

void run(int n, const int *B, const float *A, float *y) {
  inline_index<<<n / 128 + 1, 128>>>(n, B, A, y);
  both<<<n / 128 + 1, 128>>>(n, B, A, y);
  callee_block<<<n / 128 + 1, 128>>>(n, B, A, y);
  grid_stride<<<n / 128 + 1, 128>>>(n, B, A, y);
  two_d<<<dim3(n / 128 + 1, 1), 128>>>(n, B, A, y);
  macro_block<<<n / 128 + 1, 128>>>(n, B, A, y);
  unseen<<<n / 128 + 1, 128>>>(n, B, A, y);
  with_asm<<<n / 128 + 1, 128>>>(n, B, A, y);
}
