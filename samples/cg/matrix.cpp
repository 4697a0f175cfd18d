// Host-only sparse matrix inputs: Matrix Market reader and generators.
#include "matrix.h"

#include "../common/splitmix.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace cgmat {
namespace {

using sample::splitmix64;
using sample::unit;

// Small sequential generator for structure decisions.
struct Rng : sample::SplitMix {
  using SplitMix::SplitMix;
  // Uniform integer in [0, m).
  uint64_t below(uint64_t m) { return next() % m; }
};

// Symmetric off-diagonal value of edge {i, j}: in [-1, -0.1].
float edge_value(uint64_t seed, int i, int j) {
  uint64_t lo = static_cast<uint64_t>(std::min(i, j)), hi = static_cast<uint64_t>(std::max(i, j));
  uint64_t h = splitmix64(splitmix64(seed * 0x2545f4914f6cdd1dULL + 1) ^ ((lo << 32) | hi));
  return static_cast<float>(-(0.1 + 0.9 * unit(h)));
}

// Margin by which the diagonal exceeds the row's absolute off-diagonal sum.
constexpr float kDiagMargin = 0.1f;

// Builds an SPD CSR matrix from a symmetric neighbour relation: neighbours(i, out)
// appends the off-diagonal columns of row i (any order, no duplicates, no i).
template <class Neighbours>
Csr build_spd(int n, uint64_t seed, Neighbours neighbours, long long nnz_hint) {
  Csr a;
  a.n = n;
  a.row_ptr.resize(static_cast<size_t>(n) + 1);
  a.col.reserve(static_cast<size_t>(nnz_hint));
  a.val.reserve(static_cast<size_t>(nnz_hint));
  std::vector<int> nb;
  a.row_ptr[0] = 0;
  for (int i = 0; i < n; ++i) {
    nb.clear();
    neighbours(i, nb);
    nb.push_back(i);
    std::sort(nb.begin(), nb.end());
    double abs_sum = 0.0;
    size_t diag_at = 0;
    for (size_t k = 0; k < nb.size(); ++k) {
      int j = nb[k];
      float v = 0.0f;
      if (j == i) {
        diag_at = a.col.size();
      } else {
        v = edge_value(seed, i, j);
        abs_sum += std::fabs(static_cast<double>(v));
      }
      a.col.push_back(j);
      a.val.push_back(v);
    }
    a.val[diag_at] = static_cast<float>(abs_sum) + kDiagMargin;
    if (a.col.size() > static_cast<size_t>(INT32_MAX))
      throw std::length_error("matrix has more than 2^31-1 non-zeros");
    a.row_ptr[static_cast<size_t>(i) + 1] = static_cast<int>(a.col.size());
  }
  return a;
}

// 2-D grid of width w (last row possibly partial), node i at (i % w, i / w).
// With `diagonal`, also (x+1, y+1) and (x-1, y-1): a triangulated mesh, 7 per row.
Csr grid2d(int n, uint64_t seed, bool diagonal) {
  const long long w = static_cast<long long>(std::ceil(std::sqrt(static_cast<double>(n))));
  auto nbs = [n, w, diagonal](int i, std::vector<int> &out) {
    const long long x = i % w;
    if (x > 0) out.push_back(i - 1);
    if (x + 1 < w && i + 1 < n) out.push_back(i + 1);
    if (i - w >= 0) out.push_back(static_cast<int>(i - w));
    if (i + w < n) out.push_back(static_cast<int>(i + w));
    if (diagonal) {
      if (x > 0 && i - w - 1 >= 0) out.push_back(static_cast<int>(i - w - 1));
      if (x + 1 < w && i + w + 1 < n) out.push_back(static_cast<int>(i + w + 1));
    }
  };
  return build_spd(n, seed, nbs, static_cast<long long>(n) * (diagonal ? 7 : 5));
}

// 3-D 7-point grid of side w (last plane possibly partial) plus, for about 2% of
// the nodes, one random symmetric edge to a node up to 4096 rows away: rows of
// 4 (corners) to 8, most of them 7 (apache2: 715,176 rows, 4.8M non-zeros).
Csr apache_like(int n, uint64_t seed) {
  const long long w = static_cast<long long>(std::ceil(std::cbrt(static_cast<double>(n))));
  const long long plane = w * w;
  // Extra edges, stored both ways, sorted by row.
  std::vector<std::pair<int, int>> extra;
  Rng rng(seed ^ 0xa9ac4e);
  std::vector<unsigned char> used(static_cast<size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    if (rng.uniform() >= 0.02 || used[static_cast<size_t>(i)]) continue;
    long long j = i + 2 * w + 1 + static_cast<long long>(rng.below(4096));
    if (j >= n || used[static_cast<size_t>(j)]) continue;
    used[static_cast<size_t>(i)] = used[static_cast<size_t>(j)] = 1;
    extra.emplace_back(i, static_cast<int>(j));
    extra.emplace_back(static_cast<int>(j), i);
  }
  std::sort(extra.begin(), extra.end());
  size_t e = 0;
  auto nbs = [n, w, plane, &extra, &e](int i, std::vector<int> &out) {
    const long long x = i % w, y = (i / w) % w;
    if (x > 0) out.push_back(i - 1);
    if (x + 1 < w && i + 1 < n) out.push_back(i + 1);
    if (y > 0) out.push_back(static_cast<int>(i - w));
    if (y + 1 < w && i + w < n) out.push_back(static_cast<int>(i + w));
    if (i - plane >= 0) out.push_back(static_cast<int>(i - plane));
    if (i + plane < n) out.push_back(static_cast<int>(i + plane));
    while (e < extra.size() && extra[e].first == i) out.push_back(extra[e++].second);
  };
  return build_spd(n, seed, nbs, static_cast<long long>(n) * 7);
}

// Irregular rows of 7 to 31 non-zeros, about 16 on average, with locality
// (neighbours within a window of rows), like offshore (259,789 rows, 4.2M nnz).
// Each row draws a target number of off-diagonal entries, 6..30 (short rows
// more likely), then rows in order pair up with random later rows in the window
// that still have room. Rows left short by the end are topped up from earlier rows.
Csr offshore_like(int n, uint64_t seed) {
  constexpr int kMaxOff = 30, kMinOff = 6, kWindow = 256;
  Rng rng(seed ^ 0x0ff540eULL);
  std::vector<unsigned char> target(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    // 54%: 6..13, 46%: 14..30 -> about 15.3 off-diagonal entries on average.
    int t = rng.uniform() < 0.54 ? kMinOff + static_cast<int>(rng.below(8))
                                : 14 + static_cast<int>(rng.below(17));
    target[static_cast<size_t>(i)] = static_cast<unsigned char>(t);
  }
  std::vector<std::vector<int>> adj(static_cast<size_t>(n));
  auto linked = [&adj](int i, int j) {
    const auto &v = adj[static_cast<size_t>(i)];
    return std::find(v.begin(), v.end(), j) != v.end();
  };
  auto link = [&adj](int i, int j) {
    adj[static_cast<size_t>(i)].push_back(j);
    adj[static_cast<size_t>(j)].push_back(i);
  };
  for (int i = 0; i < n; ++i) {
    auto &ai = adj[static_cast<size_t>(i)];
    for (int tries = 0; static_cast<int>(ai.size()) < target[static_cast<size_t>(i)] && tries < 256;
         ++tries) {
      long long j = i + 1 + static_cast<long long>(rng.below(kWindow));
      if (j >= n) break;
      int jj = static_cast<int>(j);
      if (static_cast<int>(adj[static_cast<size_t>(jj)].size()) >= target[static_cast<size_t>(jj)] ||
          linked(i, jj))
        continue;
      link(i, jj);
    }
  }
  // Top up short rows (near the end) from earlier rows that have room below the cap.
  for (int i = 0; i < n; ++i) {
    auto &ai = adj[static_cast<size_t>(i)];
    for (int tries = 0; static_cast<int>(ai.size()) < kMinOff && tries < 100000; ++tries) {
      long long j = i - 1 - static_cast<long long>(rng.below(static_cast<uint64_t>(std::min(i, 4 * kWindow) + 1)));
      if (j < 0) j = i + 1 + static_cast<long long>(rng.below(kWindow));
      if (j < 0 || j >= n || j == i) continue;
      int jj = static_cast<int>(j);
      if (static_cast<int>(adj[static_cast<size_t>(jj)].size()) >= kMaxOff || linked(i, jj)) continue;
      link(i, jj);
    }
  }
  long long total = 0;
  for (const auto &v : adj) total += static_cast<long long>(v.size()) + 1;
  auto nbs = [&adj](int i, std::vector<int> &out) {
    const auto &v = adj[static_cast<size_t>(i)];
    out.insert(out.end(), v.begin(), v.end());
  };
  return build_spd(n, seed, nbs, total);
}

// Few long rows, like the scalar CSR SpMV that benchmark suites ship beside
// their warp-per-row kernel (10,240 rows of about 1,640 non-zeros): row i's
// neighbours lie within kHalfBand rows of it, each pair {i, j} kept with
// probability 2/3 (a hash of the pair, so the pattern is symmetric). Rows in
// the middle have about 1,754 entries, rows at the ends about 877; about
// 1,640 on average at 10,240 rows.
Csr long_rows(int n, uint64_t seed) {
  constexpr int kHalfBand = 1315;
  const uint64_t pair_seed = splitmix64(seed ^ 0x10c6e5ULL);
  auto nbs = [&](int i, std::vector<int> &out) {
    const int lo = std::max(0, i - kHalfBand), hi = std::min(n - 1, i + kHalfBand);
    for (int j = lo; j <= hi; ++j) {
      if (j == i) continue;
      const uint64_t a = static_cast<uint64_t>(std::min(i, j)), b = static_cast<uint64_t>(std::max(i, j));
      if (unit(splitmix64(pair_seed ^ ((a << 32) | b))) < 2.0 / 3.0) out.push_back(j);
    }
  };
  return build_spd(n, seed, nbs, static_cast<long long>(n) * 1700);
}

std::string lower(std::string s) {
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The same matrix with its rows and columns renumbered by a random
// permutation (P A P^T): what a mesh numbered without care looks like. Values
// go with their entries, so it stays SPD; columns are sorted again.
Csr shuffled(const Csr &a, uint64_t seed) {
  const int n = a.n;
  std::vector<int> old_of(static_cast<size_t>(n)), new_of(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) old_of[static_cast<size_t>(i)] = i;
  Rng rng(splitmix64(seed ^ 0x5a17ed5eedULL));
  for (int i = n - 1; i > 0; --i)
    std::swap(old_of[static_cast<size_t>(i)], old_of[static_cast<size_t>(rng.below(static_cast<uint64_t>(i) + 1))]);
  for (int i = 0; i < n; ++i) new_of[static_cast<size_t>(old_of[static_cast<size_t>(i)])] = i;
  Csr b;
  b.n = n;
  b.row_ptr.resize(static_cast<size_t>(n) + 1);
  b.col.reserve(a.col.size());
  b.val.reserve(a.val.size());
  std::vector<std::pair<int, float>> row;
  for (int r = 0; r < n; ++r) {
    const int o = old_of[static_cast<size_t>(r)];
    row.clear();
    for (int k = a.row_ptr[static_cast<size_t>(o)]; k < a.row_ptr[static_cast<size_t>(o) + 1]; ++k)
      row.emplace_back(new_of[static_cast<size_t>(a.col[static_cast<size_t>(k)])], a.val[static_cast<size_t>(k)]);
    std::sort(row.begin(), row.end());
    for (const auto &e : row) {
      b.col.push_back(e.first);
      b.val.push_back(e.second);
    }
    b.row_ptr[static_cast<size_t>(r) + 1] = static_cast<int>(b.col.size());
  }
  return b;
}

// "grid-shuffled" -> "grid"; "" for a name without the suffix.
std::string unshuffled(const std::string &cls) {
  static const std::string suffix = "-shuffled";
  if (cls.size() <= suffix.size() || cls.compare(cls.size() - suffix.size(), suffix.size(), suffix) != 0)
    return "";
  return cls.substr(0, cls.size() - suffix.size());
}

} // namespace

const std::vector<std::string> &classes() {
  static const std::vector<std::string> k = {"grid",          "fem",          "apache",   "offshore",
                                             "grid-shuffled", "fem-shuffled", "long-rows"};
  return k;
}

bool is_class(const std::string &cls) { return paper_rows(cls) > 0; }

int paper_rows(const std::string &cls) {
  if (cls == "grid") return 999999;
  if (cls == "fem") return 525825;
  if (cls == "apache") return 715176;
  if (cls == "offshore") return 259789;
  if (cls == "long-rows") return 10240;
  if (cls == "grid-shuffled" || cls == "fem-shuffled") return paper_rows(unshuffled(cls));
  return 0;
}

Csr generate(const std::string &cls, int rows, uint64_t seed) {
  if (!is_class(cls)) throw std::invalid_argument("unknown matrix class '" + cls + "'");
  if (rows < 2) throw std::invalid_argument("matrix needs at least 2 rows");
  Csr a;
  if (!unshuffled(cls).empty()) a = shuffled(generate(unshuffled(cls), rows, seed), seed);
  else if (cls == "grid") a = grid2d(rows, seed, false);
  else if (cls == "fem") a = grid2d(rows, seed, true);
  else if (cls == "apache") a = apache_like(rows, seed);
  else if (cls == "long-rows") a = long_rows(rows, seed);
  else a = offshore_like(rows, seed);
  a.name = cls + " (" + std::to_string(rows) + " rows, seed " + std::to_string(seed) + ")";
  return a;
}

Csr read_matrix_market(const std::string &path, uint64_t seed) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty file");
  std::istringstream hs(line);
  std::string banner, object, format, field, symmetry;
  hs >> banner >> object >> format >> field >> symmetry;
  if (banner != "%%MatrixMarket")
    throw std::runtime_error(path + ":1: not a Matrix Market file (no %%MatrixMarket banner)");
  object = lower(object), format = lower(format), field = lower(field), symmetry = lower(symmetry);
  if (object != "matrix" || format != "coordinate")
    throw std::runtime_error(path + ":1: only 'matrix coordinate' is supported, not '" + object +
                             " " + format + "'");
  const bool pattern = field == "pattern";
  if (!pattern && field != "real" && field != "integer" && field != "double")
    throw std::runtime_error(path + ":1: field '" + field +
                             "' is not supported (real, integer or pattern)");
  const bool symmetric = symmetry == "symmetric";
  if (!symmetric && symmetry != "general")
    throw std::runtime_error(path + ":1: symmetry '" + symmetry +
                             "' is not supported (general or symmetric)");

