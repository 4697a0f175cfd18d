// irregfix runtime: host-only bookkeeping (cache keys and table, invalidation by
// address ranges, byte accounting, environment parsing, statistics). Nothing here
// touches a GPU, so test/unit/runtime can exercise it without one.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace irregfix {
namespace detail {

// ---- environment -----------------------------------------------------------

struct Config {
  bool disabled = false;              // IRREGFIX_DISABLE=1
  unsigned long long max_bytes = 0;   // IRREGFIX_MAX_BYTES; 0 = unlimited
  bool stats = false;                 // IRREGFIX_STATS=1
  bool fail_alloc = false;            // IRREGFIX_FAIL_ALLOC=1 (testing knob)
  int layout = 0; // IRREGFIX_LAYOUT: 0 auto, 1 ell, 2 sell32, 3 sell32s, 4 sharing (a Layout), -1 none
  int sigma = 256; // IRREGFIX_SIGMA: window of SELL-32-sigma's sort, a power of two, 32..4096
  int chunks = 0;  // IRREGFIX_CHUNKS: chunks of a pipelined launch; 0: the model's choice
  // IRREGFIX_AUTO_SHARING=1: auto also times the sharing layout of shareable
  // neighbour-list launches. Off by default: on the H200 the sharing kernel lost
  // to the original wherever it applied (the L1 cache keeps a block's reuse),
  // and profiling it builds the sets (a segmented sort, ~1.8 ms at 262K atoms).
  bool auto_sharing = false;
  // IRREGFIX_VERIFY=1: checking mode. Every build fingerprints the bytes its
  // copy was built from, and every cache hit fingerprints them again and aborts
  // with a message naming the source when they changed (verify.h).
  bool verify = false;
};

// IRREGFIX_LAYOUT=none: every launch runs the original kernel. Under auto (0)
// the selector chooses, per launcher, between the original and the transformed
// kernel; a forced layout (ell, sell32) always runs the transformed one.
constexpr int kLayoutChoiceNone = -1;

// Layout choice of range sites: ELL padded more than this over the non-zeros
// (cells / nnz) and SELL-32 smaller makes auto pick SELL-32; SELL-32 padded more
// than this makes it pick SELL-32-sigma for a permutable kernel.
constexpr double kSellPaddingThreshold = 1.15;

// Cache-key value of a range entry whose layout auto chose (ELL and SELL-32 use
// their Layout values), so forced and auto entries never collide.
constexpr int kLayoutKeyAuto = 100;

// "ell", "sell32" (also "sell-32", "sell"), "sell32s" (also "sell-32-sigma", "sigma"),
// "sharing" (also "share"), "none", "auto", any case -> *out = 1, 2, 3, 4, -1, 0.
// Returns false (and leaves *out alone) on anything else; null or "" -> auto.
bool parse_layout(const char *text, int *out);

// "123", "64K", "64M", "2G" (also "64KB", "64MiB", lower case). Powers of 1024.
// Returns false (and leaves *out alone) on anything else or on overflow.
bool parse_bytes(const char *text, unsigned long long *out);
// "1", "true", "yes", "on" (any case) -> true; null, "", "0", anything else -> false.
bool parse_flag(const char *text);
// Builds a Config from the four variables' values (null when unset).
Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc);
// As above, plus IRREGFIX_LAYOUT (an unknown value warns and means auto) and
// IRREGFIX_SIGMA (32 to 4096, rounded up to a power of two; else a warning and 256).
Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc, const char *layout, const char *sigma = nullptr);
// IRREGFIX_CHUNKS: a count from 1 to kMaxChunks, or "" / null / "auto" for the
// model (0). Anything else warns and means the model.
bool parse_chunks(const char *text, int *out);
// SELL-32-sigma's window: the power of two in [32, 4096] at or above sigma.
int round_sigma(int sigma);
// Whether a layout of `cells` cells pads more than kSellPaddingThreshold over nnz.
bool pads_much(unsigned long long cells, unsigned long long nnz);
// Whether auto picks SELL-32 over ELL from the cell counts of both and the non-zeros
// (and, for a permutable kernel, SELL-32-sigma when SELL-32 still pads much).
bool prefer_sell(unsigned long long ell_cells, unsigned long long sell_cells,
                 unsigned long long nnz);
// parse_config(getenv(...)...).
Config config_from_env();

// ---- candidate layouts of a range site -------------------------------------

// Cells (elements, padding included) of each layout a range build counted.
struct LayoutCells {
  unsigned long long nnz = 0;   // the non-zeros: what no padding would take
  unsigned long long ell = 0;
  unsigned long long sell = 0;  // 0: not counted
  unsigned long long sigma = 0; // 0: the threads were not sorted
};

