// The graph sample's input: an undirected graph in CSR (each edge in both
// lists), generated from a seed. Host only.
#pragma once

#include <cstdint>
#include <vector>

namespace graphgen {

struct Graph {
  int n = 0;
  std::vector<int> offsets; // n + 1
  std::vector<int> adj;     // offsets[n]: the neighbours of v are adj[offsets[v], offsets[v+1])
};

// n vertices in clusters of `cluster` consecutive ids before renumbering; two
// vertices of one cluster are adjacent with probability degree / (cluster - 1)
// (drawn once for each pair from the seed, both lists getting the edge), vertices of
// different clusters never. Then the ids are renumbered by a random
// permutation, so that a component's vertices lie far apart. Each list is in
// increasing order. Every cluster of more than a few vertices is connected
// with overwhelming probability at the sample's degrees: the components are
// the clusters.
Graph clustered(int n, int cluster, int degree, uint64_t seed);

// Lengths of the lists: least, mean and greatest.
struct Degrees {
  int min = 0, max = 0;
  double mean = 0;
};
Degrees degrees(const Graph &g);

} // namespace graphgen