  long long lineno = 1;
  long long rows = -1, cols = -1, entries = -1;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '%') continue;
    std::istringstream ss(line);
    if (!(ss >> rows >> cols >> entries) || rows <= 0 || cols <= 0 || entries < 0)
      throw std::runtime_error(path + ":" + std::to_string(lineno) + ": bad size line");
    break;
  }
  if (rows < 0) throw std::runtime_error(path + ": no size line");
  if (rows != cols)
    throw std::runtime_error(path + ": matrix is " + std::to_string(rows) + "x" +
                             std::to_string(cols) + ", not square");
  if (rows > INT32_MAX) throw std::runtime_error(path + ": too many rows");
  const int n = static_cast<int>(rows);

  struct Entry {
    int r, c;
    float v;
  };
  std::vector<Entry> coo;
  coo.reserve(static_cast<size_t>(symmetric ? 2 * entries : entries));
  long long seen = 0;
  while (seen < entries && std::getline(in, line)) {
    ++lineno;
    const char *p = line.c_str();
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '\0' || *p == '%') continue;
    char *end = nullptr;
    long long r = std::strtoll(p, &end, 10);
    if (end == p) throw std::runtime_error(path + ":" + std::to_string(lineno) + ": bad entry");
    p = end;
    long long c = std::strtoll(p, &end, 10);
    if (end == p) throw std::runtime_error(path + ":" + std::to_string(lineno) + ": bad entry");
    p = end;
    double v = 0.0;
    if (!pattern) {
      v = std::strtod(p, &end);
      if (end == p)
        throw std::runtime_error(path + ":" + std::to_string(lineno) + ": entry has no value");
    }
    if (r < 1 || r > rows || c < 1 || c > cols)
      throw std::runtime_error(path + ":" + std::to_string(lineno) + ": index out of range");
    int ri = static_cast<int>(r - 1), ci = static_cast<int>(c - 1);
    coo.push_back({ri, ci, static_cast<float>(v)});
    if (symmetric && ri != ci) coo.push_back({ci, ri, static_cast<float>(v)});
    ++seen;
  }
  if (seen < entries)
    throw std::runtime_error(path + ": file ends after " + std::to_string(seen) + " of " +
                             std::to_string(entries) + " entries");
  if (pattern) {
    // Random SPD values: symmetric off-diagonals, dominant diagonal (added where missing).
    for (auto &e : coo) e.v = e.r == e.c ? 0.0f : edge_value(seed, e.r, e.c);
    for (int i = 0; i < n; ++i) coo.push_back({i, i, 0.0f});
  }
  std::sort(coo.begin(), coo.end(),
            [](const Entry &a, const Entry &b) { return a.r != b.r ? a.r < b.r : a.c < b.c; });

  Csr a;
  a.n = n;
  a.row_ptr.assign(static_cast<size_t>(n) + 1, 0);
  a.col.reserve(coo.size());
  a.val.reserve(coo.size());
  for (size_t k = 0; k < coo.size();) {
    size_t m = k;
    double sum = 0.0;
    while (m < coo.size() && coo[m].r == coo[k].r && coo[m].c == coo[k].c) sum += coo[m++].v;
    if (pattern && coo[k].r == coo[k].c) sum = 0.0; // duplicates of a pattern diagonal
    a.col.push_back(coo[k].c);
    a.val.push_back(static_cast<float>(sum));
    a.row_ptr[static_cast<size_t>(coo[k].r) + 1]++;
    k = m;
  }
  for (int i = 0; i < n; ++i) a.row_ptr[static_cast<size_t>(i) + 1] += a.row_ptr[static_cast<size_t>(i)];
  if (a.col.size() > static_cast<size_t>(INT32_MAX))
    throw std::runtime_error(path + ": more than 2^31-1 non-zeros");
  if (pattern) {
    for (int i = 0; i < n; ++i) {
      double abs_sum = 0.0;
      int diag = -1;
      for (int k = a.row_ptr[static_cast<size_t>(i)]; k < a.row_ptr[static_cast<size_t>(i) + 1]; ++k) {
        if (a.col[static_cast<size_t>(k)] == i) diag = k;
        else abs_sum += std::fabs(static_cast<double>(a.val[static_cast<size_t>(k)]));
      }
      a.val[static_cast<size_t>(diag)] = static_cast<float>(abs_sum) + kDiagMargin;
    }
  }
  a.name = path;
  return a;
}

