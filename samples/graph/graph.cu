// Graph analytics over long adjacency lists: connected components by
// min-label propagation, breadth-first search levels (pulled: a vertex looks
// for a neighbour on the frontier) and, per vertex, the neighbours that rank
// above it by degree (the orientation step of triangle counting). Each of the
// three kernels reads its vertex's list as a CSR range and reduces it into an
// integer: a min, a flag, a count. A thread a vertex reads a list of about
// a thousand ids in a chain; irregfix's lanes variant spreads a list over up
// to 32 lanes and combines them by shuffles, with the same bits (integer
// min, or and + are exact in any order).
//
// Every round runs the degree count, BFS from one source to its last level
// and connected components to convergence, each in ping-pong buffers; a
// kernel with an integer atomic counts what changed. Deterministic: the
// original and the irregfix-transformed programs give bitwise-identical
// labels, levels and counts.
//
//   graph [--vertices N] [--degree D] [--cluster C] [--rounds R] [--seed S]
//         [--dump FILE] [--time-kernels]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "graph_gen.h"

#define SAMPLE_NAME "graph"
#include "../common/sample_support.cuh"

static const int kBlock = 256;

// next[v] = the least label over v and its neighbours.
__global__ void cc_pull(int n, const int *offsets, const int *adj, const int *label, int *next) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int least = label[v];
    for (int k = offsets[v]; k < offsets[v + 1]; ++k)
      least = min(least, label[adj[k]]);
    next[v] = least;
  }
}

// A vertex not reached yet (level -1) with a neighbour on the frontier
// (level depth) is at depth + 1.
__global__ void bfs_pull(int n, const int *offsets, const int *adj, const int *level, int depth, int *next) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int mine = level[v];
    if (mine < 0) {
      int found = 0;
      for (int k = offsets[v]; k < offsets[v + 1]; ++k)
        if (level[adj[k]] == depth)
          found = 1;
      if (found)
        mine = depth + 1;
    }
    next[v] = mine;
  }
}

// above[v] = the neighbours u of v with (degree[u], u) > (degree[v], v).
__global__ void rank_above(int n, const int *offsets, const int *adj, const int *degree, int *above) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int mine = degree[v];
    int count = 0;
    for (int k = offsets[v]; k < offsets[v + 1]; ++k) {
      int u = adj[k];
      if (degree[u] > mine || (degree[u] == mine && u > v))
        count++;
    }
    above[v] = count;
  }
}

__global__ void list_lengths(int n, const int *offsets, int *degree) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) degree[v] = offsets[v + 1] - offsets[v];
}

// *changed += the vertices whose value differs (an integer count: the same
// whatever the order).
__global__ void count_changes(int n, const int *before, const int *after, int *changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && before[v] != after[v]) atomicAdd(changed, 1);
}

__global__ void init_labels(int n, int *label) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) label[v] = v;
}

__global__ void init_levels(int n, int source, int *level) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) level[v] = v == source ? 0 : -1;
}

namespace {

struct Options {
  int vertices = 16384;
  int degree = 1000;
  int cluster = 2048;
  int rounds = 10;
  unsigned long long seed = 1;
  std::string dump;
  bool time_kernels = false;
};

void usage(FILE *f) {
  std::fprintf(f,
               "usage: graph [--vertices N] [--degree D] [--cluster C] [--rounds R] [--seed S]\n"
               "             [--dump FILE] [--time-kernels]\n"
               "  --vertices N    vertices (default 16384)\n"
               "  --degree D      mean list length (default 1000)\n"
               "  --cluster C     vertices a cluster, each a component (default 2048)\n"
               "  --rounds R      rounds of degree count, BFS and components (default 10)\n"
               "  --seed S        the graph's seed (default 1)\n"
               "  --dump FILE     write the last round's labels, levels and counts (raw ints)\n"
               "  --time-kernels  time every launch of the three list kernels (CUDA events)\n");
}

Options parse(int argc, char **argv) {
  Options o;
  sample::parse_args(argc, argv, usage, [&](const std::string &a, auto value) {
    if (a == "--vertices") o.vertices = static_cast<int>(sample::parse_int(a, value(), 1, 1 << 24));
    else if (a == "--degree") o.degree = static_cast<int>(sample::parse_int(a, value(), 0, 1 << 16));
    else if (a == "--cluster") o.cluster = static_cast<int>(sample::parse_int(a, value(), 1, 1 << 20));
    else if (a == "--rounds") o.rounds = static_cast<int>(sample::parse_int(a, value(), 1, 100000));
    else if (a == "--seed") o.seed = static_cast<unsigned long long>(sample::parse_int(a, value(), 0, 1LL << 62));
    else if (a == "--dump") o.dump = value();
    else if (a == "--time-kernels") o.time_kernels = true;
    else return false;
    return true;
  });
  if (static_cast<long long>(o.vertices) * o.degree > (1LL << 30))
    sample::bad("--vertices times --degree must stay under 2^30 list entries");
  return o;
}

// Events around the launches of one kernel, as many as it runs; read once at the end.
class KernelTimes {
public:
  explicit KernelTimes(bool on) : on_(on) {}
  void before() {
    if (!on_) return;
    ev_.emplace_back();
    CUDA_CHECK(cudaEventCreate(&ev_.back().first));
    CUDA_CHECK(cudaEventCreate(&ev_.back().second));
    CUDA_CHECK(cudaEventRecord(ev_.back().first));
  }
  void after() {
    if (on_) CUDA_CHECK(cudaEventRecord(ev_.back().second));
  }
  // "KERNEL: median M ms over N launches (min A, max B)".
  void print(const char *kernel) {
    if (ev_.empty()) return;
    std::vector<float> t;
    for (auto &e : ev_) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, e.first, e.second));
      t.push_back(ms);
      CUDA_CHECK(cudaEventDestroy(e.first));
      CUDA_CHECK(cudaEventDestroy(e.second));
    }
    ev_.clear();
    std::printf("%s: median %.4f ms over %zu launches (min %.4f, max %.4f)\n", kernel, sample::median(t), t.size(),
                *std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end()));
  }

