// Indexed sites over loop nests, strided loops and the launch's own numbering
// of its threads: a gather over the channels of a row in quads (two nested
// loops), the neighbours of a cell through a map of cells in a 2-D grid (two
// nested loops of inclusive bounds, indices from the global x and y indices),
// segments chosen by blockIdx.y, rows split across lanes in x of a 2-D block
// (a strided loop in a kernel template), a row read two elements at a time,
// a value offset by its column beside the cell's linear index, and ragged
// nests (two rows a thread; rows in a grid-stride loop in z, their entries
// across the lanes in y). Between rounds the data and the index arrays change. The output
// compiles with nvcc and links against the runtime; with a GPU it gives the
// same bits as the original kernels (IRREGFIX_DISABLE=1) under the selector,
// under each forced layout and under IRREGFIX_VERIFY. The stencil runs with
// blocks of 16 x 16 and of 32 x 8, 320 x 160 threads either way: a copy
// numbered as the launch is holds the launch's shape, which its key must hold.
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
// RUN: %if cuda-device %{ env IRREGFIX_LAYOUT=ell IRREGFIX_VERIFY=1 %t.exe %t.verify.bin %}
// RUN: %if cuda-device %{ cmp %t.original.bin %t.verify.bin %}

// REPORT-DAG: kernel=quads pattern=indexed offsets=- arrays=a verdict=transformed
// REPORT-DAG: kernel=around pattern=indexed offsets=- arrays=v verdict=transformed
// REPORT-DAG: kernel=segments pattern=indexed offsets=- arrays=in verdict=transformed
// REPORT-DAG: kernel=lane_rows pattern=indexed offsets=- arrays=val,x verdict=transformed
// REPORT-DAG: kernel=pairs pattern=indexed offsets=- arrays=a verdict=transformed
// REPORT-DAG: kernel=by_column pattern=indexed offsets=- arrays=table verdict=transformed
// REPORT-DAG: kernel=two_rows pattern=indexed offsets=- arrays=x verdict=transformed
// REPORT-DAG: kernel=entry_weights pattern=indexed offsets=- arrays=col,x,start,start verdict=transformed
// REPORT-NOT: verdict=not-rewritten

// RAN-DAG: kernel quads pattern indexed layout ell
// RAN-DAG: kernel around pattern indexed layout ell
// RAN-DAG: kernel segments pattern indexed layout ell
// RAN-DAG: kernel lane_rows pattern indexed layout ell
// RAN-DAG: kernel pairs pattern indexed layout ell
// RAN-DAG: kernel by_column pattern indexed layout ell
// RAN-DAG: kernel two_rows pattern indexed layout ell
// RAN-DAG: kernel entry_weights pattern indexed layout ell

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "e2e_support.h"

// Each thread sums the channels of its row of a, four at a time.
__global__ void quads(int n, int c, const int *rows, const double *a, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int r = rows[t];
  double s = 0;
  for (int q = 0; q < c / 4; ++q)
    for (int i = 0; i < 4; ++i)
      s += a[r * c + q * 4 + i] * (i + 1);
  out[t] = s;
}

// The eight neighbours of each inner cell, through a map of cells.
__global__ void around(int nx, int ny, const int *map, const double *v, double *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  double s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      if (dx == 0 && dy == 0)
        continue;
      s = s * 0.5 + v[map[(x + dx) + nx * (y + dy)]];
    }
  out[x + nx * y] = s;
}

// Each row of blocks gathers one segment.
__global__ void segments(int n, const int *first, const double *in, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int part = blockIdx.y;
  if (t < n)
    out[part * n + t] = in[first[part] + t] + part;
}

// A row a group of lanes in x, rows in y of the block.
template <int Lanes>
__global__ void lane_rows(int rows, const int *start, const int *col, const double *val, const double *x, double *y) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  if (r < rows) {
    double s = 0;
    for (int k = start[r] + threadIdx.x; k < start[r + 1]; k += Lanes)
      s += val[k] * x[col[k]];
    for (int o = Lanes / 2; o > 0; o /= 2)
      s += __shfl_down_sync(0xffffffff, s, o, Lanes);
    if (threadIdx.x == 0)
      y[r] = s;
  }
}

// A row read two elements at a time.
__global__ void pairs(int n, const int *start, const double *a, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    double s = 0;
    for (int k = start[t]; k < start[t + 1]; k += 2)
      s = s * 0.75 + a[k];
    out[t] = s;
  }
}

// Two rows a thread: the inner loop's bounds follow the outer loop's row (a
// ragged nest).
__global__ void two_rows(int n, const int *start, const int *col, const double *x, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n / 2) {
    double s = 0;
    for (int r = 2 * t; r < 2 * t + 2; ++r) {
      s *= 0.5;
      for (int k = start[r]; k < start[r + 1]; ++k)
        s += x[col[k]];
    }
    y[t] = s;
  }
}

// Rows in a grid-stride loop in z, each row's entries across the y lanes of
// the grid (both loops strided by the launch's dimensions, the inner one's
// bounds following the row).
__global__ void entry_weights(int n, const int *start, const int *col, const double *x, double *w) {
  for (int row = threadIdx.z + blockIdx.z * blockDim.z; row < n; row += gridDim.z * blockDim.z)
    for (int k = start[row] + threadIdx.y + blockIdx.y * blockDim.y; k < start[row + 1];
         k += gridDim.y * blockDim.y) {
      int c = col[k];
      w[k] = x[row] * x[c] + (start[c + 1] - start[c]);
    }
}

