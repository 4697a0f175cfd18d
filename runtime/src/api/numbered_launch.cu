// irregfix runtime: the entry points of program-wide renumbering (domain.h):
// numbered_launch before each launch of a file that may keep a domain, and
// irregfix_host_access before its copies and memsets. The domain forms at the
// first launch that names a neighbour list whose threads, as numbered, read
// far apart (the locality order's measure, layout_policy.h); each array is
// then renumbered when a launch that may see it so first needs it, and
// restored before anything else sees it.
#include <irregfix/irregfix.cuh>

#include "device_memory.h"
#include "layout_policy.h"
#include "sector_marks.h"
#include "state.h"

#include <algorithm>
#include <mutex>
#include <string>

namespace irregfix {
namespace detail {

namespace {

thread_local bool launch_renumbered = false;
// The domain's positions when the latest numbered_launch on this thread ran renumbered (numbered_positions).
thread_local const int *launch_positions = nullptr;

// The order is recomputed when the graph's measure in it got this much worse.
constexpr double kDomainDecay = 1.25;
// Rounds between launches of the graph watched before a domain forms (auto),
// at most: a round in which nothing read the arrays as numbered decides at
// once (the domain forms unless every round watched had such a read).
constexpr int kObservedRounds = 2;
// Rows of at least this many entries on average (a warp's worth) are left
// to the warp-cooperative layout, which the renumbered domain would bypass;
// a kernel that already runs several lanes a row is ordered whatever its rows.
constexpr long long kDomainLongRows = 32;
// A matrix whose columns lie this near their own row for this share of its
// entries reads near each other as numbered (a grid's neighbours a row of the
// grid apart, a mesh numbered by a band-reducing order): its rows' reads stay
// in a window the L2 holds, and auto forms no domain without measuring it.
// Near is at most a 64th of the rows, so that a small matrix is measured.
constexpr long long kDomainNearRow = 32768;
constexpr long long kDomainNearRowsShare = 64;
constexpr double kDomainNearShare = 0.95;
long long near_row(long long n) { return std::min(kDomainNearRow, n / kDomainNearRowsShare); }
// The band is told apart on a sample read to the host, kNearSampleRuns runs of
// kNearSampleRows rows spread over the matrix (at most kNearSampleColumns
// columns a run): no kernel, since the first launch of one loads its module
// (about 2 ms on an H100, 3% of a whole CG solve on a well-numbered grid).
constexpr long long kNearSampleRuns = 8;
constexpr long long kNearSampleRows = 128;
constexpr long long kNearSampleColumns = 4096;
// Launches over the domain before its moves are weighed against them.
constexpr long long kDomainChurnLaunches = 64;

void drop_copies(State &st, const DomainArray &a) {
  if (st.cache.size() != 0)
    st.cache.invalidate(a.range.base, Range{}, false);
}

// Gives up on the domain for the rest of the run: every array back first.
void switch_off(State &st, const std::string &why) {
  Domain &d = st.domain;
  for (auto &kv : d.arrays)
    if (kv.second.renumbered) {
      if (domain_restore(d, kv.second, 0, true) != cudaSuccess) {
        cudaGetLastError();
        std::fprintf(stderr, "irregfix: could not restore an array of the renumbered domain: results are wrong\n");
      }
      drop_copies(st, kv.second);
    }
  d.status = Domain::kOff;
  d.why = why;
  st.domain_formed.store(false);
}

// Before a launch on the legacy default stream, the moves are queued on it;
// anywhere else (a copy, unseen code, another stream) the device waits.
thread_local cudaStream_t move_stream = 0;
thread_local bool move_sync = true;

bool restore(State &st, DomainArray &a, const std::string &why);

// The row starts go back with every array stored along them (which needs
// both numberings of the starts), and the starts are forgotten: whoever
// changes them may change the rows.
bool restore_rows(State &st, DomainArray &rows, const std::string &why) {
  for (auto &kv : st.domain.arrays)
    if ((kv.second.role & kDomainSegments) && !restore(st, kv.second, why))
      return false;
  const bool moved = rows.renumbered;
  if (moved && domain_restore(st.domain, rows, move_stream, move_sync) != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while restoring an array");
    return false;
  }
  st.domain.nnz = -1;
  if (moved)
    ++st.domain.stats.boundaries[why];
  return true;
}

bool restore(State &st, DomainArray &a, const std::string &why) {
  if (a.role & kDomainRows)
    return restore_rows(st, a, why);
  if (!a.renumbered)
    return true;
  if (domain_restore(st.domain, a, move_stream, move_sync) != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while restoring an array");
    return false;
  }
  drop_copies(st, a);
  ++st.domain.stats.boundaries[why];
  return true;
}

void restore_all(State &st, const std::string &why) {
  for (auto &kv : st.domain.arrays)
    if (!restore(st, kv.second, why))
      return;
}

// Every array of the domain among a launch's pointers, restored.
void restore_among(State &st, const void *const *p, int count, const std::string &why) {
  for (int i = 0; i < count; ++i)
    if (DomainArray *a = domain_array_at(st.domain, p[i]))
      restore(st, *a, why);
}

// The allocation at p, when p is its start and it is device memory (asked of
// CUDA once a pointer: launches pass the same ones again and again).
bool whole_allocation(Domain &d, const void *p, Range *r) {
  auto it = d.allocations.find(p);
  if (it == d.allocations.end()) {
    if (d.allocations.size() > 4096)
      d.allocations.clear();
    int memory = 0;
    Range found;
    if (!allocation_of(p, &found, &memory) || memory != cudaMemoryTypeDevice ||
        found.base != reinterpret_cast<std::uintptr_t>(p))
      found = Range{};
    cudaGetLastError();
    it = d.allocations.emplace(p, found).first;
  }
  *r = it->second;
  return !r->empty();
}

// The graph the order is computed from: a neighbour list NB[j*n + t], or a
// sparse matrix's rows (their columns and row starts).
bool graph_of(Domain &d, const NumberingKernel &k, const void *const *p, int count, long long n, AccessList *a) {
  if (k.graph < 0 || k.graph >= count)
    return false;
  Range r;
  const std::size_t esz = k.sizes[k.graph];
  if (!whole_allocation(d, p[k.graph], &r) || (esz != 4 && esz != 8) || n <= 0)
    return false;
  if (k.graph_rows >= 0) {
    Range rows;
    const std::size_t rsz = k.graph_rows < count ? k.sizes[k.graph_rows] : 0;
    if (!whole_allocation(d, p[k.graph_rows], &rows) || (rsz != 4 && rsz != 8) ||
        rows.size < rsz * static_cast<std::size_t>(n + 1))
      return false;
    a->kind = AccessList::kRange;
    a->n = n;
    a->idx = p[k.graph];
    a->idx_kind = esz == 8 ? kIndexI64 : kIndexI32;
    a->B = p[k.graph_rows];
    a->b_kind = rsz == 8 ? kIndexI64 : kIndexI32;
    a->lo = 0;
    a->hi = n;
    return true;
  }
  a->kind = AccessList::kNeighbors;
  a->n = n;
  a->idx = p[k.graph];
  a->idx_kind = esz == 8 ? kIndexI64 : kIndexI32;
  a->sj = n;
  a->st = 1;
  a->jmax = static_cast<long long>(r.size / (esz * static_cast<std::size_t>(n)));
  a->counts = k.graph_counts >= 0 && k.graph_counts < count ? p[k.graph_counts] : nullptr;
  a->counts_kind = k.graph_counts >= 0 && k.sizes[k.graph_counts] == 8 ? kIndexI64 : kIndexI32;
  a->lo = 0;
  a->hi = n;
  return a->jmax > 0;
}

// Bytes of the largest element the launch reads as elements (the sectors the
// measure counts), 4 when none.
std::size_t element_bytes(const NumberingKernel &k, int count) {
  std::size_t esz = 0;
  for (int i = 0; i < count; ++i)
    if ((k.roles[i] & 0x7f) == kNumberingElements)
      esz = std::max<std::size_t>(esz, k.sizes[i]);
  return esz ? esz : 4;
}

// Row starts B[first + r * spacing + i], i < count, r < runs (count * runs at
// most kStartsRead), read to the host in one copy, strided where runs > 1 (a
// copy to the host waits for the device and costs about 10 us), of the
// graph's index kind; out[r * count + i].
constexpr long long kStartsRead = kNearSampleRuns * (kNearSampleRows + 1);
cudaError_t read_starts(const AccessList &a, long long first, long long count, long long runs, long long spacing,
                        long long *out) {
  const std::size_t isz = index_size(a.b_kind);
  if (count * runs > kStartsRead || (runs > 1 && spacing < count))
    return cudaErrorInvalidValue;
  unsigned char raw[kStartsRead * 8];
  if (const cudaError_t e = cudaMemcpy2D(raw, count * isz, static_cast<const unsigned char *>(a.B) + first * isz,
                                         (runs > 1 ? spacing : count) * isz, count * isz, runs, cudaMemcpyDeviceToHost);
      e != cudaSuccess)
    return e;
  for (long long i = 0; i < count * runs; ++i)
    if (!index_value(raw + i * isz, a.b_kind, &out[i]))
      out[i] = -1;
  return cudaSuccess;
}

// The share of the sampled columns (i32) within near_row(n) of their row; -1
// when the sample holds none.
cudaError_t sampled_near_share(const AccessList &a, double *share) {
  *share = -1;
  const long long runs = std::min(kNearSampleRuns, (a.n + kNearSampleRows - 1) / kNearSampleRows);
  const long long band = near_row(a.n), spacing = a.n / runs;
  long long read[kStartsRead];
  int columns[kNearSampleColumns];
  long long near = 0, sampled = 0;
  // Runs apart: their starts in one strided copy; else (fewer than
  // kStartsRead rows, the runs overlapping) every row's start in one copy.
  const bool spaced = spacing >= kNearSampleRows + 1;
  if (const cudaError_t e = spaced ? read_starts(a, 0, kNearSampleRows + 1, runs, spacing, read)
                                   : read_starts(a, 0, a.n + 1, 1, 0, read);
      e != cudaSuccess)
    return e;
  for (long long r = 0; r < runs; ++r) {
    const long long first = r * spacing, rows = std::min(kNearSampleRows, a.n - first);
    const long long *starts = spaced ? read + r * (kNearSampleRows + 1) : read + first;
    if (rows <= 0)
      continue;
    const long long from = starts[0], to = std::min(starts[rows], from + kNearSampleColumns);
    if (from < 0 || to <= from) // not row starts this sample can read: the pass over the rows will tell
      continue;
    if (const cudaError_t e = cudaMemcpy(columns, static_cast<const int *>(a.idx) + from, (to - from) * sizeof(int),
                                         cudaMemcpyDeviceToHost);
        e != cudaSuccess)
      return e;
    for (long long i = 0; i < rows; ++i)
      for (long long k = std::max(starts[i], from); k < std::min(starts[i + 1], to); ++k) {
        const long long d = columns[k - from] - (first + i);
        near += d >= -band && d <= band;
        ++sampled;
      }
  }
  if (sampled > 0)
    *share = static_cast<double>(near) / static_cast<double>(sampled);
  return cudaSuccess;
}

// The rows' first and last starts, B[0] and B[n] (their entries: the
// difference), read to the host once the device is idle. False: a CUDA call
// failed, and the domain is off.
bool row_ends(State &st, const AccessList &a, long long *first, long long *last) {
  long long ends[2] = {0, 0};
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess)
    e = read_starts(a, 0, 1, 2, a.n, ends);
  if (e != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while reading the rows");
    return false;
  }
  *first = ends[0];
  *last = ends[1];
  return true;
}

// Whether the rows may form the domain: rows short enough, and every column
// numbering one of the n elements (a square matrix: renumbering rows and
// columns by one order is then a relabelling). *near: the share of the
// columns within near_row(n) of their own row. Under auto, a band matrix as
// sampled (sampled_near_share) is left to the caller to decline without the
// pass over the rows that checks it is square.
// False with *why empty: a CUDA call failed (the domain is off).
// first, last: row_ends.
bool square_rows(State &st, const AccessList &a, const NumberingKernel &k, long long first, long long last,
                 double *near, std::string *why) {
  *near = 0;
  if (k.lanes <= 1 && last - first >= kDomainLongRows * a.n) {
    char line[200];
    std::snprintf(line, sizeof line, "'%s''s rows hold %.0f entries on average: several lanes a row serve long rows "
                  "better than an order", k.kernel, static_cast<double>(last - first) / static_cast<double>(a.n));
    *why = line;
    return false;
  }
  // Lanes a row over rows shorter than the lanes: a group reads a few
  // elements at a time, and waits on each; gathering them closer saves
  // little (a warp a row over 5 to 7 entries: 0.95-1.07x on an H200).
  if (k.lanes > 1 && st.cfg.domain == 0 && last - first < k.lanes * a.n) {
    char line[200];
    std::snprintf(line, sizeof line, "'%s' runs %d lanes a row over rows of %.1f entries on average: a group's few "
                  "reads gain little from an order", k.kernel, k.lanes,
                  static_cast<double>(last - first) / static_cast<double>(a.n));
    *why = line;
    return false;
  }
  if (a.idx_kind != kIndexI32) {
    *why = std::string("'") + k.kernel + "''s columns are 8-byte numbers (not measured)";
    return false;
  }
  // A band matrix, from the sample: left alone (the caller declines it), with
  // no pass over the rows, whether it is square or not.
  cudaError_t e = cudaSuccess;
  if (st.cfg.domain == 0 && last > first) {
    double share = -1;
    if ((e = sampled_near_share(a, &share)) == cudaSuccess && share >= kDomainNearShare) {
      *near = share;
      return true;
    }
  }
  long long h[4] = {0, 0, 0, 0};
  static_assert(sizeof h <= kDomainCounts * sizeof(unsigned long long), "the extent fits the domain's counts");
  if (e == cudaSuccess && last > first && (e = domain_counts(st.domain)) == cudaSuccess) {
    auto *extent = reinterpret_cast<long long *>(st.domain.counts);
    ++st.domain.stats.row_passes;
    if ((e = rows_extent(a, near_row(a.n), extent, 0)) == cudaSuccess)
      e = cudaMemcpy(h, extent, sizeof h, cudaMemcpyDeviceToHost);
  }
  if (e != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while reading the rows");
    return false;
  }
  if (h[0] != 0) {
    char line[200];
    std::snprintf(line, sizeof line, "'%s''s rows have %lld columns outside [0, %lld) (from %lld to %lld): not a "
                  "square matrix over its threads", k.kernel, h[0], a.n, h[1], h[2]);
    *why = line;
    return false;
  }
  *near = last > first ? static_cast<double>(h[3]) / static_cast<double>(last - first) : 1.0;
  return true;
}

// Whether renumbering pays for a program whose sums read through the order
// (gathering their elements, which must fit the L2: positions_fit_cache):
// only where the graph's kernel streams its rows through more than the L2
// holds, so that its reads as numbered go to memory. Where the L2 holds the
// rows too, its scattered reads hit the L2 already and the order saves less
// than the sums' gathers and the hooks cost (CG at 1x on an H100: 0.78-0.83x
// over 200 iterations, slower still after 1,000 on the grid).
// Decided before any pass over the rows, from their entries (row_ends).
bool through_order_pays(State &st, const NumberingKernel &k, int count, long long entries, std::string *why) {
  unsigned long long per_entry = 0;
  for (int i = 0; i < count; ++i)
    if (k.roles[i] & kNumberingSegments)
      per_entry += k.sizes[i];
  const unsigned long long streamed = per_entry * static_cast<unsigned long long>(entries > 0 ? entries : 0);
  int l2 = 0;
  if (device_l2_bytes(st.devices, st.domain.device, &l2) != cudaSuccess)
    cudaGetLastError();
  if (l2 <= 0 || streamed > static_cast<unsigned long long>(l2))
    return true;
  char line[240];
  std::snprintf(line, sizeof line, "sums read through the order, and '%s' streams its rows in %.1f MB, which the L2 "
                "(%.1f MB) holds: its reads as numbered hit the L2, and the order would save less than the sums' "
                "gathers cost", k.kernel, static_cast<double>(streamed) / 1e6, static_cast<double>(l2) / 1e6);
  *why = line;
  return false;
}

// Computes the order from graph a: the domain is formed.
void form(State &st, const NumberingKernel &k, const void *const *p, const AccessList &a, int per_sector) {
  Domain &d = st.domain;
  if (domain_order(d, a, st.cfg.domain_region, per_sector) != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while computing the order");
    return;
  }
  d.status = Domain::kFormed;
  st.domain_formed.store(true);
  d.graph = reinterpret_cast<std::uintptr_t>(p[k.graph]);
  d.rows = a.kind == AccessList::kRange ? reinterpret_cast<std::uintptr_t>(a.B) : 0;
  d.nnz = -1;
  d.graph_changed = false;
  d.watched.clear();
}

// Whether the graph may form the domain, measured as numbered (d.identity):
// rows that make a square matrix, whose threads read far enough apart that an
// order pays (unless IRREGFIX_DOMAIN=1). Otherwise declined, with why, or off.
bool worth_forming(State &st, const NumberingKernel &k, int count, const AccessList &a, int per_sector) {
  Domain &d = st.domain;
  HostClock clock(d.stats.check_ms);
  if (a.kind == AccessList::kRange) {
    std::string why;
    double near = 0;
    long long first = 0, last = 0;
    if (!row_ends(st, a, &first, &last))
      return false;
    if (d.through_order && st.cfg.domain == 0 && !through_order_pays(st, k, count, last - first, &why)) {
      d.status = Domain::kDeclined;
      d.why = why;
      return false;
    }
    if (!square_rows(st, a, k, first, last, &near, &why)) {
      if (!why.empty()) {
        d.status = Domain::kDeclined;
        d.why = why;
      }
      return false;
    }
    // A band matrix's rows read near their own: no order to gain, no measure to pay.
    if (st.cfg.domain == 0 && near >= kDomainNearShare) {
      char line[200];
      std::snprintf(line, sizeof line, "%.0f%% of '%s''s columns lie within %lld of their row: its reads are near "
                    "each other as numbered", 100.0 * near, k.kernel, near_row(a.n));
      d.status = Domain::kDeclined;
      d.why = line;
      return false;
    }
  }
  if (cudaDeviceSynchronize() != cudaSuccess || domain_measure(d, a, false, per_sector, &d.identity) != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while measuring the graph");
    return false;
  }
  if (st.cfg.domain == 0 && d.identity < kOrderWorthSectors) {
    char why[160];
    std::snprintf(why, sizeof why, "'%s''s threads, as numbered, read %.3f sectors a read (an order pays from %.2f)",
                  k.kernel, d.identity, kOrderWorthSectors);
    d.status = Domain::kDeclined;
    d.why = why;
    return false;
  }
  return true;
}

// At the graph's first launch: forms the domain (IRREGFIX_DOMAIN=1), or
// starts watching rounds of launches (auto). The graph is measured only once
// the watching did not rule the domain out, so that a program whose kernels
// read the arrays as numbered every round pays no measure.
void decide(State &st, const NumberingKernel &k, const void *const *p, int count, long long n, int dev) {
  Domain &d = st.domain;
  AccessList a;
  if (!graph_of(d, k, p, count, n, &a))
    return; // no graph here: another launch may have one
  if (st.cfg.domain != 0) {
    const int per_sector = sector_elements(element_bytes(k, count));
    if (worth_forming(st, k, count, a, per_sector)) {
      d.device = dev;
      form(st, k, p, a, per_sector);
    }
    return;
  }
  d.device = dev;
  d.graph = reinterpret_cast<std::uintptr_t>(p[k.graph]);
  d.status = Domain::kObserving;
  st.domain_formed.store(true); // unseen code must be noticed too
  d.watched.clear();
  d.conflict.clear();
  d.rounds = d.conflicted = 0;
  d.through_order = false;
  // A neighbour list is measured after the rounds watched: its kernel loaded
  // while the program starts, not in the middle of its run. (Rows are first
  // checked for a band, which most well-numbered matrices are: no measure,
  // and no load to pay for, follows.)
  if (k.graph_rows < 0 && load_sector_marks() != cudaSuccess)
    cudaGetLastError(); // loaded at the measure instead
  for (int i = 0; i < count; ++i) {
    Range r;
    if ((k.roles[i] & 0x7f) != kNumberingNone && (k.roles[i] & 0x7f) != kNumberingOther &&
        whole_allocation(d, p[i], &r))
      d.watched.emplace(r.base, r.size);
  }
}

// Watching the graph launch's arrays: p, read as the program numbers it by
// `who`, would be moved back at every round.
void watch(State &st, const void *p, const std::string &who) {
  Domain &d = st.domain;
  if (d.status != Domain::kObserving || !d.conflict.empty())
    return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto it = d.watched.upper_bound(a);
  if (p && (it == d.watched.begin() || a >= std::prev(it)->first + std::prev(it)->second))
    return;
  d.conflict = who;
}

// A later launch of the graph ends a round: the domain forms unless in every
// round watched something read the graph launch's arrays as numbered; after
// a round with such a read another is watched, up to kObservedRounds (a
// start-up step alone does not rule the domain out).
void settle(State &st, const NumberingKernel &k, const void *const *p, int count, long long n) {
  Domain &d = st.domain;
  AccessList a;
  if (reinterpret_cast<std::uintptr_t>(k.graph >= 0 && k.graph < count ? p[k.graph] : nullptr) != d.graph ||
      !graph_of(d, k, p, count, n, &a))
    return;
  ++d.rounds;
  if (!d.conflict.empty()) {
    ++d.conflicted;
    d.why = d.conflict;
    d.conflict.clear();
  }
  if (d.rounds < kObservedRounds && d.conflicted == d.rounds)
    return;
  if (d.conflicted == d.rounds) {
    d.status = Domain::kDeclined;
    d.why = "in each of the first " + std::to_string(d.rounds) + " rounds between launches of '" + k.kernel + "', " +
            d.why + " read its arrays as the program numbers them: they would move back and forth every round";
    st.domain_formed.store(false);
    return;
  }
  d.why.clear();
  const int per_sector = sector_elements(element_bytes(k, count));
  if (!worth_forming(st, k, count, a, per_sector)) {
    st.domain_formed.store(false);
    return;
  }
  form(st, k, p, a, per_sector);
}


// The graph changed since it was measured: when a check is due (OrderChecks)
// and it reads worse in the order than the order did when computed, every
// array goes back and the order is computed again from the graph as it is now.
void check_decay(State &st, const NumberingKernel &k, const void *const *p, int count) {
  Domain &d = st.domain;
  AccessList a;
  if (!d.graph_changed || !graph_of(d, k, p, count, d.n, &a))
    return;
  d.graph_changed = false;
  if (!d.checks.due())
    return;
  const int per_sector = sector_elements(element_bytes(k, count));
  DomainArray *g = domain_array_at(d, p[k.graph]);
  // Measured in the order, as the order was when computed: once renumbered,
  // the graph reads so as it is.
  if (domain_measure(d, a, !(g && g->renumbered), per_sector, &d.last) != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while measuring the graph");
    return;
  }
  d.checks.checked(d.fresh, d.last);
  if (d.last <= d.fresh * kDomainDecay)
    return;
  restore_all(st, "a new order (the old one decayed)");
  if (d.status == Domain::kFormed && domain_order(d, a, st.cfg.domain_region, per_sector) != cudaSuccess) {
    cudaGetLastError();
    switch_off(st, "a CUDA call failed while computing the order");
  }
}

// Why a reduction read through the order may not have its arrays renumbered:
// the elements it would gather do not fit the L2 (positions_fit_cache); "" if
// they do.
std::string positions_too_wide(State &st, const NumberingKernel &k, const void *const *p, int count, long long n,
                               int dev) {
  unsigned long long bytes = 0;
  for (int i = 0; i < count; ++i)
    if (p[i] && (k.roles[i] & 0x7f) == kNumberingElements)
      bytes += static_cast<unsigned long long>(k.sizes[i]) * static_cast<unsigned long long>(n > 0 ? n : 0);
  int l2 = 0;
  if (device_l2_bytes(st.devices, dev, &l2) != cudaSuccess)
    cudaGetLastError();
  if (positions_fit_cache(bytes, l2))
    return "";
  char why[200];
  std::snprintf(why, sizeof why, "read through the order, its sums would gather %.1f MB of elements, more than %.0f%% "
                "of the L2 holds", static_cast<double>(bytes) / 1e6, kPositionsCacheShare * 100);
  return why;
}

} // namespace

bool take_renumbered_launch() {
  const bool r = launch_renumbered;
  launch_renumbered = false;
  return r;
}

void restore_domain(State &st, const char *why) {
  watch(st, nullptr, why);
  st.domain.allocations.clear(); // unseen code may have freed and allocated
  if (st.domain.status == Domain::kFormed)
    restore_all(st, why);
}

} // namespace detail

