// Host-only sparse matrix inputs for the CG sample and the SpMV benchmark:
// a Matrix Market reader and generators for four matrix classes shaped like the
// SuiteSparse matrices of the paper's CG evaluation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cgmat {

// Compressed sparse rows, 0-based, columns sorted within each row.
struct Csr {
  int n = 0;                // rows (== columns)
  std::vector<int> row_ptr; // n + 1 entries
  std::vector<int> col;     // nnz entries
  std::vector<float> val;   // nnz entries
  std::string name;         // what it is, for printing

  long long nnz() const { return static_cast<long long>(col.size()); }
};

struct Stats {
  int n = 0;
  long long nnz = 0;
  int min_row = 0;
  int max_row = 0;
  double avg_row = 0.0;
  bool symmetric_pattern = false; // only computed when asked (costly)
};

// Matrix classes, at the paper's sizes (scale 1):
//   grid      2-D 5-point grid                 (ecology2:      999,999 rows, 5 per row)
//   fem       2-D triangulated mesh, 7 per row (parabolic_fem: 525,825 rows)
//   apache    3-D 7-point grid + a few random long edges, 4-8 per row, mostly 7
//                                              (apache2:       715,176 rows)
//   offshore  irregular, 7-31 per row, average about 16 (offshore: 259,789 rows)
//   grid-shuffled, fem-shuffled
//             grid and fem with rows and columns renumbered by a random
//             permutation (P A P^T): neighbours far apart in memory
//   long-rows few long rows, about 1,640 per row, neighbours within 1,315
//             rows (10,240 rows: the scalar CSR SpMV of benchmark suites,
//             where a warp a row is 4x faster than a thread a row)
// All generated matrices have a symmetric pattern and symmetric values, and are
// strictly diagonally dominant with a positive diagonal, so they are SPD and CG
// converges. Off-diagonal values are random in [-1, -0.1], a pure function of
// (seed, min(i,j), max(i,j)), so the result does not depend on generation order.
bool is_class(const std::string &cls);
const std::vector<std::string> &classes();
int paper_rows(const std::string &cls); // rows at scale 1; 0 for an unknown class

// Generates `cls` with `rows` rows (use paper_rows(cls) * scale). Throws
// std::invalid_argument for an unknown class or rows < 2.
Csr generate(const std::string &cls, int rows, uint64_t seed);

// Reads a Matrix Market file: coordinate, real | integer | pattern,
// general | symmetric. Square matrices only. Duplicate entries are summed.
// Pattern matrices get the generators' random SPD values (seeded): symmetric
// off-diagonal values and a dominant diagonal (added where missing).
// Throws std::runtime_error with a message naming the file on any problem.
Csr read_matrix_market(const std::string &path, uint64_t seed);

Stats stats(const Csr &a, bool check_symmetry = false);

// y = A x on the host, in the same per-row order as the scalar CSR kernel
// (float accumulation, k ascending), for approximate checks: the GPU contracts
// to FMA, so results are close, not bitwise equal.
void spmv_host(const Csr &a, const float *x, float *y);

// Deterministic random floats in [lo, hi) (for vectors).
std::vector<float> random_vector(size_t n, uint64_t seed, float lo, float hi);

} // namespace cgmat
