// irregfix runtime: the invalidation entry points the tool inserts around
// writes (irregfix.cuh): by name, at frees, by __device__ variable, and of
// every copy at once where the write cannot be named. Each is counted by cause
// for the IRREGFIX_STATS report (invalidation_stats.h). The cache knows its
// sources' allocations, so only a __device__ variable's first invalidation on a
// device asks the runtime anything (its address), and none does while the cache
// is empty. irregfix_invalidate_all, which the generated code calls around
// every call of code the tool cannot see, takes no lock while the cache is
// empty: its calls are counted per thread (invalidation_tally.h).
#include <irregfix/irregfix.cuh>

#include "state.h"

#include <cstdint>
#include <mutex>

namespace irregfix {
namespace detail {

bool symbol_range(State &st, const void *symbol, int dev, Range *r) {
  const auto key = std::make_pair(symbol, dev);
  auto it = st.symbols.find(key);
  if (it == st.symbols.end()) {
    if (st.symbols.size() > 4096) // a program that passes pointers that are no variables, without end
      st.symbols.clear();
    Range found;
    void *address = nullptr;
    std::size_t size = 0;
    if (cudaGetSymbolAddress(&address, symbol) == cudaSuccess &&
        cudaGetSymbolSize(&size, symbol) == cudaSuccess && address && size > 0)
      found = Range{reinterpret_cast<std::uintptr_t>(address), size};
    cudaGetLastError(); // not a variable: the program's own error checks must not see it
    it = st.symbols.emplace(key, found).first;
  }
  *r = it->second;
  return !r->empty();
}

namespace {

// With the lock held: the copies built from the allocation holding p go stale
// (and their shapes with them when it is freed), counted in `count`.
void drop_at(State &st, const void *p, bool freed, InvalidationCount &count) {
  ++count.calls;
  if (st.cache.size() != 0)
    count.stale += st.cache.invalidate(reinterpret_cast<std::uintptr_t>(p), Range{}, freed);
}

// With the lock held: every copy stale, counted under `cause` at `where`.
void drop_all(State &st, int cause, const char *where) {
  restore_domain(st, "code irregfix cannot see");
  const int stale = st.cache.size() != 0 ? st.cache.invalidate_all() : 0;
  st.invalidations.note_all(cause, where, stale);
}

} // namespace

void invalidate_every_copy(State &st, int cause) {
  std::lock_guard<std::mutex> lock(st.mu);
  restore_domain(st, "code irregfix cannot see");
  if (st.cache.size() != 0)
    if (const int stale = st.cache.invalidate_all(); stale > 0)
      st.invalidations.note_stale(cause, stale);
}

} // namespace detail
} // namespace irregfix

// A write: copies built from the allocation holding ptr go stale.
extern "C" void irregfix_invalidate(const void *ptr) {
  using namespace irregfix::detail;
  if (!ptr)
    return;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  drop_at(st, ptr, false, st.invalidations.by_name);
}

// A free: as a write (and the copies' shapes are rebuilt: the address may come
// back as another allocation), and the allocation ranges remembered for alias
// checks around ptr are forgotten.
extern "C" void irregfix_release(const void *ptr) {
  using namespace irregfix::detail;
  if (!ptr)
    return;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  drop_at(st, ptr, true, st.invalidations.released);
  if (st.domain.rows && reinterpret_cast<std::uintptr_t>(ptr) == st.domain.rows) {
    // The arrays stored along the rows go back while their starts are known.
    restore_domain(st, "a free of the rows' starts");
    st.domain.rows = 0;
  }
  if (!st.domain.arrays.empty()) // freed: nothing to restore
    st.domain.arrays.erase(reinterpret_cast<std::uintptr_t>(ptr));
  st.domain.allocations.erase(ptr);
  if (!st.orders.empty()) // the address may come back as other lists
    forget_orders(st.orders, ptr);
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  for (auto it = st.allocations.begin(); it != st.allocations.end();)
    it = it->first == ptr || it->second.contains(p) ? st.allocations.erase(it) : std::next(it);
}

extern "C" void irregfix_invalidate_all(int cause, const char *where) {
  irregfix::detail::invalidate_all(cause, where);
}

// A write to a __device__ variable: the copies built from its bytes on the
// current device go stale. When its address cannot be found, the write cannot
// be named: every copy goes stale.
extern "C" void irregfix_invalidate_symbol(const void *symbol) {
  using namespace irregfix::detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ++st.invalidations.by_symbol.calls;
  if (st.cache.size() == 0) // nothing to make stale: no question to the runtime
    return;
  int dev = 0;
  Range r;
  const bool found = symbol && cudaGetDevice(&dev) == cudaSuccess && symbol_range(st, symbol, dev, &r);
  if (!found) {
    cudaGetLastError();
    ++st.invalidations.symbols_not_found;
    drop_all(st, IRREGFIX_CAUSE_UNNAMED_COPY, "irregfix_invalidate_symbol (no address found)");
    return;
  }
  st.invalidations.by_symbol.stale += st.cache.invalidate(r.base, r);
}
