// Indirect reads that fit none of irregfix's patterns, as real programs write
// them: the indexed strategy computes their indices in generated kernels and
// reads coalesced copies. Each case runs its kernel five times; between runs a
// source changes (data arrays and index arrays in turn), through cudaMemcpy.
// The outputs of all runs go to a file: the rewritten program must write
// exactly what the original writes, under every layout, with IRREGFIX_VERIFY=1.
//
//   shapes CASE OUT.bin     (shapes --list prints the cases)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                                     \
  do {                                                                                                  \
    cudaError_t e_ = (call);                                                                            \
    if (e_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "shapes: %s failed: %s (line %d)\n", #call, cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)

constexpr int kN = 4000;  // threads (rows, vertices, elements)
constexpr int kRuns = 5;

struct Span {
  int first;
  int count;
};

// Bounds from an array of structs; the thread index written with the block
// size the launches use.
__global__ void span_sum(const Span *spans, const int *items, const float *weight, float *out, int n) {
  int v = blockIdx.x * 256 + threadIdx.x;
  if (v < n) {
    float s = 0;
    for (int i = spans[v].first; i < spans[v].first + spans[v].count; i++) {
      int item = items[i];
      s += weight[item];
    }
    out[v] = s;
  }
}

// A row whose end is the total for the last thread; a nested gather.
__global__ void open_rows(const int *row, const int *col, const float *x, float *y, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n)
    return;
  int begin = row[r];
  int end = r + 1 < n ? row[r + 1] : m;
  float s = 0;
  for (int e = begin; e < end; e++) {
    if (col[e] == r) // the diagonal is skipped
      continue;
    s += x[col[e]];
  }
  y[r] = s;
}

// A chain of four loads.
__global__ void chain(const int *dst, const int *off, const int *adj, const float *eta, float *out, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n)
    out[e] = eta[adj[off[dst[e]] + 1]];
}

// Four neighbours a thread, -1 where there is none, two components of a
// structure of arrays at loop-invariant offsets of each neighbour.
__global__ void neighbours(const int *nbr, const float *var, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0;
  for (int j = 0; j < 4; j++) {
    int nb = nbr[i + j * n];
    if (nb >= 0)
      s += var[nb + 0 * n] * var[nb + 2 * n];
  }
  out[i] = s;
}

// No guard: the launch covers exactly the threads.
__global__ void unguarded(const int *idx, const int *map, const double *a, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = a[map[idx[t]]] * 2.0;
}

// Row and column given by a sequence of statements, the thread index through
// locals of a fixed block size (an image stencil numbered column by column).
__global__ void stencil(int rows, long cells, const int *north, const int *west, const float *img, float *out) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int e = bx * 128 + tx;
  int row;
  int col;
  row = (e + 1) % rows - 1;
  col = (e + 1) / rows;
  if ((e + 1) % rows == 0) {
    row = rows - 1;
    col = col - 1;
  }
  if (e < cells)
    out[e] = img[north[row] + rows * col] - img[row + rows * west[col]];
}

// A kernel template reading through a struct's fields and its template argument.
struct Pairs {
  const int *first;
  int count;
};
template <int Stride, class T>
__global__ void strided_pairs(Pairs p, const T *val, T *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < p.count)
    out[t] = val[p.first[t * Stride + 1]] + val[p.first[t * Stride]];
}

// A factor graph's edges in a grid-stride loop: each edge visits the edges of
// its variable, the variable's row bounds given by member functions of a
// by-value graph (one return statement each), edges of satisfied clauses skipped.
struct Factors {
  int *row;
  int *col;
  __device__ int start(int v) const { return row[v]; }
  __device__ int degree(int v) const { return row[v + 1] - start(v); }
};

__global__ void edge_products(Factors vars, const int *edge_var, const int *edge_clause, const int *sat,
                              const float *eta, float *out, int edges) {
  int threads = blockDim.x * gridDim.x;
  for (int e = threadIdx.x + blockIdx.x * blockDim.x; e < edges; e += threads) {
    if (sat[edge_clause[e]])
      continue;
    int j = edge_var[e];
    int first = vars.start(j);
    float p = 1.0f;
    for (int i = 0; i < vars.degree(j); i++)
      p *= 1.0f - 0.5f * eta[vars.col[first + i]];
    out[e] = p;
  }
}

