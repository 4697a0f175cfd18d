// irregfix runtime: the cache of remapped copies. An entry is keyed by what a
// prepare call names (site, sources, index arrays, scalars, n, element sizes,
// layout), remembers what it was built from (for invalidation) and owns the
// device buffers of its copy and its layout's payload. Host-only: the GPU side
// frees the buffers (device_memory.h); test/unit/runtime checks keys, lookups,
// invalidation and byte accounting without a GPU.
#pragma once

#include "address_ranges.h"
#include "device.h"

#include <irregfix/pattern.h>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
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

// Whether a copy built from memory of this type (cudaPointerAttributes::type)
// may be served from the cache: only plain device memory. Managed, host
// (pinned, mapped, registered) and unregistered system memory (HMM, ATS) can be
// written by host code the tool never sees, which no invalidation announces.
bool cacheable_memory(int memory_type);

// What a transformed kernel reads of an entry besides its copies (View's
// shape fields, fill_view), pointing into its payload's buffers.
struct PayloadView {
  const int *len = nullptr;                 // per-thread trip counts
  const long long *slice_start = nullptr;   // SELL-32's slice offsets
  const int *perm = nullptr;                // physical -> logical thread
  const int *local = nullptr;               // sharing: (t, iter)'s place in its block's set
  const int *block_first = nullptr;         // sharing: each block's first element
  unsigned shared_bytes = 0;                // sharing: a block's stage
  const int *index = nullptr;               // a neighbour list in the locality order
  bool in_place = false;                    // the data arrays are read in place (index)
  long long width = -1;                     // iterations of the longest thread; -1: Entry::max_len
  int lanes = 0;                            // the lanes layout: the lanes a row
};

using BufferFn = std::function<void(DeviceBuffer &)>;

// What an entry of one layout or pattern keeps besides its copies, in its own
// type (layouts/, indexed/, scatter/): its device buffers (lengths, slice
// offsets, orders, sets, indices, tables...) and its scalars. The entry owns
// it: it counts in the entry's bytes and goes with it (free_entry).
class Payload {
public:
  virtual ~Payload() = default;
  // Calls f on each device buffer it owns: the one list bytes() and
  // free_payload (device_memory.h) walk.
  virtual void each_buffer(const BufferFn &f) = 0;
  // Frees what it owns besides its buffers (events); nothing by default.
  virtual void release() {}
  // What the kernel reads of it; nothing by default.
  virtual PayloadView view() const { return {}; }
  std::size_t bytes();
};

struct Entry {
  CacheKey key;
  bool valid = false;
  std::vector<SourceRange> sources; // data arrays, then the index arrays (B, C)
  // How many trailing sources are index arrays: a write to any of them clears
  // shape_valid (a write to a data array only makes the entry stale).
  int index_sources = 1;
  // Device buffers owned by the entry (freed by free_entry, device_memory.h).
  std::vector<void *> bufs;         // one remapped copy per source
  std::vector<std::size_t> buf_bytes;
  // Its layout's or pattern's own buffers and scalars; null until its first build.
  std::unique_ptr<Payload> payload;
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
  unsigned long long served = 0;    // Cache::touch's clock when it last served a launch
  const long long *zero_cell = nullptr; // its device's cell holding 0 (View::slice_start without slices)
  cudaEvent_t ready = nullptr;      // recorded after the last remap
  cudaStream_t built_on = nullptr;
  std::size_t bytes() const;        // total device bytes held: copies and payload
};

// e's payload as P, or null when it has none of that type.
template <class P> P *payload_of(const Entry &e) { return dynamic_cast<P *>(e.payload.get()); }

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

  // Stamps e as serving a launch now (the recency superseded() orders by).
  void touch(Entry &e) { e.served = ++clock_; }
  // The stale entries of key's site and device, past the `keep` most recently
  // served of them, that `held` does not claim: copies whose keys (a length, a
  // per-call allocation) a site no longer asks for. Each one would otherwise
  // stay, and every invalidation walks every entry.
  std::vector<CacheKey> superseded(const CacheKey &key, std::size_t keep,
                                   const std::function<bool(const Entry &)> &held) const;

  // Byte accounting: bytes held by all entries.
  std::size_t total_bytes() const;
  // Whether growing the table by `more` bytes (after freeing `less`) stays
  // within cap (0 = unlimited).
  static bool fits(std::size_t total, std::size_t less, std::size_t more,
                   unsigned long long cap);

  std::size_t size() const { return table_.size(); }
  // Whether the table holds no entry, read without the lock: making every copy
  // stale has nothing to do then (an entry another thread inserts meanwhile is
  // built after the write the caller reports).
  bool empty_unlocked() const { return entries_.load(std::memory_order_acquire) == 0; }
  template <class F> void for_each(F f) {
    for (Entry *e : list_)
      f(*e);
  }

private:
  void unlist(const Entry *e);
  std::unordered_map<CacheKey, std::unique_ptr<Entry>, CacheKeyHash> table_;
  // The same entries side by side, for the walks every invalidation makes
  // (a hash table's nodes are scattered: a program may invalidate millions of times).
  std::vector<Entry *> list_;
  std::atomic<std::size_t> entries_{0}; // table_.size(), for empty_unlocked
  unsigned long long clock_ = 0;
};

} // namespace detail
} // namespace irregfix