// At most this many layouts are timed: each costs probes and a copy in memory.
constexpr int kMaxLayoutCandidates = 3;
// A layout other than the favourite is timed only when it saves this fraction
// of ELL's cells (SELL-32: else it is ELL with dearer addressing) and takes at
// most kMaxTimedPadding times the favourite's cells (more bytes than that are
// not won back by better coalescing: ELL 0.825 vs SELL-32 0.605 ms at 1.5x).
constexpr double kMinCellSaving = 0.10;
constexpr double kMaxTimedPadding = 1.5;

// Whether a range build sorts the threads to count SELL-32-sigma's cells: the
// launch may permute, auto prefers SELL-32 and SELL-32 still pads much.
bool worth_sorting(const LayoutCells &c, bool may_permute);
// The layouts worth timing (Layout values), the cost model's favourite first
// (SELL-32-sigma when sorted, else SELL-32 when prefer_sell, else ELL: what a
// launch that is not profiled uses), then the others by fewer cells. Returns
// how many were written to out.
int layout_candidates(const LayoutCells &c, int out[kMaxLayoutCandidates]);

// ---- sharing layout ---------------------------------------------------------

// Dynamic shared memory a block of a sharing launch stages: its largest set of
// distinct elements, rounded up to 16 bytes (stage_shared copies 16-byte words).
unsigned long long stage_bytes(long long max_set, std::size_t elem_size);

// Whether a sharing launch may have `need` bytes of dynamic shared memory: with
// the kernel's static_bytes, within optin (the device's opt-in maximum a
// block). "" and *raise_to (0: the kernel's current dynamic limit suffices;
// else the limit to set) or why not.
std::string plan_shared_memory(unsigned long long need, unsigned long long static_bytes,
                               unsigned long long dynamic_limit, unsigned long long optin,
                               unsigned long long *raise_to);

// ---- pipelined launches ----------------------------------------------------

// A launch that remaps is cut into chunks of thread blocks: the copy of chunk
// c+1 (on a remap stream) runs while chunk c computes (on the launch's stream).
// With r the remap's time, c the kernel's and o the cost of one more chunk
// (its launches and the cross-stream wait), k chunks take about
// max(r, c) + min(r, c) / k + k * o, least at k = sqrt(min(r, c) / o).
constexpr int kMaxChunks = 64;
constexpr double kChunkCostMs = 0.005;
// The chunk count for a launch of `blocks` thread blocks, `wave` of which the
// device runs at once: `forced` when positive, else the model's (remap_ms or
// compute_ms negative: not measured yet; then both are taken as estimate_ms).
// Never more chunks than blocks, nor (unforced) chunks of less than a wave: a
// chunk that cannot fill the device runs at a fraction of its bandwidth, and the
// remap beside it (memory-bound as well) does not make up for that.
int plan_chunks(double remap_ms, double compute_ms, double estimate_ms, long long blocks,
                long long wave, int forced);
// Blocks of `block_threads` threads resident at once on `sms` multiprocessors
// of 2048 threads (at most 32 blocks each): the kernel's occupancy is unknown
// to the runtime, so this is the most a wave can be.
long long full_wave(int sms, unsigned block_threads);

// ---- address ranges --------------------------------------------------------

struct Range {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  bool empty() const { return size == 0; }
  bool contains(std::uintptr_t p) const { return p >= base && p - base < size; }
};

// ---- cache -----------------------------------------------------------------

enum Pattern : int {
  kPatternRange = 0,
  kPatternGather = 1,
  kPatternRange2 = 2,    // two-level range (B[C[t]])
  kPatternGather2 = 3,   // two-level gather (A[B[C[t]]])
  kPatternNeighbors = 4, // neighbour-list gather (A[NB[j*sj + t*st]])
};
// "range", "gather", "range2", "gather2", "neighbors" (the stats report's names).
const char *pattern_name(int pattern);

// Element indices i for which [p + i*esz, p + (i+1)*esz) lies inside the
// allocation [base, base+size) that holds p: lo <= i < hi. False when p is
// outside the allocation or esz is 0.
bool element_bounds(std::uintptr_t base, std::size_t size, std::uintptr_t p, std::size_t esz,
                    long long *lo, long long *hi);

