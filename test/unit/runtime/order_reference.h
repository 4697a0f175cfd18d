// A host model of the runtime's locality order and of its sampled measure
// (runtime/src/order/order.h), for tests: the unit tests check it on graphs whose
// answer is known, the GPU tests compare the runtime's order with it.
#pragma once

#include "layout_policy.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <vector>

namespace order_reference {

// Thread t reads elements elems[off[t] .. off[t+1]); element e < 0 or >= hi is a sentinel.
struct Graph {
  long long n = 0;
  std::vector<long long> off{0};
  std::vector<long long> elems;
  long long count(long long t) const { return off[t + 1] - off[t]; }
  void add(const std::vector<long long> &row) {
    elems.insert(elems.end(), row.begin(), row.end());
    off.push_back(static_cast<long long>(elems.size()));
    ++n;
  }
};

// The order the runtime computes: a breadth-first search from every seed
// (t % region == 0) at once along what threads read (where t reads e, e is
// one hop further than t), each thread joining the seed it is fewest hops
// from, ties to the lower seed; threads sorted by (seed, hops, least element
// read), those no seed reaches within kMaxSweeps hops last.
inline std::vector<int> order(const Graph &g, int region) {
  const long long n = g.n;
  const int r = irregfix::detail::order_region(n, region);
  const unsigned long long none = ~0ULL, hop = 1ULL << 32;
  std::vector<unsigned long long> prop(static_cast<std::size_t>(n));
  for (long long t = 0; t < n; ++t)
    prop[t] = t % r == 0 ? static_cast<unsigned long long>(t / r) : none;
  for (unsigned long long level = 1; level <= irregfix::detail::kMaxSweeps; ++level) {
    std::vector<unsigned long long> next = prop;
    bool reached = false;
    for (long long t = 0; t < n; ++t) {
      if (prop[t] == none || (prop[t] >> 32) + 1 != level)
        continue;
      for (long long k = g.off[t]; k < g.off[t + 1]; ++k) {
        const long long e = g.elems[k];
        if (e >= 0 && e < n && e != t && prop[e] == none && prop[t] + hop < next[e]) {
          reached = reached || next[e] == none;
          next[e] = prop[t] + hop;
        }
      }
    }
    prop.swap(next);
    if (!reached)
      break;
  }
  std::vector<unsigned long long> key(static_cast<std::size_t>(n));
  for (long long t = 0; t < n; ++t) {
    const unsigned long long k = prop[t];
    const unsigned long long seed = k == none ? (1ULL << irregfix::detail::kOrderSeedBits) - 1 : k & 0xffffffffULL;
    const unsigned long long hops = k == none ? 255 : std::min<unsigned long long>(k >> 32, 255);
    unsigned long long least = 0xffffffffULL;
    for (long long j = g.off[t]; j < g.off[t + 1]; ++j)
      if (g.elems[j] >= 0 && g.elems[j] < n)
        least = std::min<unsigned long long>(least, static_cast<unsigned long long>(g.elems[j]));
    key[t] = (seed << 40) | (hops << 32) | least;
  }
  std::vector<int> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return key[a] < key[b]; });
  return perm;
}

inline bool is_permutation(const std::vector<int> &perm) {
  std::vector<char> seen(perm.size(), 0);
  for (int p : perm) {
    if (p < 0 || static_cast<std::size_t>(p) >= perm.size() || seen[p])
      return false;
    seen[p] = 1;
  }
  return true;
}

// The sampled measure (order.h's constants): distinct sectors over reads in up
// to 32 blocks of 256 physical threads, the first 128 reads of each thread,
// elements in [lo, hi). perm empty: the threads' own order. renumber (empty:
// none) numbers the elements read in [0, n) as a domain's order does.
inline double sampled_sectors(const Graph &g, const std::vector<int> &perm, int per_sector, long long lo,
                              long long hi, const std::vector<int> &renumber = {}) {
  const long long block = 256, sample_blocks = 32, reads_cap = 128;
  const long long nblocks = (g.n + block - 1) / block;
  const long long blocks = std::min(nblocks, sample_blocks);
  unsigned long long distinct = 0, reads = 0;
  for (long long i = 0; i < blocks; ++i) {
    const long long pb = i * nblocks / blocks;
    std::set<unsigned long long> sectors;
    for (long long p = pb * block; p < std::min(g.n, (pb + 1) * block); ++p) {
      const long long t = perm.empty() ? p : perm[p];
      const long long len = std::min(g.count(t), reads_cap);
      for (long long j = 0; j < len; ++j) {
        long long e = g.elems[g.off[t] + j];
        if (e < lo || e >= hi)
          continue;
        if (!renumber.empty() && e >= 0 && e < g.n)
          e = renumber[static_cast<std::size_t>(e)];
        ++reads;
        sectors.insert(std::min<unsigned long long>(static_cast<unsigned long long>(e - lo) / per_sector, 0xfffffffeULL));
      }
    }
    distinct += sectors.size();
  }
  return reads ? static_cast<double>(distinct) / static_cast<double>(reads) : 1.0;
}

// A w x w 5-point grid (with the diagonal: each row reads itself and its
// neighbours), numbered row by row, or renumbered at random (seed != 0).
inline Graph grid(int w, unsigned seed) {
  const long long n = static_cast<long long>(w) * w;
  std::vector<long long> new_of(static_cast<std::size_t>(n));
  std::iota(new_of.begin(), new_of.end(), 0);
  if (seed)
    std::shuffle(new_of.begin(), new_of.end(), std::mt19937(seed));
  std::vector<long long> old_of(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i)
    old_of[new_of[i]] = i;
  Graph g;
  for (long long r = 0; r < n; ++r) {
    const long long o = old_of[r], x = o % w, y = o / w;
    std::vector<long long> row{new_of[o]};
    if (x > 0) row.push_back(new_of[o - 1]);
    if (x + 1 < w) row.push_back(new_of[o + 1]);
    if (y > 0) row.push_back(new_of[o - w]);
    if (y + 1 < w) row.push_back(new_of[o + w]);
    std::sort(row.begin(), row.end());
    g.add(row);
  }
  return g;
}

} // namespace order_reference
