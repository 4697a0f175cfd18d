// A minimal stand-in for cuda_runtime.h, so most tests parse without a CUDA
// installation (the tool is run with --cuda-path=<this dir>/.. -- -nocudainc).
#pragma once

#include <stddef.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
// As Clang's CUDA wrapper does (skipped under -nocudainc): device-only parts of
// headers, such as the irregfix runtime's sharing helpers, are seen.
#ifndef __CUDACC__
#define __CUDACC__
#endif

struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
struct float2 { float x, y; };
struct uint4 { unsigned x, y, z, w; };
struct float4 { float x, y, z, w; };
struct double4 { double x, y, z, w; };

#include "__clang_cuda_builtin_vars.h"

typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;
enum { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };

extern "C" int cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);

cudaError_t cudaMalloc(void **p, size_t n);
template <class T> cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t s = 0);
cudaError_t cudaMemset(void *dst, int v, size_t n);
cudaError_t cudaMemsetAsync(void *dst, int v, size_t n, cudaStream_t s = 0);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaThreadExit();
cudaError_t cudaStreamCreate(cudaStream_t *s);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetLastError();

// Copies and sets of every shape, symbols, launches and graphs: what the
// invalidation tests need to see.
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaExtent { size_t width, height, depth; };
struct cudaMemcpy3DParms { cudaPitchedPtr srcPtr, dstPtr; cudaExtent extent; cudaMemcpyKind kind; };
typedef struct CUgraphExec_st *cudaGraphExec_t;
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, cudaMemcpyKind k);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h,
                              cudaMemcpyKind k, cudaStream_t s = 0);
cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t n);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p);
cudaError_t cudaMemset2D(void *dst, size_t pitch, int v, size_t w, size_t h);
cudaError_t cudaMemset3D(cudaPitchedPtr p, int v, cudaExtent e);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset = 0,
                               cudaMemcpyKind k = cudaMemcpyHostToDevice);
template <class T>
cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t n, size_t offset = 0,
                               cudaMemcpyKind k = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, n, offset, k);
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset = 0,
                                 cudaMemcpyKind k = cudaMemcpyDeviceToHost);
cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem = 0, cudaStream_t s = 0);
cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                        cudaStream_t s = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t g, cudaStream_t s);
cudaError_t cudaEventRecord(struct CUevent_st *e, cudaStream_t s = 0);

__device__ void __syncthreads();
extern "C" __device__ float fmaxf(float a, float b);
extern "C" __device__ float fminf(float a, float b);
extern "C" __device__ float sqrtf(float a);
extern "C" __device__ float expf(float a);
extern "C" __device__ int printf(const char *format, ...);
__device__ int min(int a, int b);
__device__ unsigned min(unsigned a, unsigned b);
__device__ long long min(long long a, long long b);
__device__ int max(int a, int b);
__device__ unsigned max(unsigned a, unsigned b);
__device__ long long max(long long a, long long b);
__device__ float atomicAdd(float *p, float v);
__device__ int atomicAdd(int *p, int v);
__device__ double atomicAdd(double *p, double v);
__device__ int atomicSub(int *p, int v);
__device__ int atomicExch(int *p, int v);
__device__ float atomicExch(float *p, float v);
template <class T> __device__ T __ldg(const T *p) { return *p; }
__device__ float __shfl_down_sync(unsigned mask, float v, unsigned delta, int width = 32);
__device__ float __shfl_sync(unsigned mask, float v, int src_lane, int width = 32);
__device__ int __shfl_xor_sync(unsigned mask, int v, int lane_mask, int width = 32);
__device__ unsigned __shfl_xor_sync(unsigned mask, unsigned v, int lane_mask, int width = 32);
__device__ long long __shfl_xor_sync(unsigned mask, long long v, int lane_mask, int width = 32);
__device__ unsigned long long __shfl_xor_sync(unsigned mask, unsigned long long v, int lane_mask, int width = 32);
__device__ float __shfl_xor_sync(unsigned mask, float v, int lane_mask, int width = 32);
__device__ double __shfl_xor_sync(unsigned mask, double v, int lane_mask, int width = 32);
