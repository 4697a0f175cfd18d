// irregfix runtime: host-only bookkeeping. See host_logic.h.
#include "host_logic.h"

#include <irregfix/irregfix.cuh>

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

namespace irregfix {
namespace detail {

bool parse_bytes(const char *text, unsigned long long *out) {
  if (!text)
    return false;
  const char *p = text;
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (!std::isdigit(static_cast<unsigned char>(*p)))
    return false;
  unsigned long long v = 0;
  const unsigned long long max = std::numeric_limits<unsigned long long>::max();
  for (; std::isdigit(static_cast<unsigned char>(*p)); ++p) {
    unsigned d = static_cast<unsigned>(*p - '0');
    if (v > (max - d) / 10)
      return false;
    v = v * 10 + d;
  }
  unsigned shift = 0;
  switch (std::toupper(static_cast<unsigned char>(*p))) {
  case 'K': shift = 10; ++p; break;
  case 'M': shift = 20; ++p; break;
  case 'G': shift = 30; ++p; break;
  case 'T': shift = 40; ++p; break;
  default: break;
  }
  if (shift) {
    if (*p == 'i' || *p == 'I')
      ++p;
    if (*p == 'b' || *p == 'B')
      ++p;
  } else if (*p == 'b' || *p == 'B') {
    ++p;
  }
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (*p)
    return false;
  if (shift && v > (max >> shift))
    return false;
  *out = v << shift;
  return true;
}

bool parse_flag(const char *text) {
  if (!text || !*text)
    return false;
  std::string s(text);
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "1" || s == "true" || s == "yes" || s == "on";
}

Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc) {
  Config c;
  c.disabled = parse_flag(disable);
  c.stats = parse_flag(stats);
  c.fail_alloc = parse_flag(fail_alloc);
  if (max_bytes && *max_bytes) {
    unsigned long long v = 0;
    if (parse_bytes(max_bytes, &v))
      c.max_bytes = v;
    else
      std::fprintf(stderr, "irregfix: ignoring IRREGFIX_MAX_BYTES='%s' (expected N, NK, NM or NG)\n",
                   max_bytes);
  }
  return c;
}

bool parse_layout(const char *text, int *out) {
  if (!text || !*text) {
    *out = 0;
    return true;
  }
  std::string s(text);
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "auto")
    *out = 0;
  else if (s == "ell")
    *out = 1;
  else if (s == "sell32" || s == "sell-32" || s == "sell")
    *out = 2;
  else if (s == "sell32s" || s == "sell-32-sigma" || s == "sigma")
    *out = 3;
  else if (s == "sharing" || s == "share")
    *out = 4;
  else if (s == "none")
    *out = kLayoutChoiceNone;
  else
    return false;
  return true;
}

Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc, const char *layout, const char *sigma) {
  Config c = parse_config(disable, max_bytes, stats, fail_alloc);
  if (sigma && *sigma) {
    char *end = nullptr;
    const long v = std::strtol(sigma, &end, 10);
    if (end == sigma || *end || v < 32 || v > 4096)
      std::fprintf(stderr, "irregfix: ignoring IRREGFIX_SIGMA='%s' (expected 32 to 4096)\n", sigma);
    else
      c.sigma = round_sigma(static_cast<int>(v));
  }
  if (!parse_layout(layout, &c.layout)) {
    c.layout = 0;
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_LAYOUT='%s' (expected ell, sell32, sell32s, sharing, none or auto)\n",
                 layout);
  }
  return c;
}

int round_sigma(int sigma) {
  int p = 32;
  while (p < sigma && p < 4096)
    p *= 2;
  return p;
}

bool pads_much(unsigned long long cells, unsigned long long nnz) {
  if (nnz == 0)
    return false;
  // cells / nnz > kSellPaddingThreshold, in integers (115 / 100) so that the
  // threshold itself does not round either way; long double keeps huge counts exact enough.
  static_assert(kSellPaddingThreshold == 1.15, "threshold below is in percent");
  return static_cast<long double>(cells) * 100 > static_cast<long double>(nnz) * 115;
}