// Four corners an element, read through a local pointer to the element's
// first (as finite-element codes write it), and the elements around each
// corner through a pointer to its row of a CSR list.
__global__ void corner_gather(const int *corners, const float *cx, const float *cy, float *out, int elements) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= elements)
    return;
  const int *const c = corners + 4 * e;
  int c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
  out[e] = (cx[c1] - cx[c0]) * (cy[c3] - cy[c2]) + cx[c2] * cy[c1];
}

__global__ void around_corner(const int *first, const int *elems, const float *val, float *out, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  const int count = first[v + 1] - first[v];
  const int *list = &elems[first[v]];
  float s = 0;
  for (int i = 0; i < count; ++i)
    s += val[list[i]];
  out[v] = s;
}

namespace {

unsigned seed = 2024;
int rnd(int m) {
  seed = seed * 1103515245u + 12345u;
  return static_cast<int>((seed >> 8) % static_cast<unsigned>(m));
}
float rndf() { return 0.25f + rnd(1000) / 1000.0f; }

template <class T> T *upload(const std::vector<T> &h) {
  T *d = nullptr;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T> void update(T *d, const std::vector<T> &h) {
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}
template <class T> void append(std::vector<float> &out, const T *d, int n) {
  std::vector<T> h(static_cast<size_t>(n));
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (T v : h)
    out.push_back(static_cast<float>(v));
}

// CSR rows of 0..12 entries over kN columns.
void csr(std::vector<int> &row, std::vector<int> &col, int n) {
  row.assign(1, 0);
  col.clear();
  for (int r = 0; r < n; ++r) {
    int len = rnd(13);
    for (int k = 0; k < len; ++k)
      col.push_back(rnd(n));
    row.push_back(static_cast<int>(col.size()));
  }
}

void run_span_sum(std::vector<float> &out) {
  std::vector<int> row, items;
  csr(row, items, kN);
  std::vector<Span> spans(kN);
  for (int v = 0; v < kN; ++v)
    spans[v] = {row[v], row[v + 1] - row[v]};
  std::vector<float> weight(kN);
  for (float &w : weight)
    w = rndf();
  Span *d_spans = upload(spans);
  int *d_items = upload(items);
  float *d_weight = upload(weight), *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, kN * sizeof(float)));
  for (int it = 0; it < kRuns; ++it) {
    span_sum<<<(kN + 255) / 256, 256>>>(d_spans, d_items, d_weight, d_out, kN);
    CHECK(cudaGetLastError());
    append(out, d_out, kN);
    if (it % 2 == 0) { // a data array changes
      for (float &w : weight)
        w *= 0.5f;
      update(d_weight, weight);
    } else { // an index array: the spans shrink
      for (Span &s : spans)
        s.count = s.count / 2;
      update(d_spans, spans);
    }
  }
}

void run_open_rows(std::vector<float> &out) {
  std::vector<int> row, col;
  csr(row, col, kN);
  const int m = row.back();
  row.pop_back(); // n offsets: the last row ends at m
  std::vector<float> x(kN);
  for (float &v : x)
    v = rndf();
  int *d_row = upload(row), *d_col = upload(col);
  float *d_x = upload(x), *d_y = nullptr;
  CHECK(cudaMalloc(&d_y, kN * sizeof(float)));
  for (int it = 0; it < kRuns; ++it) {
    open_rows<<<(kN + 127) / 128, 128>>>(d_row, d_col, d_x, d_y, kN, m);
    CHECK(cudaGetLastError());
    append(out, d_y, kN);
    if (it % 2 == 0) {
      for (float &v : x)
        v += 1.0f;
      update(d_x, x);
    } else {
      for (int &c : col)
        c = (c + 7) % kN;
      update(d_col, col);
    }
  }
}

void run_chain(std::vector<float> &out) {
  std::vector<int> dst(kN), off(kN), adj(2 * kN);
  for (int &v : dst)
    v = rnd(kN);
  for (int &v : off)
    v = rnd(2 * kN - 1);
  for (int &v : adj)
    v = rnd(kN);
  std::vector<float> eta(kN);
  for (float &v : eta)
    v = rndf();
  int *d_dst = upload(dst), *d_off = upload(off), *d_adj = upload(adj);
  float *d_eta = upload(eta), *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, kN * sizeof(float)));
  for (int it = 0; it < kRuns; ++it) {
    chain<<<(kN + 255) / 256, 256>>>(d_dst, d_off, d_adj, d_eta, d_out, kN);
    CHECK(cudaGetLastError());
    append(out, d_out, kN);
    if (it % 2 == 0) {
      for (float &v : eta)
        v *= 1.5f;
      update(d_eta, eta);
    } else {
      for (int &v : off)
        v = (v + 3) % (2 * kN - 1);
      update(d_off, off);
    }
  }
}

