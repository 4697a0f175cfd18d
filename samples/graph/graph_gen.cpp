#include "graph_gen.h"

#include "../common/splitmix.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace graphgen {

Graph clustered(int n, int cluster, int degree, uint64_t seed) {
  const double p = cluster > 1 ? std::min(1.0, static_cast<double>(degree) / (cluster - 1)) : 0.0;
  // Lists before renumbering: each pair {i, j}, i < j in one cluster, drawn by i's generator; the
  // gaps between i's chosen j are geometric, so the work is the edges, not the pairs.
  std::vector<std::vector<int>> lists(static_cast<size_t>(n));
  const double log_q = p < 1.0 ? std::log(1.0 - p) : 0.0;
  for (int i = 0; i < n && p > 0.0; ++i) {
    const int last = std::min(n, i / cluster * cluster + cluster);
    sample::SplitMix r(seed ^ (0x6a09e667f3bcc909ULL + static_cast<uint64_t>(i)));
    for (long long j = i;;) {
      j += p < 1.0 ? 1 + static_cast<long long>(std::floor(std::log(1.0 - r.uniform()) / log_q)) : 1;
      if (j >= last) break;
      lists[static_cast<size_t>(i)].push_back(static_cast<int>(j));
      lists[static_cast<size_t>(j)].push_back(i);
    }
  }
  // A random renumbering (Fisher-Yates on the seed).
  std::vector<int> id(static_cast<size_t>(n));
  std::iota(id.begin(), id.end(), 0);
  sample::SplitMix r(seed);
  for (int i = n - 1; i > 0; --i) std::swap(id[static_cast<size_t>(i)], id[r.next() % static_cast<uint64_t>(i + 1)]);
  Graph g;
  g.n = n;
  std::vector<std::vector<int>> renumbered(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    std::vector<int> &out = renumbered[static_cast<size_t>(id[static_cast<size_t>(i)])];
    for (int j : lists[static_cast<size_t>(i)]) out.push_back(id[static_cast<size_t>(j)]);
    std::sort(out.begin(), out.end());
  }
  g.offsets.assign(static_cast<size_t>(n) + 1, 0);
  for (int v = 0; v < n; ++v)
    g.offsets[static_cast<size_t>(v) + 1] = g.offsets[static_cast<size_t>(v)] + static_cast<int>(renumbered[static_cast<size_t>(v)].size());
  g.adj.reserve(static_cast<size_t>(g.offsets[static_cast<size_t>(n)]));
  for (const std::vector<int> &l : renumbered) g.adj.insert(g.adj.end(), l.begin(), l.end());
  return g;
}

Degrees degrees(const Graph &g) {
  Degrees d;
  if (g.n == 0) return d;
  d.min = d.max = g.offsets[1] - g.offsets[0];
  for (int v = 0; v < g.n; ++v) {
    const int len = g.offsets[static_cast<size_t>(v) + 1] - g.offsets[static_cast<size_t>(v)];
    d.min = std::min(d.min, len);
    d.max = std::max(d.max, len);
  }
  d.mean = static_cast<double>(g.adj.size()) / g.n;
  return d;
}

} // namespace graphgen