bool prefer_sell(unsigned long long ell_cells, unsigned long long sell_cells,
                 unsigned long long nnz) {
  return pads_much(ell_cells, nnz) && sell_cells < ell_cells;
}

bool worth_sorting(const LayoutCells &c, bool may_permute) {
  return may_permute && prefer_sell(c.ell, c.sell, c.nnz) && pads_much(c.sell, c.nnz);
}

int layout_candidates(const LayoutCells &c, int out[kMaxLayoutCandidates]) {
  auto cells = [&c](int layout) {
    return layout == kLayoutEllColMajor ? c.ell : layout == kLayoutSell32 ? c.sell : c.sigma;
  };
  const int favourite = c.sigma                               ? kLayoutSell32Sigma
                        : prefer_sell(c.ell, c.sell, c.nnz) ? kLayoutSell32
                                                              : kLayoutEllColMajor;
  const long double most = static_cast<long double>(cells(favourite)) * kMaxTimedPadding;
  int count = 0;
  out[count++] = favourite;
  // The others worth timing, fewer cells first (ELL before SELL-32 on a tie).
  int others[2], n = 0;
  if (favourite != kLayoutEllColMajor && c.ell <= most)
    others[n++] = kLayoutEllColMajor;
  if (favourite != kLayoutSell32 && c.sell > 0 && c.sell <= most &&
      static_cast<long double>(c.sell) <= static_cast<long double>(c.ell) * (1 - kMinCellSaving))
    others[n++] = kLayoutSell32;
  if (n == 2 && cells(others[1]) < cells(others[0]))
    std::swap(others[0], others[1]);
  for (int i = 0; i < n && count < kMaxLayoutCandidates; ++i)
    out[count++] = others[i];
  return count;
}

unsigned long long stage_bytes(long long max_set, std::size_t elem_size) {
  const unsigned long long bytes = static_cast<unsigned long long>(max_set > 0 ? max_set : 0) * elem_size;
  return (bytes + 15) / 16 * 16;
}

std::string plan_shared_memory(unsigned long long need, unsigned long long static_bytes,
                               unsigned long long dynamic_limit, unsigned long long optin,
                               unsigned long long *raise_to) {
  *raise_to = 0;
  const unsigned long long may = optin > static_bytes ? optin - static_bytes : 0;
  if (need > may)
    return "sharing: a block's neighbours need " + std::to_string(need) +
           " bytes of shared memory; the kernel may have " + std::to_string(may);
  if (need > dynamic_limit)
    *raise_to = need;
  return "";
}

bool parse_chunks(const char *text, int *out) {
  if (!text || !*text || std::strcmp(text, "auto") == 0) {
    *out = 0;
    return true;
  }
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end || v < 1 || v > kMaxChunks)
    return false;
  *out = static_cast<int>(v);
  return true;
}

Config config_from_env() {
  Config c = parse_config(std::getenv("IRREGFIX_DISABLE"), std::getenv("IRREGFIX_MAX_BYTES"),
                          std::getenv("IRREGFIX_STATS"), std::getenv("IRREGFIX_FAIL_ALLOC"),
                          std::getenv("IRREGFIX_LAYOUT"), std::getenv("IRREGFIX_SIGMA"));
  const char *chunks = std::getenv("IRREGFIX_CHUNKS");
  if (!parse_chunks(chunks, &c.chunks))
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_CHUNKS='%s' (expected 1 to %d, or auto)\n",
                 chunks, kMaxChunks);
  const char *auto_sharing = std::getenv("IRREGFIX_AUTO_SHARING");
  c.auto_sharing = auto_sharing && std::strcmp(auto_sharing, "1") == 0;
  c.verify = parse_flag(std::getenv("IRREGFIX_VERIFY"));
  return c;
}

long long full_wave(int sms, unsigned block_threads) {
  if (sms <= 0 || block_threads == 0)
    return 1;
  const long long per_sm = std::max<long long>(1, std::min<long long>(32, 2048 / block_threads));
  return per_sm * sms;
}