struct CacheKey {
  int device = 0;
  std::string site;                  // SiteInfo::id
  int pattern = kPatternRange;
  std::vector<const void *> sources; // the A arrays
  const void *B = nullptr;
  int b_kind = 0;
  const void *C = nullptr;           // second index array (C, or neighbour counts)
  int c_kind = 0;
  std::vector<long long> params;     // pattern's scalars (neighbours: stride_j, stride_t, m)
  long long n = 0;
  std::vector<std::size_t> elem_sizes;
  int layout = 0;
  bool operator==(const CacheKey &o) const;
  bool operator!=(const CacheKey &o) const { return !(*this == o); }
};

struct CacheKeyHash {
  std::size_t operator()(const CacheKey &k) const;
};

// What an entry was built from, for invalidation: the pointer itself, the
// device allocation it lies in (empty when unknown), the bytes read from it,
// and the kind of memory it is (a cudaMemoryType; 0, unregistered, until known).
struct SourceRange {
  std::uintptr_t ptr = 0;
  Range allocation;
  Range extent;
  int memory = 0;
};

// Whether a copy built from memory of this type (cudaPointerAttributes::type)
// may be served from the cache: only plain device memory. Managed, host
// (pinned, mapped, registered) and unregistered system memory (HMM, ATS) can be
// written by host code the tool never sees, which no invalidation announces.
bool cacheable_memory(int memory_type);

struct Entry {
  CacheKey key;
  bool valid = false;
  std::vector<SourceRange> sources; // data arrays, then the index arrays (B, C)
  // How many trailing sources are index arrays: a write to any of them clears
  // shape_valid (a write to a data array only makes the entry stale).
  int index_sources = 1;
  // Device buffers owned by the entry (freed by the GPU side).
  void *len = nullptr;              // int[n] for range sites
  std::size_t len_bytes = 0;
  std::vector<void *> bufs;         // one remapped copy per source
  std::vector<std::size_t> buf_bytes;
  void *aux = nullptr;              // range2: row starts (long long[n]); gather2: B[C[t]]
  std::size_t aux_bytes = 0;
  void *perm = nullptr;             // SELL-32-sigma: int[n], physical -> logical thread
  std::size_t perm_bytes = 0;
  // kLayoutSharing: per thread block of the launch, the distinct valid indices
  // its threads read (less idx_lo, sorted), block after block.
  void *uniq = nullptr;             // unsigned[nnz]
  std::size_t uniq_bytes = 0;
  void *block_first = nullptr;      // int[blocks + 1]: block b's at [block_first[b], block_first[b+1])
  std::size_t block_first_bytes = 0;
  void *local = nullptr;            // int[jmax * n]: (t, j)'s position in its block's set
  std::size_t local_bytes = 0;
  unsigned shared_bytes = 0;        // a block's stage (stage_bytes of the largest set)
  long long idx_lo = 0, idx_hi = 0; // gathers: valid element indices of A (element_bounds)
  long long jmax = 0;               // neighbours: slots per thread (columns of the copy)
  int layout = 0;                   // the Layout built (range sites may pick one at a miss)
  int max_len = 0;
  long long nnz = 0;                // elements remapped per array (range sites; sharing:
                                    // the distinct elements of all blocks)
  // The index array B is unchanged since the last build: lengths, sizes and
  // extents still hold, so a refresh only copies the arrays again.
  bool shape_valid = false;
  // Writes to any source seen by invalidate(), stale or not: a launch compares
  // it with the count it saw last to tell whether the data changed meanwhile.
  unsigned long long writes = 0;
  // A source is not plain device memory (cacheable_memory): the entry is never
  // served from the cache, every launch rebuilds it; index_host_writable: an
  // index array is, so the rebuild recomputes the shape too. Set by
  // note_source_memory after each build.
  bool host_writable = false;
  bool index_host_writable = false;
  // IRREGFIX_VERIFY: the fingerprint of each source's extent when the copy was
  // built (empty: not taken), and the site's launch that built it.
  std::vector<unsigned long long> fingerprints;
  long long built_by = 0;
  cudaEvent_t ready = nullptr;      // recorded after the last remap
  cudaStream_t built_on = nullptr;
  std::size_t bytes() const;        // total device bytes held
};

// Sets e.host_writable and e.index_host_writable from the memory of its sources.
void note_source_memory(Entry &e);
// Whether a launch may read e's copy as it is: valid, and never written behind
// the tool's back (host-writable sources are rebuilt at every launch).
inline bool servable(const Entry &e) { return e.valid && !e.host_writable; }

