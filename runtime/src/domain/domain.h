// irregfix runtime: program-wide renumbering. A domain is n elements whose
// device arrays the program's kernels index by the thread index (positions,
// velocities, forces: "elements"), plus the arrays whose values number those
// elements (neighbour and cell lists: "numbers"), and a sparse matrix's rows:
// their starts and the arrays stored along them (values, and columns that
// number elements). Kernels the tool finds
// indifferent to the numbering of their elements (they use an element number
// only to index elements, compare it for equality, or store it in numbers)
// run unchanged on the domain kept in a locality order: element e of the
// original numbering is element inv[e] here, numbers are translated. Each
// array is renumbered when a launch first needs it so, and restored when
// anything else may see it (a copy, a memset, another kernel, unseen code).
// Both are exact permutations, so results are the original's bit for bit.
#pragma once

#include "address_ranges.h"
#include "order.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace irregfix {
namespace detail {

// What a launch does with one of its pointers (irregfix::NumberingRole).
enum DomainRole : unsigned char {
  kDomainNone = 0,           // not an array of the domain
  kDomainElements = 1,       // indexed by the element number: a[t], a[j*n + t]
  kDomainNumbers = 2,        // holds element numbers (4- or 8-byte integers)
  kDomainElementNumbers = 3, // both: a neighbour list, a[j*n + t] = element number
  kDomainOther = 4,          // used some other way: the domain's numbering must not show
  kDomainRows = 8,           // the starts of the rows' segments (CSR row pointers), n + 1 of them
  kDomainSegments = 16,      // stored along the rows' segments (CSR values; columns with kDomainNumbers)
};

struct DomainArray {
  Range range;               // the whole allocation
  int role = kDomainNone;
  std::size_t elem = 0;      // bytes an element (elements), bytes a number (numbers)
  long long columns = 0;     // elements: range.size / (n * elem)
  bool renumbered = false;
};

// Adds the host time of a scope to `total` (and keeps the longest in `longest`).
struct HostClock {
  explicit HostClock(double &total, double *longest = nullptr)
      : total(total), longest(longest), begun(std::chrono::steady_clock::now()) {}
  ~HostClock() {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begun).count();
    total += ms;
    if (longest && ms > *longest)
      *longest = ms;
  }
  double &total;
  double *longest;
  std::chrono::steady_clock::time_point begun;
};

struct DomainStats {
  long long launches = 0, renumbered_launches = 0;
  long long renumbers = 0, restores = 0; // array passes each way
  double moved_mb = 0;                   // bytes the passes read and wrote
  long long orders = 0, sweeps = 0;      // orders computed, and their sweeps
  long long row_passes = 0;              // passes over a matrix's rows checking it is square
  double order_ms = 0;                   // their time (host clock, synchronised)
  double move_ms = 0;                    // the moves' GPU time (summed when reported: they are asynchronous)
  double launch_ms = 0;                  // host time in these launches' hooks (order, moves, waits for the device)
  double longest_ms = 0;                 // of it, the longest hook (where the domain formed)
  double decide_ms = 0;                  // of it, deciding and forming (checks, measures, the order)
  double check_ms = 0;                   // of that, the checks that the graph is worth an order
  double starts_ms = 0;                  // of it, the rows' starts in both numberings
  double queue_ms = 0;                   // of it, queueing the moves (and what they wait for)
  double alloc_ms = 0;                   // host time in the domain's device allocations and frees
  double measure_ms = 0;                 // host time in the sampled measures
  std::map<std::string, long long> boundaries; // restores, by what asked for them
};