void run_neighbours(std::vector<float> &out) {
  std::vector<int> nbr(4 * kN);
  for (int &v : nbr)
    v = rnd(5) == 0 ? -1 : rnd(kN);
  std::vector<float> var(3 * kN);
  for (float &v : var)
    v = rndf();
  int *d_nbr = upload(nbr);
  float *d_var = upload(var), *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, kN * sizeof(float)));
  for (int it = 0; it < kRuns; ++it) {
    neighbours<<<(kN + 127) / 128, 128>>>(d_nbr, d_var, d_out, kN);
    CHECK(cudaGetLastError());
    append(out, d_out, kN);
    if (it % 2 == 0) {
      for (float &v : var)
        v -= 0.125f;
      update(d_var, var);
    } else {
      for (int &v : nbr)
        if (v >= 0 && rnd(3) == 0)
          v = -1;
      update(d_nbr, nbr);
    }
  }
}

void run_unguarded(std::vector<float> &out) {
  const int n = 256 * 16; // the launch's threads exactly
  std::vector<int> idx(n), map(kN);
  for (int &v : idx)
    v = rnd(kN);
  for (int &v : map)
    v = rnd(kN);
  std::vector<double> a(kN);
  for (double &v : a)
    v = rndf();
  int *d_idx = upload(idx), *d_map = upload(map);
  double *d_a = upload(a), *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(double)));
  for (int it = 0; it < kRuns; ++it) {
    unguarded<<<n / 256, 256>>>(d_idx, d_map, d_a, d_out);
    CHECK(cudaGetLastError());
    append(out, d_out, n);
    if (it % 2 == 0) {
      for (double &v : a)
        v *= 3.0;
      update(d_a, a);
    } else {
      for (int &v : idx)
        v = (v + 11) % kN;
      update(d_idx, idx);
    }
  }
}

void run_stencil(std::vector<float> &out) {
  const int rows = 64, cols = kN / rows;
  const long cells = static_cast<long>(rows) * cols;
  std::vector<int> north(rows), west(cols);
  for (int r = 0; r < rows; ++r)
    north[r] = r == 0 ? 0 : r - 1;
  for (int c = 0; c < cols; ++c)
    west[c] = c == 0 ? 0 : c - 1;
  std::vector<float> img(static_cast<size_t>(cells));
  for (float &v : img)
    v = rndf();
  int *d_north = upload(north), *d_west = upload(west);
  float *d_img = upload(img), *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, cells * sizeof(float)));
  for (int it = 0; it < kRuns; ++it) {
    stencil<<<(cells + 127) / 128, 128>>>(rows, cells, d_north, d_west, d_img, d_out);
    CHECK(cudaGetLastError());
    append(out, d_out, static_cast<int>(cells));
    if (it % 2 == 0) {
      for (float &v : img)
        v *= 0.75f;
      update(d_img, img);
    } else { // the neighbours wrap around
      north[0] = rows - 1;
      west[0] = cols - 1;
      update(d_north, north);
      update(d_west, west);
    }
  }
}

template <int Stride, class T> void run_strided_pairs_of(std::vector<float> &out) {
  std::vector<int> first(Stride * kN + 1);
  for (int &v : first)
    v = rnd(kN);
  std::vector<T> val(kN);
  for (T &v : val)
    v = static_cast<T>(rndf());
  int *d_first = upload(first);
  T *d_val = upload(val), *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, kN * sizeof(T)));
  for (int it = 0; it < kRuns; ++it) {
    strided_pairs<Stride><<<(kN + 255) / 256, 256>>>(Pairs{d_first, kN}, d_val, d_out);
    CHECK(cudaGetLastError());
    append(out, d_out, kN);
    if (it % 2 == 0) {
      for (T &v : val)
        v = v * static_cast<T>(2);
      update(d_val, val);
    } else {
      for (int &v : first)
        v = (v + 5) % kN;
      update(d_first, first);
    }
  }
}

