// Survey propagation on random k-SAT: the paper's SP evaluation program, as
// plain CUDA. The factor graph (clauses <-> variables) is stored in CSR; one
// thread per edge computes, for edge e = (clause a, variable v), the product
// over v's other edges of (1 - eta) — the key kernel calc_pi_values, a
// two-level range read (edge -> its literal -> that literal's edges).
//
// SP equations (Braunstein, Mezard, Zecchina 2005). For edge a -> j,
//   pi_same = prod over the other edges b of the same literal as in a of (1 - eta_b->j)
//   pi_opp  = prod over the edges b of the opposite literal           of (1 - eta_b->j)
//   Pu = (1 - pi_opp) pi_same,  Ps = (1 - pi_same) pi_opp,  P0 = pi_same pi_opp
//   eta_a->i = prod over j in a, j != i of Pu / (Pu + Ps + P0).
// calc_pi_values gives pi_same when launched over the literal CSR with each
// edge's literal, and pi_opp when launched with each edge's opposite literal.
//
// Deterministic: every product runs in a fixed order, no atomics, the
// convergence measure is a max (order-free) reduced in a fixed tree. Two runs
// give bitwise-identical results, and so do the original and the
// irregfix-transformed programs.
//
//   sp [--cnf FILE | --vars N [--clauses M | --ratio R] [--k K]] [--rounds N]
//      [--seed S] [--dump FILE] [--time-kernels]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cnf.h"

#define SAMPLE_NAME "sp"
#include "../common/sample_support.cuh"

static const int kBlock = 256;

// pi[e] = product over the edges `other` of e's row (row edge_var[e] of the CSR
// var_offsets / var_edges), other != e, of (1 - eta[other]).
__global__ void calc_pi_values(int num_edges, const int *edge_var, const int *var_offsets,
                               const int *var_edges, const float *eta, float *pi) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < num_edges) {
    int v = edge_var[e];
    int start = var_offsets[v];
    int len = var_offsets[v + 1] - start;
    float prod = 1.0f;
    for (int i = 0; i < len; i++) {
      int other = var_edges[start + i];
      if (other != e)
        prod *= 1.0f - eta[other];
    }
    pi[e] = prod;
  }
}

// One thread per clause: new eta for each of the clause's edges from the
// pi values of its other edges; delta[c] = the largest change of c's etas.
__global__ void update_eta(int num_clauses, const int *clause_offsets, const int *clause_edges,
                           const float *pi_same, const float *pi_opp, float *eta, float *delta) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < num_clauses) {
    float change = 0.0f;
    for (int k = clause_offsets[c]; k < clause_offsets[c + 1]; ++k) {
      int e = clause_edges[k];
      float prod = 1.0f;
      for (int m = clause_offsets[c]; m < clause_offsets[c + 1]; ++m) {
        if (m == k) continue;
        int o = clause_edges[m];
        float s = pi_same[o];
        float u = pi_opp[o];
        float pu = (1.0f - u) * s;
        float ps = (1.0f - s) * u;
        float den = pu + ps + s * u;
        prod *= den > 0.0f ? pu / den : 0.0f;
      }
      change = fmaxf(change, fabsf(prod - eta[e]));
      eta[e] = prod;
    }
    delta[c] = change;
  }
}

// out[0] = max of x[0..m), one block, fixed tree.
__global__ void max_reduce(int m, const float *x, float *out) {
  __shared__ float s[kBlock];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < m; i += blockDim.x) acc = fmaxf(acc, x[i]);
  s[threadIdx.x] = acc;
  sample::block_reduce(s, sample::Max());
  if (threadIdx.x == 0) out[0] = s[0];
}