private:
  bool on_;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> ev_;
};

int *device_ints(size_t count) {
  int *p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, (count > 0 ? count : 1) * sizeof(int)));
  return p;
}

int run(const Options &opt) {
  const graphgen::Graph g = graphgen::clustered(opt.vertices, opt.cluster, opt.degree, opt.seed);
  const graphgen::Degrees d = graphgen::degrees(g);
  const int n = g.n;
  std::printf("vertices: %d  edges: %zu  list length: min %d, avg %.1f, max %d\n", n, g.adj.size() / 2, d.min,
              d.mean, d.max);

  int *d_offsets = device_ints(g.offsets.size()), *d_adj = device_ints(g.adj.size());
  CUDA_CHECK(cudaMemcpy(d_offsets, g.offsets.data(), g.offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_adj, g.adj.data(), g.adj.size() * sizeof(int), cudaMemcpyHostToDevice));
  int *d_degree = device_ints(n), *d_above = device_ints(n), *d_changed = device_ints(1);
  int *d_label[2] = {device_ints(n), device_ints(n)}, *d_level[2] = {device_ints(n), device_ints(n)};
  const int grid = (n + kBlock - 1) / kBlock;
  KernelTimes cc_times(opt.time_kernels), bfs_times(opt.time_kernels), rank_times(opt.time_kernels);

  // What changed between two buffers.
  auto changes = [&](const int *before, const int *after) {
    CUDA_CHECK(cudaMemset(d_changed, 0, sizeof(int)));
    count_changes<<<grid, kBlock>>>(n, before, after, d_changed);
    int h = 0;
    CUDA_CHECK(cudaMemcpy(&h, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    return h;
  };

  sample::RunTimer timer;
  timer.begin();
  int label_at = 0, level_at = 0, depth = 0, cc_steps = 0;
  list_lengths<<<grid, kBlock>>>(n, d_offsets, d_degree);
  for (int round = 0; round < opt.rounds; ++round) {
    rank_times.before();
    rank_above<<<grid, kBlock>>>(n, d_offsets, d_adj, d_degree, d_above);
    rank_times.after();

    const int source = static_cast<int>((static_cast<long long>(round) * 7919) % n);
    init_levels<<<grid, kBlock>>>(n, source, d_level[0]);
    level_at = 0;
    for (depth = 0;; ++depth) {
      bfs_times.before();
      bfs_pull<<<grid, kBlock>>>(n, d_offsets, d_adj, d_level[level_at], depth, d_level[1 - level_at]);
      bfs_times.after();
      level_at = 1 - level_at;
      if (changes(d_level[1 - level_at], d_level[level_at]) == 0) break;
    }

    init_labels<<<grid, kBlock>>>(n, d_label[0]);
    label_at = 0;
    for (cc_steps = 1;; ++cc_steps) {
      cc_times.before();
      cc_pull<<<grid, kBlock>>>(n, d_offsets, d_adj, d_label[label_at], d_label[1 - label_at]);
      cc_times.after();
      label_at = 1 - label_at;
      if (changes(d_label[1 - label_at], d_label[label_at]) == 0) break;
    }
  }
  const float ms = timer.end();
  timer.destroy();
  CUDA_CHECK(cudaGetLastError());

  std::vector<int> label(n), level(n), above(n);
  CUDA_CHECK(cudaMemcpy(label.data(), d_label[label_at], n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(level.data(), d_level[level_at], n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(above.data(), d_above, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long components = 0, reached = 0, pairs = 0;
  for (int v = 0; v < n; ++v) {
    components += label[v] == v;
    reached += level[v] >= 0;
    pairs += above[v];
  }
  std::printf("components: %lld (%d propagation steps in the last round)\n", components, cc_steps);
  std::printf("bfs: %lld vertices reached, %d levels in the last round\n", reached, depth);
  std::printf("oriented edges: %lld (of %zu)\n", pairs, g.adj.size() / 2);
  std::printf("whole time: %.3f ms (%.3f ms per round)\n", ms, ms / opt.rounds);
  rank_times.print("rank_above");
  bfs_times.print("bfs_pull");
  cc_times.print("cc_pull");
  uint64_t h = sample::fnv1a(label.data(), label.size() * sizeof(int));
  h = sample::fnv1a(level.data(), level.size() * sizeof(int), h);
  sample::print_checksum(sample::fnv1a(above.data(), above.size() * sizeof(int), h));
  if (!opt.dump.empty() &&
      !sample::write_dump(opt.dump, {{label.data(), label.size() * sizeof(int)},
                                     {level.data(), level.size() * sizeof(int)},
                                     {above.data(), above.size() * sizeof(int)}}))
    return 1;

  for (int *p : {d_offsets, d_adj, d_degree, d_above, d_changed, d_label[0], d_label[1], d_level[0], d_level[1]})
    CUDA_CHECK(cudaFree(p));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const Options opt = parse(argc, argv);
  if (sample::no_cuda_device()) return 77;
  try {
    return run(opt);
  } catch (const std::exception &e) {
    return sample::input_error(e.what());
  }
}