void numbered_launch(const NumberingKernel &k, long long n, cudaStream_t stream,
                     std::initializer_list<const void *> pointers) {
  using namespace detail;
  launch_renumbered = false;
  launch_positions = nullptr;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  Domain &d = st.domain;
  const void *const *p = pointers.begin();
  const int count = static_cast<int>(pointers.size());
  if (st.cfg.disabled || st.cfg.domain < 0 || st.cfg.layout != 0 || d.status == Domain::kOff ||
      d.status == Domain::kDeclined)
    return;
  ++d.stats.launches;
  HostClock clock(d.stats.launch_ms, &d.stats.longest_ms); // the runtime's own time at this launch
  int dev = 0;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone) {
    cudaGetLastError();
    switch_off(st, "a launch on a stream being captured, or no device");
    return;
  }
  const std::string kernel = std::string("'") + (k.kernel ? k.kernel : "?") + "'";
  struct Moves { // this launch's moves queue on its stream when that is the legacy default one
    Moves(cudaStream_t s) { move_stream = s, move_sync = !(s == 0 || s == cudaStreamLegacy); }
    ~Moves() { move_stream = 0, move_sync = true; }
  } moves(stream);
  std::string not_because = k.not_because ? k.not_because : "";
  if (k.through_order && not_because.empty())
    not_because = positions_too_wide(st, k, p, count, n, dev);
  if (k.through_order && not_because.empty() && d.status == Domain::kObserving)
    d.through_order = true;
  if (!not_because.empty()) {
    for (int i = 0; i < count; ++i)
      watch(st, p[i], kernel + " (" + not_because + ")");
    restore_among(st, p, count, kernel + " (" + not_because + ")");
    return;
  }
  // An array it reads by other indices than element numbers must be as the
  // program numbers it (a cell's counts, a table); the others may be renumbered.
  for (int i = 0; i < count; ++i)
    if ((k.roles[i] & 0x7f) == kNumberingOther) {
      watch(st, p[i], kernel + " (an array it indexes otherwise)");
      if (DomainArray *a = domain_array_at(d, p[i]))
        if (!restore(st, *a, kernel + " (an array it indexes otherwise)"))
          return;
    }
  {
    HostClock c(d.stats.decide_ms);
    if (d.status == Domain::kUndecided)
      decide(st, k, p, count, n, dev);
    else if (d.status == Domain::kObserving)
      settle(st, k, p, count, n);
  }
  if (d.status != Domain::kFormed)
    return;
  if (dev != d.device) {
    restore_among(st, p, count, kernel + " (on another device)");
    return;
  }
  // Every array the launch gets as elements or numbers must be one the
  // domain can hold; elements only over the domain's own threads.
  bool elements = false, rows = false;
  Range ranges[64];
  if (count > 64) {
    restore_among(st, p, count, kernel + " (more than 64 pointers)");
    return;
  }
  for (int i = 0; i < count; ++i) {
    const int role = k.roles[i] & 0x7f;
    if (role == kNumberingNone || role == kNumberingOther)
      continue;
    elements = elements || (role & kNumberingElements);
    const std::size_t esz = k.sizes[i];
    if (!whole_allocation(d, p[i], &ranges[i]) || esz == 0 ||
        ((role & kNumberingNumbers) && esz != 4 && esz != 8) ||
        ((role & kNumberingElements) && ranges[i].size < esz * static_cast<std::size_t>(d.n)) ||
        ((role & kNumberingRows) && ranges[i].size < esz * static_cast<std::size_t>(d.n + 1))) {
      restore_among(st, p, count, kernel + " (an array that is not a whole device allocation of the domain's size)");
      return;
    }
    if ((role & (kNumberingRows | kNumberingSegments)) && (!d.rows || ((role & kNumberingRows) && ranges[i].base != d.rows))) {
      restore_among(st, p, count, kernel + " (rows other than those the order came from)");
      return;
    }
    rows = rows || (role & kNumberingRows);
  }
  // The rows' starts in both numberings, from the row starts as numbered.
  if (rows && d.nnz < 0) {
    HostClock c(d.stats.starts_ms);
    DomainArray *r = domain_array_at(d, reinterpret_cast<const void *>(d.rows));
    std::size_t rsz = 0;
    for (int i = 0; i < count; ++i)
      if ((k.roles[i] & 0x7f) == kNumberingRows)
        rsz = k.sizes[i];
    if ((r && r->renumbered) || cudaDeviceSynchronize() != cudaSuccess ||
        domain_starts(d, reinterpret_cast<const void *>(d.rows), rsz) != cudaSuccess) {
      cudaGetLastError();
      switch_off(st, "a CUDA call failed while reading the rows' starts");
      return;
    }
  }
  for (int i = 0; i < count; ++i)
    if ((k.roles[i] & kNumberingSegments) && ranges[i].size < k.sizes[i] * static_cast<std::size_t>(d.nnz)) {
      restore_among(st, p, count, kernel + " (an array shorter than its rows)");
      return;
    }
  if (elements && n != d.n) {
    restore_among(st, p, count, kernel + " (over another count of threads)");
    return;
  }
  check_decay(st, k, p, count);
  if (d.status != Domain::kFormed)
    return;
  for (int i = 0; i < count; ++i) {
    const int role = k.roles[i] & 0x7f;
    if (role == kNumberingNone || role == kNumberingOther)
      continue;
    DomainArray &a = d.arrays[ranges[i].base];
    if (a.role != role || a.elem != k.sizes[i] || a.range.size != ranges[i].size) {
      if (!restore(st, a, kernel + " (an array it reads another way)"))
        return;
      a.range = ranges[i];
      a.role = role;
      a.elem = k.sizes[i];
      a.columns = (role & kNumberingElements) ? static_cast<long long>(a.range.size / (a.elem * d.n)) : 0;
    }
    if (!a.renumbered) {
      HostClock c(d.stats.queue_ms);
      if (domain_renumber(d, a, move_stream, move_sync) != cudaSuccess) {
        cudaGetLastError();
        switch_off(st, "a CUDA call failed while renumbering an array");
        return;
      }
      drop_copies(st, a);
    }
    if ((k.roles[i] & kNumberingWritten) && ranges[i].base == d.graph)
      d.graph_changed = true;
  }
  ++d.stats.renumbered_launches;
  launch_renumbered = true;
  // Arrays that go back and forth about as often as launches run on them (a
  // kernel that is not indifferent between every two that are) cost a gather
  // each way and save little: the domain is given up.
  if (d.stats.launches >= kDomainChurnLaunches &&
      d.stats.renumbers + d.stats.restores > d.stats.renumbered_launches)
    switch_off(st, "its arrays moved more often than launches ran on them renumbered");
  if (d.status == Domain::kFormed)
    launch_positions = d.inv;
}

const int *numbered_positions() { return detail::launch_positions; }

} // namespace irregfix

extern "C" void irregfix_host_access(const void *ptr) {
  using namespace irregfix::detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  watch(st, ptr, ptr ? "a copy or memset on the host" : "a library call given device pointers");
  if (st.domain.status != Domain::kFormed)
    return;
  if (!ptr) { // a library given device pointers may keep them: everything back
    restore_all(st, "a library call given device pointers");
    return;
  }
  if (DomainArray *a = domain_array_at(st.domain, ptr)) {
    restore(st, *a, "a copy or memset on the host");
    if (a->range.base == st.domain.graph) {
      st.domain.graph_changed = true;
      // The rows' columns change: their starts go back too, and are read again.
      if (DomainArray *r = st.domain.rows ? domain_array_at(st.domain, reinterpret_cast<const void *>(st.domain.rows)) : nullptr)
        restore(st, *r, "a copy or memset on the host");
    }
  }
}