struct Domain {
  // kObserving: over the rounds between the graph's first launches the
  // runtime watches whether anything reads the graph launch's
  // arrays as numbered (which would move them back at every round), and
  // forms the domain unless that happened in every round watched (a start-up
  // step alone, say an energy printed once, does not count).
  enum Status { kUndecided, kObserving, kDeclined, kFormed, kOff };
  Status status = kUndecided;
  std::string why;        // declined or off: why
  std::map<std::uintptr_t, std::size_t> watched; // observing: the graph launch's allocations (base, size)
  std::string conflict;   // observing: what read one of them as numbered in this round
  int rounds = 0, conflicted = 0; // observing: rounds watched, and those with a conflict
  bool through_order = false; // observing: a reduction read through the order launched over the arrays
  int device = 0;
  long long n = 0;
  int *perm = nullptr;    // new number -> original element (one allocation with inv)
  int *inv = nullptr;     // original element -> new number
  void *scratch = nullptr;
  std::size_t scratch_bytes = 0;
  unsigned long long *counts = nullptr; // kDomainCounts words: the sampled measure's two counts, or the extent of an index array
  double identity = -1, fresh = -1, last = -1; // sectors a read: as numbered, in the order, latest
  std::uintptr_t graph = 0;   // the allocation of the graph the order came from
  // Rows (CSR): the allocation of the row starts whose segments the domain's
  // kSegments arrays are stored along (0: none), and those starts as
  // numbered and in the order (device, n + 1 each, one allocation with
  // sources_in_order; nnz < 0 while not computed). A renumbering moves each
  // row's segment whole, in its order.
  std::uintptr_t rows = 0;
  long long *starts = nullptr, *starts_in_order = nullptr;
  // Where each row in the order starts as numbered (starts[perm[p]]): a
  // move into the order reads it in order instead of through the order.
  long long *sources_in_order = nullptr;
  long long nnz = -1;
  bool graph_changed = false; // something wrote the graph since it was last measured
  OrderChecks checks;         // when a change of the graph is measured
  std::map<std::uintptr_t, DomainArray> arrays; // by allocation base
  // Pointers asked about: their whole device allocation, or empty (not one:
  // managed memory, an interior pointer). Forgotten at frees.
  std::unordered_map<const void *, Range> allocations;
  DomainStats stats;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> move_events; // around moves not yet summed into stats
};

constexpr int kDomainCounts = 4;
// d.counts, allocated once: small results read back (no allocation and free,
// which wait for the device, at every measure).
cudaError_t domain_counts(Domain &d);
// Grows d.scratch to at least `bytes`.
cudaError_t domain_scratch(Domain &d, std::size_t bytes);

// Measures graph a as it reads now, or as it reads in d's order (threads run
// in the order and the elements they read numbered by it, as renumbered
// launches read them): sectors over reads.
cudaError_t domain_measure(Domain &d, const AccessList &a, bool in_order, int per_sector, double *sectors);

// Computes d's order from graph a (region threads a seed), its inverse, and
// its measure. d.n = a.n.
cudaError_t domain_order(Domain &d, const AccessList &a, int region, int per_sector);

// Moves one array into d's numbering, or back to the original one, in place
// through d's scratch, on `stream`: with `sync`, after and before everything
// on the device (else the stream must be the legacy default one, which the
// program's blocking streams wait for and that waits for them).
cudaError_t domain_renumber(Domain &d, DomainArray &arr, cudaStream_t stream, bool sync);
cudaError_t domain_restore(Domain &d, DomainArray &arr, cudaStream_t stream, bool sync);

// Computes d.starts, d.starts_in_order and d.sources_in_order from the row starts at `rows` (as
// numbered, `elem` bytes each), and d.nnz; synchronises.
cudaError_t domain_starts(Domain &d, const void *rows, std::size_t elem);

// Sectors a read of `graph` as numbered where d measured that graph and
// declined to form (its reads too near for an order to pay), else -1.
double declined_graph_sectors(const Domain &d, const void *graph);

// The array of d holding p, or null.
DomainArray *domain_array_at(Domain &d, const void *p);

// Frees what d holds on the device and forgets its arrays (status kept).
void domain_free(Domain &d);

// Sums the moves' timed events into d.stats.move_ms (waits for them).
void collect_move_times(Domain &d);

// The IRREGFIX_STATS block: "" when no launch asked.
std::string format_domain(const Domain &d);

} // namespace detail
} // namespace irregfix
