// Cells of a 2-D grid numbered c = i + nx * j, each pure (one material) or
// mixed (a list of material fractions): the reads whose index comes from a
// value loaded at c (the material's table entry, the mixed cell's list bounds
// and the list itself) go to indexed sites laid out in c over nx * ny threads,
// their indices computed by 1-D generated kernels. The output compiles with
// nvcc and links against the runtime; with a GPU it gives the same bits as the
// original kernels (IRREGFIX_DISABLE=1) under the selector, under each forced
// layout (an indexed site takes ELL or SELL-32; the others fall back to those)
// and under IRREGFIX_VERIFY, with every kernel's launches transformed. A 3-D
// kernel (c = i + nx * j + nx * ny * k) runs beside them, and one over the
// interior cells only (1 <= i < nx - 1, 1 <= j < ny - 1, c = i + nx * j):
// its copies are laid out over nx * (ny - 1) positions, the border's computed
// but read by no thread.
// REQUIRES: nvcc
// RUN: %irregfix_real --report %s -o %t.cu > %t.report 2>&1 -- -I %S/Inputs
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.report
// RUN: %nvcc -I %S/Inputs -o %t.exe %t.cu %runtime_lib
// RUN: %if cuda-device %{ env IRREGFIX_DISABLE=1 %t.exe %t.original.bin %}
// RUN: %if cuda-device %{ %t.exe %t.auto.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.auto.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_STATS=1 %t.exe %t.ell.bin 2> %t.ell.stats %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.ell.bin %}
// RUN: %if cuda-device %{ FileCheck %s --check-prefix=RAN --input-file=%t.ell.stats %}
// RUN: %if cuda-device %{ not grep -E "launches transformed 0,|fallbacks [1-9]" %t.ell.stats %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32 %t.exe %t.sell.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sell.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=sell32s %t.exe %t.sigma.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.sigma.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=locality %t.exe %t.locality.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.locality.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=lanes %t.exe %t.lanes.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.lanes.bin %}
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1 %t.exe %t.verify.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.verify.bin %}

// REPORT-DAG: kernel=mixture_density pattern=indexed offsets=- arrays=start,start verdict=transformed
// REPORT-DAG: kernel=mixture_density pattern=indexed offsets=- arrays=frac,dens verdict=transformed
// REPORT-DAG: kernel=pure_pressure pattern=indexed offsets=- arrays=eos verdict=transformed
// REPORT-DAG: kernel=layered_density pattern=indexed offsets=- arrays=eos verdict=transformed
// REPORT-DAG: kernel=interior_mixture pattern=indexed offsets=- arrays=start,start verdict=transformed
// REPORT-DAG: kernel=interior_mixture pattern=indexed offsets=- arrays=frac,dens verdict=transformed
// REPORT-NOT: verdict=not-rewritten

// Each kernel ran on its copies (and none had 0 launches transformed).
// RAN-DAG: kernel mixture_density pattern indexed layout ell
// RAN-DAG: kernel pure_pressure pattern indexed layout ell
// RAN-DAG: kernel layered_density pattern indexed layout ell
// RAN-DAG: kernel interior_mixture pattern indexed layout ell

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

// kind[c] > 0: a pure cell of material kind[c]; kind[c] <= 0: mixed cell
// number -kind[c], whose fractions and densities are entries start[-kind[c]]
// up to start[-kind[c] + 1] of frac and dens.
__global__ void mixture_density(int nx, int ny, const int *kind, const int *start, const double *frac,
                                const double *dens, const double *vol, double *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= nx || j >= ny)
    return;
  int m = kind[i + nx * j];
  if (m > 0)
    return;
  double sum = 0.0;
  for (int e = start[-m]; e < start[-m + 1]; e++)
    sum += frac[e] * dens[e];
  out[i + nx * j] = sum / vol[i + nx * j];
}

// A pure cell's pressure from its material's equation-of-state coefficient.
__global__ void pure_pressure(int nx, int ny, const int *kind, const double *eos, const double *rho, double *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    int c = j * nx + i;
    int m = kind[c];
    if (m > 0)
      p[c] = eos[m - 1] * rho[c];
  }
}

