// Host-only k-SAT inputs for the SP sample: a DIMACS .cnf reader, a random
// k-SAT generator, and the factor graph (clauses <-> variables) in CSR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace spcnf {

// A formula: clause c holds the literals lits[offsets[c] .. offsets[c+1]),
// each a non-zero DIMACS literal (+v or -v, v in 1..num_vars).
struct Cnf {
  int num_vars = 0;
  std::vector<int> offsets; // num_clauses + 1 entries
  std::vector<int> lits;
  std::string name;
  int dropped_tautologies = 0; // clauses holding both v and -v (always satisfied)
  int dropped_duplicates = 0;  // repeated literals removed inside a clause

  int num_clauses() const { return static_cast<int>(offsets.size()) - 1; }
};

// Reads a DIMACS CNF file ("c" comments, "p cnf V C", clauses ended by 0; a
// SATLIB-style trailing "%" ends the input). Repeated literals in a clause are
// merged and tautological clauses dropped (both counted). Throws
// std::runtime_error naming the file and line on malformed input, on an empty
// clause, or on a literal outside 1..V.
Cnf read_dimacs(const std::string &path);

// Uniform random k-SAT: every clause takes k distinct variables and random signs.
// Throws std::invalid_argument when k > vars or an argument is out of range.
Cnf generate(int vars, int clauses, int k, uint64_t seed);

// The factor graph. Edges are numbered in clause order: clause c owns the edges
// clause_edges[clause_offsets[c] .. clause_offsets[c+1]) (the identity map here,
// kept as an array so the kernels do not depend on the numbering). Edge e joins
// clause edge_clause[e] and variable edge_var[e] (0-based) with sign
// edge_neg[e] (1 when the variable appears negated).
//
// Literal l = 2*v + neg. lit_offsets / lit_edges is the CSR of literal -> edges,
// edges in increasing order. edge_lit[e] is e's literal and edge_opp[e] the
// opposite literal (l ^ 1): survey propagation needs, for each edge, the
// products over the other edges of the same literal and of the opposite one.
struct FactorGraph {
  int num_vars = 0;
  int num_clauses = 0;
  int num_edges = 0;
  std::vector<int> clause_offsets, clause_edges;
  std::vector<int> edge_var, edge_clause, edge_neg, edge_lit, edge_opp;
  std::vector<int> lit_offsets, lit_edges; // 2 * num_vars + 1, num_edges
  int max_clause = 0;
  int max_literal_degree = 0;
};

FactorGraph build_graph(const Cnf &f);

// Deterministic random floats in [lo, hi).
std::vector<float> random_floats(size_t n, uint64_t seed, float lo, float hi);

} // namespace spcnf