int plan_chunks(double remap_ms, double compute_ms, double estimate_ms, long long blocks,
                long long wave, int forced) {
  if (blocks <= 1)
    return 1;
  const long long most = blocks < kMaxChunks ? blocks : kMaxChunks;
  if (forced > 0)
    return static_cast<int>(forced < most ? forced : most);
  if (remap_ms < 0 || compute_ms < 0)
    remap_ms = compute_ms = estimate_ms;
  const double shorter = remap_ms < compute_ms ? remap_ms : compute_ms;
  if (!(shorter > 0))
    return 1;
  long long k = std::llround(std::sqrt(shorter / kChunkCostMs));
  const long long waves = wave > 0 ? blocks / wave : blocks;
  k = std::min({k, waves, most});
  return static_cast<int>(k < 1 ? 1 : k);
}

bool CacheKey::operator==(const CacheKey &o) const {
  return device == o.device && pattern == o.pattern && B == o.B && b_kind == o.b_kind &&
         C == o.C && c_kind == o.c_kind && params == o.params && n == o.n && layout == o.layout && sources == o.sources && elem_sizes == o.elem_sizes &&
         site == o.site;
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
  mix(h, static_cast<std::size_t>(k.n));
  for (std::size_t s : k.elem_sizes)
    mix(h, s);
  mix(h, static_cast<std::size_t>(k.layout));
  return h;
}

std::size_t Entry::bytes() const {
  std::size_t b = len_bytes + aux_bytes + perm_bytes + uniq_bytes + block_first_bytes + local_bytes;
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
  table_[key] = std::move(e);
  return raw;
}

std::unique_ptr<Entry> Cache::remove(const CacheKey &key) {
  auto it = table_.find(key);
  if (it == table_.end())
    return nullptr;
  std::unique_ptr<Entry> e = std::move(it->second);
  table_.erase(it);
  return e;
}