namespace {

struct Options {
  std::string cnf;
  std::string dump;
  int vars = 4000;
  int clauses = 0;
  double ratio = 4.2;
  int k = 3;
  int rounds = 100;
  unsigned long long seed = 1;
  bool time_kernels = false;
};

void usage(FILE *f) {
  std::fprintf(f,
               "usage: sp [--cnf FILE | --vars N [--clauses M | --ratio R] [--k K]]\n"
               "          [--rounds N] [--seed S] [--dump FILE] [--time-kernels]\n"
               "  --cnf FILE     read a DIMACS CNF formula\n"
               "  --vars N       generate random k-SAT with N variables (default 4000)\n"
               "  --clauses M    ... and M clauses (default: ratio * N)\n"
               "  --ratio R      clauses per variable (default 4.2; the paper: 4000/16800, 10000/42000)\n"
               "  --k K          literals per clause (default 3)\n"
               "  --rounds N     SP rounds, always all of them (default 100)\n"
               "  --seed S       seed of the formula and of the initial etas (default 1)\n"
               "  --dump FILE    write the final eta, pi_same and pi_opp (float bits, edge order)\n"
               "  --time-kernels time every calc_pi_values launch (CUDA events) and print the median\n"
               "exit status: 0 ok, 1 bad arguments / input / CUDA error, 77 no CUDA device\n");
}

Options parse(int argc, char **argv) {
  using sample::parse_int;
  Options o;
  bool gen_opt = false;
  sample::parse_args(argc, argv, usage, [&](const std::string &a, auto value) {
    if (a == "--cnf") o.cnf = value();
    else if (a == "--dump") o.dump = value();
    else if (a == "--vars") o.vars = static_cast<int>(parse_int(a, value(), 3, 1 << 26)), gen_opt = true;
    else if (a == "--clauses") o.clauses = static_cast<int>(parse_int(a, value(), 1, 1 << 28)), gen_opt = true;
    else if (a == "--k") o.k = static_cast<int>(parse_int(a, value(), 2, 64)), gen_opt = true;
    else if (a == "--rounds") o.rounds = static_cast<int>(parse_int(a, value(), 0, 1 << 24));
    else if (a == "--seed") o.seed = static_cast<unsigned long long>(parse_int(a, value(), 0, 1LL << 62));
    else if (a == "--time-kernels") o.time_kernels = true;
    else if (a == "--ratio") {
      o.ratio = sample::parse_real(a, value(), [](double v) { return v > 0.0 && v <= 1000.0; }, "a number in (0, 1000]");
      gen_opt = true;
    } else return false;
    return true;
  });
  if (!o.cnf.empty() && gen_opt) sample::bad("--vars, --clauses, --ratio and --k go with generation, not --cnf");
  if (o.cnf.empty()) {
    if (o.k > o.vars) sample::bad("--k must not exceed --vars");
    if (o.clauses == 0) {
      double c = std::floor(o.ratio * o.vars + 0.5);
      if (c < 1 || c > (1 << 28)) sample::bad("too many clauses");
      o.clauses = static_cast<int>(c);
    }
    if (static_cast<long long>(o.clauses) * o.k > (1LL << 30)) sample::bad("formula too large");
  }
  return o;
}

template <typename T> T *to_device(const std::vector<T> &h) {
  T *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, std::max<size_t>(h.size(), 1) * sizeof(T)));
  if (!h.empty()) CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

} // namespace

