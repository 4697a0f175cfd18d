// irregfix runtime: the cache of remapped copies. See cache.h.
#include "cache.h"

#include <algorithm>
#include <functional>

namespace irregfix {
namespace detail {

bool CacheKey::operator==(const CacheKey &o) const {
  return device == o.device && pattern == o.pattern && B == o.B && b_kind == o.b_kind &&
         C == o.C && c_kind == o.c_kind && params == o.params && n == o.n && layout == o.layout && sources == o.sources && elem_sizes == o.elem_sizes &&
         fields == o.fields && index_arrays == o.index_arrays && site == o.site;
}

static void mix(std::size_t &h, std::size_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
}

std::size_t CacheKeyHash::operator()(const CacheKey &k) const {
  std::size_t h = std::hash<std::string>()(k.site);
  mix(h, static_cast<std::size_t>(k.device));
  mix(h, static_cast<std::size_t>(k.pattern));
  for (const void *p : k.sources)
    mix(h, std::hash<const void *>()(p));
  mix(h, std::hash<const void *>()(k.B));
  mix(h, static_cast<std::size_t>(k.b_kind));
  mix(h, std::hash<const void *>()(k.C));
  mix(h, static_cast<std::size_t>(k.c_kind));
  for (long long v : k.params)
    mix(h, static_cast<std::size_t>(v));
  for (const void *p : k.index_arrays)
    mix(h, std::hash<const void *>()(p));
  mix(h, static_cast<std::size_t>(k.n));
  for (std::size_t s : k.elem_sizes)
    mix(h, s);
  for (unsigned f : k.fields)
    mix(h, f);
  mix(h, static_cast<std::size_t>(k.layout));
  return h;
}

std::size_t Payload::bytes() {
  std::size_t b = 0;
  each_buffer([&](DeviceBuffer &d) { b += d.bytes; });
  return b;
}

std::size_t Entry::bytes() const {
  std::size_t b = payload ? payload->bytes() : 0;
  for (std::size_t x : buf_bytes)
    b += x;
  return b;
}

Cache::Lookup Cache::lookup(const CacheKey &key, Entry **entry) {
  auto it = table_.find(key);
  if (it == table_.end()) {
    *entry = nullptr;
    return kMiss;
  }
  *entry = it->second.get();
  return it->second->valid ? kHit : kStale;
}

Entry *Cache::insert(const CacheKey &key) {
  auto e = std::make_unique<Entry>();
  e->key = key;
  Entry *raw = e.get();
  std::unique_ptr<Entry> &slot = table_[key];
  if (slot)
    unlist(slot.get());
  slot = std::move(e);
  list_.push_back(raw);
  entries_.store(table_.size(), std::memory_order_release);
  return raw;
}

std::unique_ptr<Entry> Cache::remove(const CacheKey &key) {
  auto it = table_.find(key);
  if (it == table_.end())
    return nullptr;
  std::unique_ptr<Entry> e = std::move(it->second);
  table_.erase(it);
  unlist(e.get());
  entries_.store(table_.size(), std::memory_order_release);
  return e;
}

std::vector<std::unique_ptr<Entry>> Cache::clear() {
  std::vector<std::unique_ptr<Entry>> out;
  for (auto &kv : table_)
    out.push_back(std::move(kv.second));
  table_.clear();
  list_.clear();
  entries_.store(0, std::memory_order_release);
  return out;
}

void Cache::unlist(const Entry *e) {
  const auto it = std::find(list_.begin(), list_.end(), e);
  if (it != list_.end())
    list_.erase(it);
}

std::vector<CacheKey> Cache::superseded(const CacheKey &key, std::size_t keep,
                                        const std::function<bool(const Entry &)> &held) const {
  std::vector<const Entry *> stale;
  for (const Entry *entry : list_) {
    const Entry &e = *entry;
    if (!e.valid && e.key.device == key.device && e.key.site == key.site && !held(e))
      stale.push_back(&e);
  }
  if (stale.size() <= keep)
    return {};
  std::sort(stale.begin(), stale.end(), [](const Entry *a, const Entry *b) { return a->served > b->served; });
  std::vector<CacheKey> out;
  for (std::size_t i = keep; i < stale.size(); ++i)
    out.push_back(stale[i]->key);
  return out;
}

namespace {
// Position of e's first index array in e.sources: the trailing index_sources
// sources are the index arrays (B, C, counts).
std::size_t first_index_source(const Entry &e) {
  const std::size_t index = static_cast<std::size_t>(std::max(e.index_sources, 0));
  return e.sources.size() - std::min(e.sources.size(), index);
}
} // namespace

int Cache::invalidate(std::uintptr_t p, const Range &allocation, bool freed) {
  int count = 0;
  for (Entry *entry : list_) {
    Entry &e = *entry;
    bool match = false;
    const std::size_t first_index = first_index_source(e);
    for (std::size_t i = 0; i < e.sources.size(); ++i) {
      const SourceRange &s = e.sources[i];
      if (!s.values_read && !freed) // the entry depends on where it lies alone
        continue;
      const bool hit = write_reaches(p, allocation, s.ptr, s.allocation, s.extent);
      match |= hit;
      if (hit && (freed || i >= first_index))
        e.shape_valid = false;
    }
    if (match)
      ++e.writes;
    if (match && e.valid) {
      e.valid = false;
      ++count;
    }
  }
  return count;
}

int Cache::invalidate_all() {
  int count = 0;
  for (Entry *entry : list_) {
    Entry &e = *entry;
    ++e.writes;
    e.shape_valid = false; // a write that cannot be named may have hit the index arrays
    if (e.valid) {
      e.valid = false;
      ++count;
    }
  }
  return count;
}

bool cacheable_memory(int memory_type) { return memory_type == cudaMemoryTypeDevice; }

void note_source_memory(Entry &e) {
  const std::size_t first_index = first_index_source(e);
  e.host_writable = e.index_host_writable = false;
  for (std::size_t i = 0; i < e.sources.size(); ++i)
    if (!cacheable_memory(e.sources[i].memory)) {
      e.host_writable = true;
      e.index_host_writable |= i >= first_index;
    }
}

std::size_t Cache::total_bytes() const {
  std::size_t t = 0;
  for (const Entry *e : list_)
    t += e->bytes();
  return t;
}

bool Cache::fits(std::size_t total, std::size_t less, std::size_t more, unsigned long long cap) {
  if (cap == 0)
    return true;
  unsigned long long after = static_cast<unsigned long long>(total - std::min(total, less));
  if (more > cap || after > cap - more)
    return false;
  return true;
}

} // namespace detail
} // namespace irregfix