Stats stats(const Csr &a, bool check_symmetry) {
  Stats s;
  s.n = a.n;
  s.nnz = a.nnz();
  s.min_row = a.n > 0 ? INT32_MAX : 0;
  for (int i = 0; i < a.n; ++i) {
    int len = a.row_ptr[static_cast<size_t>(i) + 1] - a.row_ptr[static_cast<size_t>(i)];
    s.min_row = std::min(s.min_row, len);
    s.max_row = std::max(s.max_row, len);
  }
  s.avg_row = a.n > 0 ? static_cast<double>(s.nnz) / a.n : 0.0;
  if (check_symmetry) {
    s.symmetric_pattern = true;
    for (int i = 0; i < a.n && s.symmetric_pattern; ++i)
      for (int k = a.row_ptr[static_cast<size_t>(i)]; k < a.row_ptr[static_cast<size_t>(i) + 1]; ++k) {
        int j = a.col[static_cast<size_t>(k)];
        auto b = a.col.begin() + a.row_ptr[static_cast<size_t>(j)];
        auto e = a.col.begin() + a.row_ptr[static_cast<size_t>(j) + 1];
        if (!std::binary_search(b, e, i)) {
          s.symmetric_pattern = false;
          break;
        }
      }
  }
  return s;
}

void spmv_host(const Csr &a, const float *x, float *y) {
  for (int i = 0; i < a.n; ++i) {
    float sum = 0.0f;
    for (int k = a.row_ptr[static_cast<size_t>(i)]; k < a.row_ptr[static_cast<size_t>(i) + 1]; ++k)
      sum += a.val[static_cast<size_t>(k)] * x[a.col[static_cast<size_t>(k)]];
    y[i] = sum;
  }
}

std::vector<float> random_vector(size_t n, uint64_t seed, float lo, float hi) {
  std::vector<float> v(n);
  Rng rng(seed ^ 0x7ec7042ULL);
  for (auto &x : v) x = lo + static_cast<float>(rng.uniform()) * (hi - lo);
  return v;
}

} // namespace cgmat