int main(int argc, char **argv) {
  Options opt = parse(argc, argv);

  spcnf::Cnf formula;
  try {
    formula = opt.cnf.empty() ? spcnf::generate(opt.vars, opt.clauses, opt.k, opt.seed)
                              : spcnf::read_dimacs(opt.cnf);
  } catch (const std::exception &e) {
    return sample::input_error(e.what());
  }
  if (sample::no_cuda_device()) return 77;

  const spcnf::FactorGraph g = spcnf::build_graph(formula);
  const int ne = g.num_edges, nc = g.num_clauses;
  std::printf("formula: %s\n", formula.name.c_str());
  std::printf("variables: %d  clauses: %d  edges: %d  ratio %.3f  longest clause %d  max literal degree %d\n",
              g.num_vars, nc, ne, static_cast<double>(nc) / g.num_vars, g.max_clause, g.max_literal_degree);
  if (formula.dropped_tautologies || formula.dropped_duplicates)
    std::printf("dropped: %d tautological clauses, %d repeated literals\n", formula.dropped_tautologies,
                formula.dropped_duplicates);

  const std::vector<float> eta0 = spcnf::random_floats(static_cast<size_t>(ne), opt.seed + 101, 0.0f, 1.0f);
  int *d_edge_lit = to_device(g.edge_lit);
  int *d_edge_opp = to_device(g.edge_opp);
  int *d_lit_offsets = to_device(g.lit_offsets);
  int *d_lit_edges = to_device(g.lit_edges);
  int *d_clause_offsets = to_device(g.clause_offsets);
  int *d_clause_edges = to_device(g.clause_edges);
  float *d_eta = to_device(eta0);
  float *d_pi_same = nullptr, *d_pi_opp = nullptr, *d_delta = nullptr, *d_hist = nullptr;
  CUDA_CHECK(cudaMalloc(&d_pi_same, static_cast<size_t>(ne) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_pi_opp, static_cast<size_t>(ne) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_delta, static_cast<size_t>(nc) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_hist, (static_cast<size_t>(opt.rounds) + 1) * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_pi_same, 0, static_cast<size_t>(ne) * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_pi_opp, 0, static_cast<size_t>(ne) * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_hist, 0, (static_cast<size_t>(opt.rounds) + 1) * sizeof(float)));

  // Per-launch events for --time-kernels, read once after the run (no syncs inside).
  sample::LaunchTimes kernel_times(opt.time_kernels ? 2 * opt.rounds : 0);

  const int edge_grid = (ne + kBlock - 1) / kBlock;
  const int clause_grid = (nc + kBlock - 1) / kBlock;
  sample::RunTimer timer;
  timer.begin();

  for (int r = 0; r < opt.rounds; ++r) {
    kernel_times.before(2 * r);
    calc_pi_values<<<edge_grid, kBlock>>>(ne, d_edge_lit, d_lit_offsets, d_lit_edges, d_eta, d_pi_same);
    CUDA_CHECK(cudaGetLastError());
    kernel_times.after(2 * r);
    kernel_times.before(2 * r + 1);
    calc_pi_values<<<edge_grid, kBlock>>>(ne, d_edge_opp, d_lit_offsets, d_lit_edges, d_eta, d_pi_opp);
    CUDA_CHECK(cudaGetLastError());
    kernel_times.after(2 * r + 1);
    update_eta<<<clause_grid, kBlock>>>(nc, d_clause_offsets, d_clause_edges, d_pi_same, d_pi_opp, d_eta,
                                        d_delta);
    CUDA_CHECK(cudaGetLastError());
    max_reduce<<<1, kBlock>>>(nc, d_delta, d_hist + r);
    CUDA_CHECK(cudaGetLastError());
  }

  const float ms = timer.end();

  std::vector<float> eta(static_cast<size_t>(ne)), pi_same(static_cast<size_t>(ne)),
      pi_opp(static_cast<size_t>(ne)), hist(static_cast<size_t>(opt.rounds) + 1);
  CUDA_CHECK(cudaMemcpy(eta.data(), d_eta, eta.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(pi_same.data(), d_pi_same, pi_same.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(pi_opp.data(), d_pi_opp, pi_opp.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, hist.size() * sizeof(float), cudaMemcpyDeviceToHost));

  int converged_at = -1;
  for (int r = 0; r < opt.rounds; ++r)
    if (hist[static_cast<size_t>(r)] < 1e-3f) {
      converged_at = r + 1;
      break;
    }
  double eta_sum = 0.0;
  long long nontrivial = 0;
  for (float x : eta) {
    eta_sum += x;
    nontrivial += x > 1e-2f ? 1 : 0;
  }
  uint64_t h = sample::fnv1a(eta.data(), eta.size() * sizeof(float));
  h = sample::fnv1a(pi_same.data(), pi_same.size() * sizeof(float), h);
  h = sample::fnv1a(pi_opp.data(), pi_opp.size() * sizeof(float), h);

  std::printf("rounds: %d\n", opt.rounds);
  std::printf("max eta change: first round %.6e, last round %.6e\n", opt.rounds ? hist[0] : 0.0f,
              opt.rounds ? hist[static_cast<size_t>(opt.rounds) - 1] : 0.0f);
  if (converged_at > 0) std::printf("converged: max eta change < 1e-3 from round %d\n", converged_at);
  else std::printf("converged: no (max eta change never below 1e-3)\n");
  std::printf("eta: mean %.6e, %lld of %d edges above 1e-2 (%s fixed point)\n", ne ? eta_sum / ne : 0.0,
              nontrivial, ne, nontrivial ? "non-trivial" : "trivial");
  std::printf("whole time: %.3f ms (%.4f ms per round)\n", ms, opt.rounds ? ms / opt.rounds : 0.0);
  kernel_times.print("calc_pi_values");
  sample::print_checksum(h);
  if (!opt.dump.empty() && !sample::write_dump(opt.dump, {{eta.data(), eta.size() * sizeof(float)},
                                                          {pi_same.data(), pi_same.size() * sizeof(float)},
                                                          {pi_opp.data(), pi_opp.size() * sizeof(float)}}))
    return 1;

  kernel_times.destroy();
  timer.destroy();
  CUDA_CHECK(cudaFree(d_edge_lit));
  CUDA_CHECK(cudaFree(d_edge_opp));
  CUDA_CHECK(cudaFree(d_lit_offsets));
  CUDA_CHECK(cudaFree(d_lit_edges));
  CUDA_CHECK(cudaFree(d_clause_offsets));
  CUDA_CHECK(cudaFree(d_clause_edges));
  CUDA_CHECK(cudaFree(d_eta));
  CUDA_CHECK(cudaFree(d_pi_same));
  CUDA_CHECK(cudaFree(d_pi_opp));
  CUDA_CHECK(cudaFree(d_delta));
  CUDA_CHECK(cudaFree(d_hist));
  return 0;
}
