// Overloaded kernels (one name, two parameter lists) are each rewritten: their
// site infos add the kernel's position among the overloads so that they do not
// collide, and no sharing layout is offered (its kernel address would be
// ambiguous). A kernel in an anonymous namespace overloads one of its parent's.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
__global__ void k(int n, const int *B, const double *A, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
__global__ void rho(int n, const int *nb, const float *mass, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float r = 0.f;
  for (int j = 0; j < 8; ++j) r += mass[nb[j * n + t]];
  out[t] = r;
}
__global__ void rho(int n, const int *nb, const double *mass, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  double r = 0.;
  for (int j = 0; j < 8; ++j) r += mass[nb[j * n + t]];
  out[t] = r;
}
__global__ void g(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
namespace {
__global__ void g(int n, const int *B, const double *A, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
}
void run(int n, const int *B, const float *a, float *y, const double *d, double *z) {
  k<<<1, 32>>>(n, B, a, y);
  k<<<1, 32>>>(n, B, d, z);
  rho<<<1, 32>>>(n, B, a, y);
}

// CHECK: static const irregfix::SiteInfo __irregfix_site_k__0_0 = {"overloaded-kernels.cu:11:21", "k", "gather", irregfix::kSiteChunkable, nullptr, "A,B"};
// CHECK: static const irregfix::SiteInfo __irregfix_site_k__1_0 = {"overloaded-kernels.cu:15:21", "k", "gather", irregfix::kSiteChunkable, nullptr, "A,B"};
// CHECK: static const irregfix::SiteInfo __irregfix_site_rho__0_0 = {"overloaded-kernels.cu:21:36", "rho", "neighbors", irregfix::kSitePermutable | irregfix::kSiteChunkable, nullptr, "mass,nb"};
// CHECK: static const irregfix::SiteInfo __irregfix_site_rho__1_0 = {"overloaded-kernels.cu:28:36", "rho", "neighbors", irregfix::kSitePermutable | irregfix::kSiteChunkable, nullptr, "mass,nb"};
// CHECK: static const irregfix::SiteInfo __irregfix_site_g__0_0 = {"overloaded-kernels.cu:33:21", "g", "gather", irregfix::kSiteChunkable, nullptr, "A,B"};
// CHECK: static const irregfix::SiteInfo __irregfix_site_g__1_0 = {"overloaded-kernels.cu:38:21", "g", "gather", irregfix::kSiteChunkable, nullptr, "A,B"};
// CHECK: k_irregfix_launch(1, 32, 0, 0, n, B, a, y);
// CHECK: k_irregfix_launch(1, 32, 0, 0, n, B, d, z);
// CHECK: rho_irregfix_launch(1, 32, 0, 0, n, B, a, y);
// WHY: overloaded-kernels.cu:17:17: remark: no sharing layout for 'rho': its name is overloaded
// WHY: overloaded-kernels.cu:24:17: remark: no sharing layout for 'rho': its name is overloaded