// A cell's entry offset by its column, beside the cell's linear index.
__global__ void by_column(int nx, int ny, const int *kind, const double *table, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    int c = nx * j + i;
    out[c] = table[kind[c] + i];
  }
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  unsigned s = 91;
  auto rnd = [&] { return s = s * 1664525u + 1013904223u; };
  auto value = [&] { return (rnd() % 4000) / 997.0 + 0.25; };

  // Rows of 0..11 entries; a grid of nx x ny cells not a multiple of the blocks.
  const int n = 5003, c = 36, nx = 301, ny = 157, cells = nx * ny, parts = 3;
  std::vector<int> rows(n), start{0}, col, map(cells), first(parts), kind(cells);
  for (int &r : rows)
    r = (int)(rnd() % n);
  for (int r = 0; r < n; ++r) {
    for (int e = (int)(rnd() % 12); e > 0; --e)
      col.push_back((int)(rnd() % n));
    start.push_back((int)col.size());
  }
  for (int &m : map)
    m = (int)(rnd() % cells);
  for (int &f : first)
    f = (int)(rnd() % n);
  for (int &k : kind)
    k = (int)(rnd() % (cells - nx));
  std::vector<double> a((size_t)n * c), v(cells), in(2 * n), val(col.size()), x(n), table(cells);
  for (auto *vec : {&a, &v, &in, &val, &x, &table})
    for (double &e : *vec)
      e = value();
  int *d_rows = upload(rows), *d_start = upload(start), *d_col = upload(col), *d_map = upload(map),
      *d_first = upload(first), *d_kind = upload(kind);
  double *d_a = upload(a), *d_v = upload(v), *d_in = upload(in), *d_val = upload(val), *d_x = upload(x),
         *d_table = upload(table);
  double *d_out = nullptr, *d_cells = nullptr, *d_parts = nullptr, *d_entries = nullptr;
  CHECK(cudaMalloc(&d_entries, col.size() * sizeof(double)));
  CHECK(cudaMemset(d_entries, 0, col.size() * sizeof(double)));
  CHECK(cudaMalloc(&d_out, n * sizeof(double)));
  CHECK(cudaMalloc(&d_cells, cells * sizeof(double)));
  CHECK(cudaMalloc(&d_parts, parts * n * sizeof(double)));
  CHECK(cudaMemset(d_out, 0, n * sizeof(double)));
  CHECK(cudaMemset(d_cells, 0, cells * sizeof(double)));

  FILE *out = std::fopen(argv[1], "wb");
  for (int round = 0; round < 2; ++round) {
    for (int rep = 0; rep < 3; ++rep) {
      quads<<<(n + 127) / 128, 128>>>(n, c, d_rows, d_a, d_out);
      CHECK(cudaGetLastError());
      save(out, d_out, n);
      // One grid of threads in blocks of two shapes: each launch its own copy.
      around<<<dim3(20, 10), dim3(16, 16)>>>(nx, ny, d_map, d_v, d_cells);
      CHECK(cudaGetLastError());
      save(out, d_cells, cells);
      around<<<dim3(10, 20), dim3(32, 8)>>>(nx, ny, d_map, d_v, d_cells);
      CHECK(cudaGetLastError());
      save(out, d_cells, cells);
      segments<<<dim3((n + 255) / 256, parts), 256>>>(n, d_first, d_in, d_parts);
      CHECK(cudaGetLastError());
      save(out, d_parts, parts * n);
      lane_rows<8><<<(n + 7) / 8, dim3(8, 8)>>>(n, d_start, d_col, d_val, d_x, d_out);
      CHECK(cudaGetLastError());
      save(out, d_out, n);
      pairs<<<(n + 255) / 256, 256>>>(n, d_start, d_val, d_out);
      CHECK(cudaGetLastError());
      save(out, d_out, n);
      by_column<<<dim3((nx + 31) / 32, (ny + 7) / 8), dim3(32, 8)>>>(nx, ny, d_kind, d_table, d_cells);
      CHECK(cudaGetLastError());
      save(out, d_cells, cells);
      two_rows<<<(n / 2 + 127) / 128, 128>>>(n, d_start, d_col, d_x, d_out);
      CHECK(cudaGetLastError());
      save(out, d_out, n);
      // Fewer threads in z than rows: each walks several.
      entry_weights<<<dim3(1, 2, 40), dim3(1, 4, 16)>>>(n, d_start, d_col, d_x, d_entries);
      CHECK(cudaGetLastError());
      save(out, d_entries, col.size());
    }
    // New data and a new map: the copies must be refreshed, not reused.
    for (auto *vec : {&a, &v, &val, &table, &x})
      for (double &e : *vec)
        e = 2.0 * e - 0.5;
    for (int &m : map)
      m = (m + 7) % cells;
    CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_v, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_val, val.data(), val.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_table, table.data(), table.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_map, map.data(), map.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_x, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice));
    // Other columns: an index array changes.
    for (int &e : col)
      e = (e + 3) % n;
    CHECK(cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
  }
  std::fclose(out);
  return 0;
}