std::vector<std::unique_ptr<Entry>> Cache::clear() {
  std::vector<std::unique_ptr<Entry>> out;
  for (auto &kv : table_)
    out.push_back(std::move(kv.second));
  table_.clear();
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
  for (auto &kv : table_) {
    Entry &e = *kv.second;
    bool match = false;
    const std::size_t first_index = first_index_source(e);
    for (std::size_t i = 0; i < e.sources.size(); ++i) {
      const SourceRange &s = e.sources[i];
      bool hit;
      if (!allocation.empty()) {
        // p lies in a known device allocation: any source inside it matches,
        // as does a source whose own allocation contains p.
        hit = allocation.contains(s.ptr) || s.allocation.contains(p) ||
              (!s.extent.empty() && allocation.contains(s.extent.base));
      } else {
        hit = s.extent.contains(p) || s.allocation.contains(p) || s.ptr == p;
      }
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
  for (auto &kv : table_) {
    Entry &e = *kv.second;
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
  for (const auto &kv : table_)
    t += kv.second->bytes();
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

long long SiteStats::fallback_count() const {
  long long c = 0;
  for (const auto &kv : fallbacks)
    c += kv.second;
  return c;
}

const char *pattern_name(int pattern) {
  switch (pattern) {
  case kPatternRange: return "range";
  case kPatternGather: return "gather";
  case kPatternRange2: return "range2";
  case kPatternGather2: return "gather2";
  case kPatternNeighbors: return "neighbors";
  default: return "unknown";
  }
}

bool element_bounds(std::uintptr_t base, std::size_t size, std::uintptr_t p, std::size_t esz,
                    long long *lo, long long *hi) {
  if (esz == 0 || p < base || p - base > size)
    return false;
  const unsigned long long before = (p - base) / esz;
  const unsigned long long after = (base + size - p) / esz;
  const unsigned long long cap = static_cast<unsigned long long>(std::numeric_limits<long long>::max());
  *lo = -static_cast<long long>(before > cap ? cap : before);
  *hi = static_cast<long long>(after > cap ? cap : after);
  return true;
}

const char *layout_name(int layout) {
  switch (layout) {
  case 0: return "none";
  case 1: return "ell-colmajor";
  case 2: return "sell-32";
  case 3: return "sell-32-sigma";
  case 4: return "sharing";
  default: return "unknown";
  }
}

std::string format_stats(const std::map<std::string, SiteStats> &stats) {
  std::string out;
  char line[512];
  for (const auto &kv : stats) {
    const SiteStats &s = kv.second;
    std::snprintf(line, sizeof line,
                  "irregfix: site %s kernel %s pattern %s layout %s\n"
                  "irregfix:   launches transformed %lld, original by choice %lld, fallbacks %lld\n",
                  s.id.c_str(), s.kernel.c_str(), s.pattern.c_str(), layout_name(s.layout),
                  s.launches, s.chosen_original, s.fallback_count());
    out += line;
    if (!s.selector.empty())
      out += "irregfix:   selector: " + s.selector + "\n";
    if (s.ell_padding > 0 || s.sell_padding > 0) {
      // What the layout candidates were proposed from.
      char sell[32] = "not computed", sigma[64] = "";
      if (s.sell_padding > 0)
        std::snprintf(sell, sizeof sell, "%.3f", s.sell_padding);
      if (s.sigma_padding > 0)
        std::snprintf(sigma, sizeof sigma, ", sell-32-sigma %.3f (sigma %d)", s.sigma_padding, s.sigma);
      std::snprintf(line, sizeof line,
                    "irregfix:   padding (cells / non-zeros): ell %.3f, sell-32 %s%s\n",
                    s.ell_padding, sell, sigma);
      out += line;
    }
    if (s.shared_max > 0) {
      std::snprintf(line, sizeof line,
                    "irregfix:   sharing: distinct elements a block %.1f on average, %lld at most "
                    "(%u bytes of shared memory a block)\n",
                    s.shared_mean, s.shared_max, s.shared_bytes);
      out += line;
    }
    if (s.hoisted_launches > 0 || s.hoist_in_kernel > 0 || s.hoist_declined > 0) {
      std::snprintf(line, sizeof line,
                    "irregfix:   hoisted: launches %lld, steps %lld (%d iterations a step); "
                    "in-kernel loop with nothing to overlap %lld",
                    s.hoisted_launches, s.hoisted_steps, s.hoist_group, s.hoist_in_kernel);
      out += line;
      if (s.hoist_declined > 0)
        out += ", declined " + std::to_string(s.hoist_declined) + " (" + s.hoist_last_decline + ")";
      out += "\n";
    }
    if (s.host_writable_builds > 0) {
      std::snprintf(line, sizeof line,
                    "irregfix:   rebuilt at every launch: a source is in managed or host memory "
                    "(%lld launches)\n",
                    s.host_writable_builds);
      out += line;
    }
    for (const auto &f : s.fallbacks) {
      std::snprintf(line, sizeof line, "irregfix:     fallback %lld x %s\n", f.second,
                    f.first.c_str());
      out += line;
    }
    std::snprintf(line, sizeof line,
                  "irregfix:   cache hits %lld, misses %lld, refreshes %lld; remaps %lld, "
                  "bytes remapped %llu, remap time %.3f ms\n",
                  s.hits, s.misses, s.refreshes, s.remaps, s.bytes_remapped, s.remap_ms);
    out += line;
    if (s.verified > 0) {
      std::snprintf(line, sizeof line, "irregfix:   IRREGFIX_VERIFY: %lld cache hits checked, none stale\n",
                    s.verified);
      out += line;
    }
    if (s.pipelined > 0) {
      const double pct = s.pipelined_remap_ms > 0 ? 100.0 * s.hidden_ms / s.pipelined_remap_ms : 0;
      std::snprintf(line, sizeof line,
                    "irregfix:   pipelined launches %lld (latest in %d %s); remap %.3f ms over "
                    "%lld timed, %.3f ms of it (%.0f%%) hidden behind the kernel\n",
                    s.pipelined, s.last_chunks, s.last_sliced ? "slices of iterations" : "chunks",
                    s.pipelined_remap_ms, s.pipelined_timed,
                    s.hidden_ms, pct);
      out += line;
    }
  }
  return out;
}

} // namespace detail
} // namespace irregfix