void run_strided_pairs(std::vector<float> &out) {
  run_strided_pairs_of<2, float>(out);
  run_strided_pairs_of<3, double>(out);
}

void run_edge_products(std::vector<float> &out) {
  std::vector<int> row, col; // the edges of each of kN variables
  csr(row, col, kN);
  const int edges = static_cast<int>(col.size());
  std::vector<int> edge_var(edges), edge_clause(edges), sat(kN);
  for (int &v : edge_var)
    v = rnd(kN);
  for (int &c : edge_clause)
    c = rnd(kN);
  for (int &x : sat)
    x = rnd(4) == 0;
  std::vector<float> eta(edges);
  for (float &v : eta)
    v = rndf();
  Factors vars{upload(row), upload(col)};
  int *d_var = upload(edge_var), *d_clause = upload(edge_clause), *d_sat = upload(sat);
  float *d_eta = upload(eta), *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, edges * sizeof(float)));
  CHECK(cudaMemset(d_out, 0, edges * sizeof(float)));
  for (int it = 0; it < kRuns; ++it) {
    edge_products<<<64, 128>>>(vars, d_var, d_clause, d_sat, d_eta, d_out, edges);
    CHECK(cudaGetLastError());
    append(out, d_out, edges);
    if (it % 2 == 0) {
      for (float &v : eta)
        v *= 0.75f;
      update(d_eta, eta);
    } else {
      for (int &x : sat)
        x = rnd(4) == 0;
      update(d_sat, sat);
      for (int &v : edge_var)
        v = rnd(kN);
      update(d_var, edge_var);
    }
  }
}

void run_corners(std::vector<float> &out) {
  std::vector<int> corners(4 * kN);
  for (int &c : corners)
    c = rnd(kN);
  std::vector<float> cx(kN), cy(kN);
  for (int v = 0; v < kN; ++v) {
    cx[v] = rndf();
    cy[v] = rndf();
  }
  std::vector<int> first, elems;
  csr(first, elems, kN);
  int *d_corners = upload(corners), *d_first = upload(first), *d_elems = upload(elems);
  float *d_cx = upload(cx), *d_cy = upload(cy), *d_out = nullptr, *d_sum = nullptr;
  CHECK(cudaMalloc(&d_out, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_sum, kN * sizeof(float)));
  for (int it = 0; it < kRuns; ++it) {
    corner_gather<<<(kN + 127) / 128, 128>>>(d_corners, d_cx, d_cy, d_out, kN);
    around_corner<<<(kN + 127) / 128, 128>>>(d_first, d_elems, d_cx, d_sum, kN);
    CHECK(cudaGetLastError());
    append(out, d_out, kN);
    append(out, d_sum, kN);
    if (it % 2 == 0) {
      for (float &v : cx)
        v *= 1.25f;
      update(d_cx, cx);
    } else { // the corners and the lists change
      for (int &c : corners)
        c = (c + 13) % kN;
      update(d_corners, corners);
      for (int &e : elems)
        e = (e + 5) % kN;
      update(d_elems, elems);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  struct Case {
    const char *name;
    void (*run)(std::vector<float> &);
  };
  static const Case kCases[] = {{"span_sum", run_span_sum},
                                {"open_rows", run_open_rows},
                                {"chain", run_chain},
                                {"neighbours", run_neighbours},
                                {"unguarded", run_unguarded},
                                {"stencil", run_stencil},
                                {"strided_pairs", run_strided_pairs},
                                {"edge_products", run_edge_products},
                                {"corners", run_corners}};
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const Case &c : kCases)
      std::printf("%s\n", c.name);
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: shapes CASE OUT.bin | shapes --list\n");
    return 1;
  }
  const Case *which = nullptr;
  for (const Case &c : kCases)
    if (std::strcmp(argv[1], c.name) == 0)
      which = &c;
  if (!which) {
    std::fprintf(stderr, "shapes: unknown case '%s'\n", argv[1]);
    return 1;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    return 77;
  std::vector<float> out;
  which->run(out);
  FILE *f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(out.data(), sizeof(float), out.size(), f) != out.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "shapes: cannot write %s\n", argv[2]);
    return 1;
  }
  std::printf("shapes: %s: %zu values\n", which->name, out.size());
  return 0;
}