// The table. Not thread-safe by itself: the runtime holds a mutex around it.
class Cache {
public:
  enum Lookup { kMiss, kHit, kStale };
  // Finds key; *entry is set for kHit and kStale.
  Lookup lookup(const CacheKey &key, Entry **entry);
  // Adds a new, invalid, empty entry for key (which must not be present).
  Entry *insert(const CacheKey &key);
  // Removes the entry and returns it (its buffers are the caller's to free).
  std::unique_ptr<Entry> remove(const CacheKey &key);
  // Removes everything (buffers are the caller's to free).
  std::vector<std::unique_ptr<Entry>> clear();

  // Marks stale every entry with a source in `allocation` (when non-empty), or
  // whose read extent contains p (when the allocation is unknown). Returns how
  // many entries turned stale. `freed`: the memory goes away (irregfix_release),
  // so the address may come back as another allocation, of another size or kind
  // of memory: a matching entry's shape (extents, memory kinds) is rebuilt too.
  int invalidate(std::uintptr_t p, const Range &allocation, bool freed = false);
  // Marks every entry stale, as a write to each of its sources would (the index
  // arrays too: every shape is rebuilt). Returns how many entries turned stale.
  int invalidate_all();

  // Byte accounting: bytes held by all entries.
  std::size_t total_bytes() const;
  // Whether growing the table by `more` bytes (after freeing `less`) stays
  // within cap (0 = unlimited).
  static bool fits(std::size_t total, std::size_t less, std::size_t more,
                   unsigned long long cap);

  std::size_t size() const { return table_.size(); }
  template <class F> void for_each(F f) {
    for (auto &kv : table_)
      f(*kv.second);
  }

private:
  std::unordered_map<CacheKey, std::unique_ptr<Entry>, CacheKeyHash> table_;
};

// ---- statistics ------------------------------------------------------------

struct SiteStats {
  std::string kernel, pattern, id;
  long long launches = 0;   // transformed launches
  long long prepares = 0;   // prepare_* calls: the site's launch numbers (IRREGFIX_VERIFY)
  long long hits = 0, misses = 0, refreshes = 0;
  long long remaps = 0;     // remap kernel runs (misses + refreshes that got that far)
  unsigned long long bytes_remapped = 0;
  double remap_ms = 0;      // resolved so far
  long long remaps_timed = 0; // remaps whose time remap_ms holds
  int layout = 0;
  // Range sites: cells / non-zeros of each layout at the latest build (0: not computed).
  double ell_padding = 0, sell_padding = 0;
  double sigma_padding = 0; // SELL-32-sigma's, when it was built
  int sigma = 0;
  long long chosen_original = 0; // launches the selector (or IRREGFIX_LAYOUT=none) ran the original
  std::string selector;           // the selector's state for the report ("" when it never ran)
  int selector_candidates = 0;    // layouts the selector times (1: no choice of layout)
  int selector_layout = 0;        // the Layout it chose (0: profiling, or not a range launcher)
  // Sharing: distinct elements a block at the latest build (mean and most), and
  // the dynamic shared memory a block stages them in.
  double shared_mean = 0;
  long long shared_max = 0;
  unsigned shared_bytes = 0;
  std::map<std::string, long long> fallbacks; // reason -> count
  // Launches that built their copy because a source is in managed or host
  // memory (Entry::host_writable), and cache hits IRREGFIX_VERIFY checked.
  long long host_writable_builds = 0;
  long long verified = 0;
  std::string last_fallback;
  // Hoisted loops: launches planned by begin_hoisted, their steps, the latest
  // group (iterations a step), the launches that ran the in-kernel loop because
  // there was no remap to overlap (cached copies, one step), and the calls that
  // declined (no live buffers: the in-kernel loop ran).
  long long hoisted_launches = 0, hoisted_steps = 0, hoist_in_kernel = 0, hoist_declined = 0;
  int hoist_group = 0;
  std::string hoist_last_decline;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> pending; // remap timings to read
  // Pipelined launches (their remap split in chunks behind the kernel's chunks):
  // how many, the chunks of the latest, and (as timed) the remap time and the
  // part of it that ran while the kernel computed.
  long long pipelined = 0;
  int last_chunks = 0;
  bool last_sliced = false; // the latest was a hoisted launch: slices of iterations
  long long pipelined_timed = 0;
  double pipelined_remap_ms = 0, hidden_ms = 0;
  std::vector<std::vector<cudaEvent_t>> pipeline_pending; // their events (pipeline.cu)
  long long fallback_count() const;
};

const char *layout_name(int layout);
// The IRREGFIX_STATS report, one block per site, sorted by id.
std::string format_stats(const std::map<std::string, SiteStats> &stats);

} // namespace detail
} // namespace irregfix
