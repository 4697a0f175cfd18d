// irregfix runtime: the cache of remapped copies. An entry is keyed by what a
// prepare call names (site, sources, index arrays, scalars, n, element sizes,
// layout), remembers what it was built from (for invalidation) and owns the
// device buffers of its copy. Host-only: the GPU side frees the buffers
// (build.h); test/unit/runtime checks keys, lookups, invalidation and byte
// accounting without a GPU.
#pragma once

#include "address_ranges.h"

#include <irregfix/pattern.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace irregfix {
namespace detail {

struct CacheKey {
  int device = 0;
  std::string site;                  // SiteInfo::id
  int pattern = kPatternRange;       // a Pattern
  std::vector<const void *> sources; // the A arrays
  const void *B = nullptr;
  int b_kind = 0;
  const void *C = nullptr;           // second index array (C, or neighbour counts)
  int c_kind = 0;
  std::vector<long long> params;     // pattern's scalars (neighbours: stride_j, stride_t, m;
                                     // sharing: and the block size; indexed: loop, then the
                                     // scalars its index kernels read)
  std::vector<const void *> index_arrays; // indexed: the arrays its index kernels read
  long long n = 0;
  std::vector<std::size_t> elem_sizes;
  std::vector<unsigned> fields;      // a copy split into field pieces: the pieces (field_key)
  int layout = 0;                    // a layout key (layout_policy.h)
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
  // false: the entry depends on where the source lies, not on its values (a
  // scatter site's updated array): a write does not reach it, a free does.
  bool values_read = true;
};

// The tables a scatter site's inspection keeps (Entry::scatter): targets
// (unsigned[n]), the segments' first positions in segment order (int[n + 1]),
// the item ids in that order (int[n]), each item's slot, where the variant
// writes its contribution (int[n]), per segment its first slot in the region
// of long segments (int[n + 1]) and its first chunk (int[n + 1]), and per
// chunk its segment (most_chunks(n)).
enum ScatterTable : int {
  kScatterTargets,
  kScatterFirst,
  kScatterThreads,
  kScatterSlots,
  kScatterRegionFirst,
  kScatterChunkFirst,
  kScatterChunkSegment,
  kScatterTables
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
  void *aux = nullptr;              // range2: row starts (long long[n]); gather2: B[C[t]];
                                    // SELL layouts: slice offsets
  std::size_t aux_bytes = 0;
  void *perm = nullptr;             // SELL-32-sigma, locality: int[n], physical -> logical thread
  std::size_t perm_bytes = 0;
  // kLayoutLocality of a neighbour site: the neighbour list in the locality
  // order, int[jmax * n], (p, j) at j * n + p: the data array's element that
  // physical thread p reads at j. Its data array is read in place: no copy.
  void *order_index = nullptr;
  std::size_t order_index_bytes = 0;
  // kLayoutLocality of a range site that renumbers (SiteInfo::renumbered):
  // when `renumbered`, the copy of that array holds renumber[v] for its value
  // v (int[n]: thread v's position in the order), and each launch copies each
  // array read at those values in the order into renumbered_copies[which],
  // elements [renumber_lo, renumber_hi] only (the values' extent,
  // renumber_first to renumber_last the entries they were taken from).
  // renumbered_read: recorded after the kernels that read the copies, which
  // the next launch's copies wait for (a launch on another stream must not
  // overwrite them early).
  static constexpr int kMaxRenumberedArrays = 8;
  bool renumbered = false;
  void *renumber = nullptr;
  std::size_t renumber_bytes = 0;
  std::vector<void *> renumbered_copies;
  std::vector<std::size_t> renumbered_copy_bytes;
  long long renumber_lo = 0, renumber_hi = -1, renumber_first = 0, renumber_last = 0;
  cudaEvent_t renumbered_read = nullptr;
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
  // Indexed sites (prepare_indexed): the element indices the launcher's kernels
  // computed, a long long a slot per data array, in one buffer (array a's at
  // a * cells), kept while the index arrays are unchanged (shape_valid), and
  // their addresses as the launcher gets them. `builder`: the build in
  // progress (a host thread's token; 0: none), which no other thread touches.
  void *indices = nullptr;
  std::size_t indices_bytes = 0;
  long long cells = 0;
  std::vector<long long *> index_ptrs;
  unsigned long long builder = 0;
  // Scatter sites (prepare_scatter): the inspector's tables (ScatterTable),
  // kept while the index arrays are unchanged: `segments` distinct targets,
  // a region of scatter_region slots, scatter_chunks chunks.
  void *scatter[kScatterTables] = {};
  std::size_t scatter_bytes[kScatterTables] = {};
  long long segments = 0, scatter_region = 0, scatter_chunks = 0;
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

} // namespace detail
} // namespace irregfix
