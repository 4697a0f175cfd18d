#include "cnf.h"

#include "../common/splitmix.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace spcnf {
namespace {

struct Rng : sample::SplitMix {
  using SplitMix::SplitMix;
  // Uniform in [0, bound), bound > 0 (rejection, no modulo bias).
  uint64_t below(uint64_t bound) {
    uint64_t lim = ~0ULL - (~0ULL % bound);
    uint64_t x;
    do x = next();
    while (x >= lim);
    return x % bound;
  }
};

// Appends clause `lits` to f after merging repeated literals; drops tautologies.
void add_clause(Cnf &f, std::vector<int> &lits) {
  std::sort(lits.begin(), lits.end());
  size_t before = lits.size();
  lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
  f.dropped_duplicates += static_cast<int>(before - lits.size());
  for (size_t i = 0; i + 1 < lits.size(); ++i)
    for (size_t j = i + 1; j < lits.size(); ++j)
      if (lits[i] == -lits[j]) {
        ++f.dropped_tautologies;
        return;
      }
  f.lits.insert(f.lits.end(), lits.begin(), lits.end());
  f.offsets.push_back(static_cast<int>(f.lits.size()));
}

} // namespace

Cnf read_dimacs(const std::string &path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  Cnf f;
  f.offsets.push_back(0);
  f.name = path;
  long long declared_clauses = -1;
  long long read_clauses = 0;
  std::vector<int> cur;
  std::string line;
  long long lineno = 0;
  auto fail = [&](const std::string &msg) {
    throw std::runtime_error(path + ":" + std::to_string(lineno) + ": " + msg);
  };
  while (std::getline(in, line)) {
    ++lineno;
    size_t p = line.find_first_not_of(" \t\r");
    if (p == std::string::npos) continue;
    char c0 = line[p];
    if (c0 == 'c') continue;
    if (c0 == '%') break; // SATLIB files end with "%\n0"
    if (c0 == 'p') {
      if (declared_clauses >= 0) fail("second 'p' line");
      std::istringstream ss(line.substr(p + 1));
      std::string fmt;
      long long v = -1, c = -1;
      if (!(ss >> fmt >> v >> c) || fmt != "cnf" || v < 1 || v > (1 << 28) || c < 1 || c > (1 << 28))
        fail("expected 'p cnf VARS CLAUSES' with positive counts");
      f.num_vars = static_cast<int>(v);
      declared_clauses = c;
      continue;
    }
    if (declared_clauses < 0) fail("clause before the 'p cnf' line");
    const char *s = line.c_str() + p;
    while (*s) {
      while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
      if (!*s) break;
      char *end = nullptr;
      errno = 0;
      long long lit = std::strtoll(s, &end, 10);
      if (end == s || errno != 0 || (*end && *end != ' ' && *end != '\t' && *end != '\r'))
        fail("bad literal '" + std::string(s, std::strcspn(s, " \t\r")) + "'");
      s = end;
      if (lit == 0) {
        if (cur.empty()) fail("empty clause (the formula is unsatisfiable)");
        add_clause(f, cur);
        cur.clear();
        ++read_clauses;
      } else {
        if (lit < -f.num_vars || lit > f.num_vars)
          fail("literal " + std::to_string(lit) + " outside 1.." + std::to_string(f.num_vars));
        cur.push_back(static_cast<int>(lit));
      }
    }
  }
  if (declared_clauses < 0) throw std::runtime_error(path + ": no 'p cnf' line");
  if (!cur.empty()) { // last clause without its terminating 0
    add_clause(f, cur);
    ++read_clauses;
  }
  if (read_clauses != declared_clauses)
    throw std::runtime_error(path + ": header declares " + std::to_string(declared_clauses) +
                             " clauses, file holds " + std::to_string(read_clauses));
  if (f.num_clauses() == 0) throw std::runtime_error(path + ": no clauses left after dropping tautologies");
  return f;
}

Cnf generate(int vars, int clauses, int k, uint64_t seed) {
  if (vars < 1 || clauses < 1 || k < 1 || k > vars)
    throw std::invalid_argument("generate: need vars >= k >= 1 and clauses >= 1");
  Cnf f;
  f.num_vars = vars;
  f.offsets.reserve(static_cast<size_t>(clauses) + 1);
  f.offsets.push_back(0);
  f.lits.reserve(static_cast<size_t>(clauses) * k);
  Rng rng(seed);
  std::vector<int> cur;
  for (int c = 0; c < clauses; ++c) {
    cur.clear();
    while (static_cast<int>(cur.size()) < k) {
      int v = static_cast<int>(rng.below(static_cast<uint64_t>(vars))) + 1;
      bool seen = false;
      for (int l : cur) seen = seen || (l == v || l == -v);
      if (seen) continue;
      cur.push_back((rng.next() >> 63) ? -v : v);
    }
    // Keep the generated order (no sort): k distinct variables, no duplicates.
    f.lits.insert(f.lits.end(), cur.begin(), cur.end());
    f.offsets.push_back(static_cast<int>(f.lits.size()));
  }
  f.name = "random " + std::to_string(k) + "-SAT, " + std::to_string(vars) + " variables, " +
           std::to_string(clauses) + " clauses, seed " + std::to_string(seed);
  return f;
}

FactorGraph build_graph(const Cnf &f) {
  FactorGraph g;
  g.num_vars = f.num_vars;
  g.num_clauses = f.num_clauses();
  g.num_edges = static_cast<int>(f.lits.size());
  const size_t ne = static_cast<size_t>(g.num_edges);
  g.clause_offsets = f.offsets;
  g.clause_edges.resize(ne);
  g.edge_var.resize(ne);
  g.edge_clause.resize(ne);
  g.edge_neg.resize(ne);
  g.edge_lit.resize(ne);
  g.edge_opp.resize(ne);
  const int nlit = 2 * g.num_vars;
  g.lit_offsets.assign(static_cast<size_t>(nlit) + 1, 0);
  for (int c = 0; c < g.num_clauses; ++c) {
    g.max_clause = std::max(g.max_clause, f.offsets[c + 1] - f.offsets[c]);
    for (int e = f.offsets[c]; e < f.offsets[c + 1]; ++e) {
      int lit = f.lits[static_cast<size_t>(e)];
      int v = (lit > 0 ? lit : -lit) - 1;
      int neg = lit < 0 ? 1 : 0;
      g.clause_edges[e] = e;
      g.edge_var[e] = v;
      g.edge_clause[e] = c;
      g.edge_neg[e] = neg;
      g.edge_lit[e] = 2 * v + neg;
      g.edge_opp[e] = (2 * v + neg) ^ 1;
      ++g.lit_offsets[static_cast<size_t>(2 * v + neg) + 1];
    }
  }
  for (int l = 0; l < nlit; ++l) {
    g.max_literal_degree = std::max(g.max_literal_degree, g.lit_offsets[l + 1]);
    g.lit_offsets[l + 1] += g.lit_offsets[l];
  }
  g.lit_edges.resize(ne);
  std::vector<int> cursor(g.lit_offsets.begin(), g.lit_offsets.end() - 1);
  for (int e = 0; e < g.num_edges; ++e) g.lit_edges[cursor[g.edge_lit[e]]++] = e; // increasing e
  return g;
}

std::vector<float> random_floats(size_t n, uint64_t seed, float lo, float hi) {
  Rng rng(seed);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    double u = static_cast<double>(rng.next() >> 11) * (1.0 / 9007199254740992.0);
    v[i] = static_cast<float>(lo + (hi - lo) * u);
  }
  return v;
}

} // namespace spcnf