// Three dimensions: a layered grid's cells, each reading its material's entry.
__global__ void layered_density(int nx, int ny, int nz, const int *kind, const double *eos, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < nx && j < ny && k < nz) {
    int c = i + nx * j + nx * ny * k;
    out[c] = 2.0 * eos[(kind[c] > 0 ? kind[c] : 1) - 1];
  }
}

// The mixed cells' densities away from the border: the x guard stops at
// nx - 1 while rows stay nx wide.
__global__ void interior_mixture(int nx, int ny, const int *kind, const int *start, const double *frac,
                                 const double *dens, double *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= nx - 1 || j >= ny - 1 || i < 1 || j < 1)
    return;
  int m = kind[i + nx * j];
  if (m > 0)
    return;
  double sum = 0.0;
  for (int e = start[-m]; e < start[-m + 1]; e++)
    sum += frac[e] * dens[e];
  out[i + nx * j] = sum;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  unsigned s = 77;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  auto value = [&] { return (rnd() % 4000) / 997.0 + 0.25; };

  // nx, ny not multiples of the block's 32 x 8; a cell in five is mixed, of
  // 2 to 6 materials; 9 materials.
  const int nx = 613, ny = 389, cells = nx * ny, materials = 9;
  std::vector<int> kind(cells), start{0};
  std::vector<double> frac, dens, vol(cells), rho(cells), eos(materials);
  for (int c = 0; c < cells; ++c) {
    vol[c] = value();
    rho[c] = value();
    if (rnd() % 5 != 0) {
      kind[c] = 1 + (int)(rnd() % materials);
      continue;
    }
    kind[c] = -(int)(start.size() - 1);
    for (int e = 2 + (int)(rnd() % 5); e > 0; --e) {
      frac.push_back(value() / 8.0);
      dens.push_back(value());
    }
    start.push_back((int)frac.size());
  }
  for (double &v : eos)
    v = value();
  int *d_kind = upload(kind), *d_start = upload(start);
  double *d_frac = upload(frac), *d_dens = upload(dens), *d_vol = upload(vol), *d_rho = upload(rho),
         *d_eos = upload(eos);
  double *d_out = nullptr, *d_p = nullptr, *d_layers = nullptr, *d_inner = nullptr;
  const int layered = 29 * 31 * (cells / (29 * 31));
  CHECK(cudaMalloc(&d_layers, layered * sizeof(double)));
  CHECK(cudaMalloc(&d_out, cells * sizeof(double)));
  CHECK(cudaMalloc(&d_p, cells * sizeof(double)));
  CHECK(cudaMalloc(&d_inner, cells * sizeof(double)));
  CHECK(cudaMemset(d_inner, 0, cells * sizeof(double)));
  CHECK(cudaMemset(d_out, 0, cells * sizeof(double)));
  CHECK(cudaMemset(d_p, 0, cells * sizeof(double)));

  FILE *out = std::fopen(argv[1], "wb");
  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
  for (int round = 0; round < 2; ++round) {
    for (int rep = 0; rep < 3; ++rep) {
      mixture_density<<<grid, block>>>(nx, ny, d_kind, d_start, d_frac, d_dens, d_vol, d_out);
      CHECK(cudaGetLastError());
      pure_pressure<<<grid, block>>>(nx, ny, d_kind, d_eos, d_rho, d_p);
      CHECK(cudaGetLastError());
      save(out, d_out, cells);
      save(out, d_p, cells);
      // The first 29 x 31 x 265 cells as a 3-D grid; its blocks reach past each bound.
      layered_density<<<dim3(4, 4, 67), dim3(8, 8, 4)>>>(29, 31, cells / (29 * 31), d_kind, d_eos, d_layers);
      CHECK(cudaGetLastError());
      save(out, d_layers, layered);
      interior_mixture<<<grid, block>>>(nx, ny, d_kind, d_start, d_frac, d_dens, d_inner);
      CHECK(cudaGetLastError());
      save(out, d_inner, cells);
    }
    // New densities and coefficients: the copies must be refreshed, not reused.
    for (double &v : dens)
      v = 2.0 * v - 0.5;
    for (double &v : eos)
      v *= -1.5;
    CHECK(cudaMemcpy(d_dens, dens.data(), dens.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_eos, eos.data(), eos.size() * sizeof(double), cudaMemcpyHostToDevice));
  }
  std::fclose(out);
  return 0;
}
