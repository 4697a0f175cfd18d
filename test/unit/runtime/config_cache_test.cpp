// Host bookkeeping of the irregfix runtime: keys, cache states, invalidation by
// ranges, byte accounting, environment parsing. Needs no GPU.
#include "address_ranges.h"
#include "cache.h"
#include "config.h"
#include "layout_policy.h"
#include "overlap_plan.h"
#include "padded_payload.h"
#include "scatter_payload.h"
#include "stats.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

const void *P(std::uintptr_t v) { return reinterpret_cast<const void *>(v); }

CacheKey key(const char *site = "a.cu:1:1") {
  CacheKey k;
  k.device = 0;
  k.site = site;
  k.pattern = kPatternRange;
  k.sources = {P(0x1000), P(0x2000)};
  k.B = P(0x3000);
  k.b_kind = 0;
  k.n = 100;
  k.elem_sizes = {8, 4};
  k.layout = 1;
  return k;
}

} // namespace

TEST(ParseBytes, PlainAndSuffixes) {
  unsigned long long v = 0;
  ASSERT_TRUE(parse_bytes("123", &v));
  EXPECT_EQ(v, 123u);
  ASSERT_TRUE(parse_bytes("64K", &v));
  EXPECT_EQ(v, 64ull << 10);
  ASSERT_TRUE(parse_bytes("64M", &v));
  EXPECT_EQ(v, 64ull << 20);
  ASSERT_TRUE(parse_bytes("2G", &v));
  EXPECT_EQ(v, 2ull << 30);
  ASSERT_TRUE(parse_bytes("3m", &v));
  EXPECT_EQ(v, 3ull << 20);
  ASSERT_TRUE(parse_bytes("16MiB", &v));
  EXPECT_EQ(v, 16ull << 20);
  ASSERT_TRUE(parse_bytes("5kb", &v));
  EXPECT_EQ(v, 5ull << 10);
  ASSERT_TRUE(parse_bytes(" 7 ", &v));
  EXPECT_EQ(v, 7u);
  ASSERT_TRUE(parse_bytes("0", &v));
  EXPECT_EQ(v, 0u);
}

TEST(ParseBytes, Rejects) {
  unsigned long long v = 99;
  EXPECT_FALSE(parse_bytes(nullptr, &v));
  EXPECT_FALSE(parse_bytes("", &v));
  EXPECT_FALSE(parse_bytes("abc", &v));
  EXPECT_FALSE(parse_bytes("-1", &v));
  EXPECT_FALSE(parse_bytes("12X", &v));
  EXPECT_FALSE(parse_bytes("1.5G", &v));
  EXPECT_FALSE(parse_bytes("99999999999999999999999", &v));
  EXPECT_FALSE(parse_bytes("99999999999999G", &v));
  EXPECT_EQ(v, 99u);
}

TEST(ParseConfig, Variables) {
  Config c = parse_config("1", "64M", "yes", "0");
  EXPECT_TRUE(c.disabled);
  EXPECT_EQ(c.max_bytes, 64ull << 20);
  EXPECT_TRUE(c.stats);
  EXPECT_FALSE(c.fail_alloc);
  c = parse_config(nullptr, nullptr, nullptr, nullptr);
  EXPECT_FALSE(c.disabled);
  EXPECT_EQ(c.max_bytes, 0u);
  EXPECT_FALSE(c.stats);
  EXPECT_FALSE(c.fail_alloc);
  c = parse_config("0", "lots", "", "TRUE");
  EXPECT_FALSE(c.disabled);
  EXPECT_TRUE(c.disabled_sites.empty());
  EXPECT_EQ(c.max_bytes, 0u); // unparsable: ignored
  EXPECT_FALSE(c.stats);
  EXPECT_TRUE(c.fail_alloc);
}

// IRREGFIX_DISABLE as a list: kernels and sites by name, the rest as usual.
TEST(ParseConfig, DisableNamesKernelsAndSites) {
  Config c = parse_config("spmv, lulesh.cu:1399:24,,", nullptr, nullptr, nullptr);
  EXPECT_FALSE(c.disabled);
  ASSERT_EQ(c.disabled_sites.size(), 2u);
  EXPECT_TRUE(disables(c, "spmv", "cg.cu:10:5"));
  EXPECT_TRUE(disables(c, "forces", "lulesh.cu:1399:24"));
  EXPECT_FALSE(disables(c, "forces", "lulesh.cu:1400:24"));
  EXPECT_FALSE(disables(c, nullptr, nullptr));
  c = parse_config("on", nullptr, nullptr, nullptr);
  EXPECT_TRUE(c.disabled);
  EXPECT_TRUE(c.disabled_sites.empty());
}

TEST(ParseConfig, FromEnvironment) {
  setenv("IRREGFIX_MAX_BYTES", "2K", 1);
  setenv("IRREGFIX_DISABLE", "1", 1);
  Config c = config_from_env();
  EXPECT_EQ(c.max_bytes, 2048u);
  EXPECT_TRUE(c.disabled);
  unsetenv("IRREGFIX_MAX_BYTES");
  unsetenv("IRREGFIX_DISABLE");
  c = config_from_env();
  EXPECT_EQ(c.max_bytes, 0u);
  EXPECT_FALSE(c.disabled);
}

TEST(CacheKey, EqualityAndHash) {
  CacheKeyHash h;
  EXPECT_EQ(key(), key());
  EXPECT_EQ(h(key()), h(key()));
  std::vector<CacheKey> different;
  for (int i = 0; i < 12; ++i)
    different.push_back(key());
  different[0].device = 1;
  different[1].site = "b.cu:2:2";
  different[2].pattern = kPatternGather;
  different[3].sources[1] = P(0x2008);
  different[4].B = P(0x3008);
  different[5].b_kind = 2;
  different[6].n = 101;
  different[7].elem_sizes[0] = 4;
  different[8].layout = 2;
  different[9].C = P(0x4000);
  different[10].c_kind = 3;
  different[11].params = {1, 128, 128};
  for (const CacheKey &d : different) {
    EXPECT_NE(d, key());
    EXPECT_NE(h(d), h(key())); // not guaranteed in general, but these must spread
  }
  CacheKey fewer = key();
  fewer.sources.pop_back();
  fewer.elem_sizes.pop_back();
  EXPECT_NE(fewer, key());
}

TEST(Cache, MissHitInvalidateRefresh) {
  Cache c;
  Entry *e = nullptr;
  EXPECT_EQ(c.lookup(key(), &e), Cache::kMiss);
  EXPECT_EQ(e, nullptr);
  Entry *ins = c.insert(key());
  ASSERT_NE(ins, nullptr);
  EXPECT_EQ(c.lookup(key(), &e), Cache::kStale); // inserted, not yet built
  EXPECT_EQ(e, ins);
  ins->valid = true;
  ins->sources = {SourceRange{0x1000, Range{0x1000, 0x800}, Range{0x1000, 0x100}},
                  SourceRange{0x3000, Range{0x3000, 0x400}, Range{0x3000, 0x194}}};
  EXPECT_EQ(c.lookup(key(), &e), Cache::kHit);
  EXPECT_EQ(e, ins);
  EXPECT_EQ(c.lookup(key("other.cu:1:1"), &e), Cache::kMiss);
  // A write anywhere in A's allocation makes it stale.
  EXPECT_EQ(c.invalidate(0x1700, Range{0x1000, 0x800}), 1);
  EXPECT_EQ(c.lookup(key(), &e), Cache::kStale);
  EXPECT_EQ(c.invalidate(0x1700, Range{0x1000, 0x800}), 0); // already stale
  e->valid = true;                                           // refreshed in place
  EXPECT_EQ(c.lookup(key(), &e), Cache::kHit);
  EXPECT_EQ(e, ins);
  // ... and in B's.
  EXPECT_EQ(c.invalidate(0x3000, Range{0x3000, 0x400}), 1);
  EXPECT_EQ(c.lookup(key(), &e), Cache::kStale);
  auto removed = c.remove(key());
  EXPECT_EQ(removed.get(), ins);
  EXPECT_EQ(c.lookup(key(), &e), Cache::kMiss);
  EXPECT_EQ(c.size(), 0u);
}

// A site whose key changes at every launch (a length per call) leaves a stale
// copy behind each time: past the few served last, those nothing holds go.
TEST(Cache, SupersededStaleCopiesOfOneSite) {
  Cache c;
  auto with_n = [](const char *site, long long n) {
    CacheKey k = key(site);
    k.n = n;
    return k;
  };
  std::vector<Entry *> mine;
  for (long long n = 1; n <= 6; ++n) {
    Entry *e = c.insert(with_n("a.cu:1:1", n));
    c.touch(*e);
    mine.push_back(e);
  }
  Entry *other = c.insert(with_n("b.cu:2:2", 1)); // another site's stale copy: not this site's to drop
  c.touch(*other);
  mine[5]->valid = true; // still valid: may be served again
  auto none = [](const Entry &) { return false; };
  // Stale: n = 1..5; the 2 served last (n = 4, 5) stay.
  std::vector<CacheKey> gone = c.superseded(with_n("a.cu:1:1", 7), 2, none);
  ASSERT_EQ(gone.size(), 3u);
  for (const CacheKey &k : gone) {
    EXPECT_EQ(k.site, "a.cu:1:1");
    EXPECT_LE(k.n, 3);
  }
  // Served again, n = 1 becomes the most recent; n = 2, held elsewhere, is kept
  // whatever its age: n = 1 and 5 stay, 4 and 3 go.
  c.touch(*mine[0]);
  gone = c.superseded(with_n("a.cu:1:1", 7), 2, [&](const Entry &e) { return &e == mine[1]; });
  ASSERT_EQ(gone.size(), 2u);
  EXPECT_EQ(gone[0].n, 4);
  EXPECT_EQ(gone[1].n, 3);
  // Another device's copies of the same site are not compared.
  CacheKey on_one = with_n("a.cu:1:1", 7);
  on_one.device = 1;
  EXPECT_TRUE(c.superseded(on_one, 0, none).empty());
  EXPECT_TRUE(c.superseded(with_n("a.cu:1:1", 7), 10, none).empty());
}

// Invalidations walk the entries in a list beside the table: removing, replacing
// and clearing keep the two the same.
TEST(Cache, WalksSeeExactlyTheEntriesInTheTable) {
  Cache c;
  auto with_n = [](long long n) {
    CacheKey k = key();
    k.n = n;
    return k;
  };
  for (long long n = 1; n <= 3; ++n)
    c.insert(with_n(n))->valid = true;
  EXPECT_EQ(c.invalidate_all(), 3);
  c.for_each([](Entry &e) { e.valid = true; });
  auto gone = c.remove(with_n(2));
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(c.invalidate_all(), 2);
  c.insert(with_n(3))->valid = true; // replaces the entry of that key
  int walked = 0;
  c.for_each([&](Entry &) { ++walked; });
  EXPECT_EQ(walked, 2);
  EXPECT_EQ(c.invalidate_all(), 1);
  EXPECT_EQ(c.clear().size(), 2u);
  EXPECT_EQ(c.invalidate_all(), 0);
  walked = 0;
  c.for_each([&](Entry &) { ++walked; });
  EXPECT_EQ(walked, 0);
}

TEST(Cache, InvalidationByRanges) {
  Cache c;
  Entry *a = c.insert(key("a"));
  Entry *b = c.insert(key("b"));
  a->valid = b->valid = true;
  // a reads [0x10000, +0x1000) of allocation [0x10000, +0x10000); b reads
  // [0x40100, +0x100) of allocation [0x40000, +0x1000).
  a->sources = {SourceRange{0x10000, Range{0x10000, 0x10000}, Range{0x10000, 0x1000}}};
  b->sources = {SourceRange{0x40000, Range{0x40000, 0x1000}, Range{0x40100, 0x100}}};
  // Device pointer in a's allocation, outside what a reads: still stale (same allocation).
  EXPECT_EQ(c.invalidate(0x1f000, Range{0x10000, 0x10000}), 1);
  EXPECT_FALSE(a->valid);
  EXPECT_TRUE(b->valid);
  a->valid = true;
  // Another allocation altogether: nothing.
  EXPECT_EQ(c.invalidate(0x90000, Range{0x90000, 0x100}), 0);
  EXPECT_TRUE(a->valid);
  EXPECT_TRUE(b->valid);
  // Unknown allocation (not device memory): compare against what was read.
  EXPECT_EQ(c.invalidate(0x40180, Range{}), 1);
  EXPECT_TRUE(a->valid);
  EXPECT_FALSE(b->valid);
  b->valid = true;
  EXPECT_EQ(c.invalidate(0x5, Range{}), 0);
  EXPECT_TRUE(a->valid);
  EXPECT_TRUE(b->valid);
}

// A write to a data array keeps the layout (a refresh only copies again); a
// write to the index array B, the last source, does not.
TEST(Cache, WriteToIndexArrayInvalidatesTheShape) {
  Cache c;
  Entry *e = c.insert(key("s"));
  e->valid = e->shape_valid = true;
  e->sources = {SourceRange{0x10000, Range{0x10000, 0x1000}, Range{0x10000, 0x1000}},  // A
                SourceRange{0x20000, Range{0x20000, 0x1000}, Range{0x20000, 0x400}}}; // B
  EXPECT_EQ(c.invalidate(0x10010, Range{}), 1);
  EXPECT_FALSE(e->valid);
  EXPECT_TRUE(e->shape_valid);
  e->valid = true;
  EXPECT_EQ(c.invalidate(0x20004, Range{}), 1);
  EXPECT_FALSE(e->valid);
  EXPECT_FALSE(e->shape_valid);
}

// A scatter site's segments (the updated array A by its allocation, then the
// index array f): a write to A leaves them valid, a free of A or a write to f
// does not.
TEST(Cache, ScatterSegmentsIgnoreWritesToTheUpdatedArray) {
  Cache c;
  CacheKey k = key("scatter");
  k.pattern = kPatternScatter;
  Entry *e = c.insert(k);
  e->valid = e->shape_valid = true;
  e->index_sources = 1;
  e->sources = {SourceRange{0x10000, Range{0x10000, 0x1000}, Range{0x10000, 0}, 0, false}, // A
                SourceRange{0x20000, Range{0x20000, 0x1000}, Range{0x20000, 0x400}}};      // f
  EXPECT_EQ(c.invalidate(0x10010, Range{}), 0);
  EXPECT_TRUE(e->valid);
  EXPECT_TRUE(e->shape_valid);
  EXPECT_EQ(e->writes, 0u);
  EXPECT_EQ(c.invalidate(0x10000, Range{0x10000, 0x1000}, /*freed=*/true), 1);
  EXPECT_FALSE(e->valid);
  EXPECT_FALSE(e->shape_valid);
  e->valid = e->shape_valid = true;
  EXPECT_EQ(c.invalidate(0x20004, Range{}), 1);
  EXPECT_FALSE(e->valid);
  EXPECT_FALSE(e->shape_valid);
}

// With several index arrays (range2/gather2: B and C; neighbours: NB and
// counts), a write to any of them clears shape_valid; a write to a data array
// does not.
TEST(Cache, WriteToAnyIndexArrayInvalidatesTheShape) {
  Cache c;
  Entry *e = c.insert(key("s2"));
  e->valid = e->shape_valid = true;
  e->index_sources = 2;
  e->sources = {SourceRange{0x10000, Range{0x10000, 0x1000}, Range{0x10000, 0x1000}},  // A0
                SourceRange{0x18000, Range{0x18000, 0x1000}, Range{0x18000, 0x1000}},  // A1
                SourceRange{0x20000, Range{0x20000, 0x1000}, Range{0x20000, 0x400}},   // B
                SourceRange{0x30000, Range{0x30000, 0x1000}, Range{0x30000, 0x400}}};  // C
  for (std::uintptr_t data : {0x10010u, 0x18ff0u}) {
    e->valid = true;
    EXPECT_EQ(c.invalidate(data, Range{}), 1);
    EXPECT_FALSE(e->valid);
    EXPECT_TRUE(e->shape_valid);
  }
  e->valid = true;
  EXPECT_EQ(c.invalidate(0x20004, Range{}), 1); // B
  EXPECT_FALSE(e->shape_valid);
  e->valid = e->shape_valid = true;
  EXPECT_EQ(c.invalidate(0x30800, Range{}), 1); // C, past its extent but in its allocation
  EXPECT_FALSE(e->valid);
  EXPECT_FALSE(e->shape_valid);
  // Through a known allocation range too.
  e->valid = e->shape_valid = true;
  EXPECT_EQ(c.invalidate(0x30000, Range{0x30000, 0x1000}), 1);
  EXPECT_FALSE(e->shape_valid);
  // Neighbours without counts: one index array, the data array keeps the shape.
  Entry *f = c.insert(key("s3"));
  f->valid = f->shape_valid = true;
  f->index_sources = 1;
  f->sources = {SourceRange{0x50000, Range{0x50000, 0x100}, Range{0x50000, 0x100}},
                SourceRange{0x60000, Range{0x60000, 0x100}, Range{0x60000, 0x100}}};
  EXPECT_EQ(c.invalidate(0x50000, Range{}), 1);
  EXPECT_TRUE(f->shape_valid);
  f->valid = true;
  EXPECT_EQ(c.invalidate(0x60010, Range{}), 1);
  EXPECT_FALSE(f->shape_valid);
}

TEST(ElementBounds, InsideTheAllocation) {
  long long lo = 0, hi = 0;
  // p 10 bytes into a 100-byte allocation, 4-byte elements: p[-2] .. p[21].
  ASSERT_TRUE(element_bounds(1000, 100, 1010, 4, &lo, &hi));
  EXPECT_EQ(lo, -2);
  EXPECT_EQ(hi, 22);
  ASSERT_TRUE(element_bounds(1000, 100, 1000, 16, &lo, &hi));
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 6);
  ASSERT_TRUE(element_bounds(1000, 96, 1000, 12, &lo, &hi));
  EXPECT_EQ(hi, 8);
  EXPECT_FALSE(element_bounds(1000, 100, 999, 4, &lo, &hi));
  EXPECT_FALSE(element_bounds(1000, 100, 1101, 4, &lo, &hi));
  EXPECT_FALSE(element_bounds(1000, 100, 1000, 0, &lo, &hi));
}

TEST(Stats, PatternNames) {
  EXPECT_STREQ(pattern_name(kPatternRange), "range");
  EXPECT_STREQ(pattern_name(kPatternGather), "gather");
  EXPECT_STREQ(pattern_name(kPatternRange2), "range2");
  EXPECT_STREQ(pattern_name(kPatternGather2), "gather2");
  EXPECT_STREQ(pattern_name(kPatternNeighbors), "neighbors");
  EXPECT_STREQ(pattern_name(kPatternScatter), "scatter");
}

TEST(Cache, ByteAccounting) {
  Cache c;
  Entry *a = c.insert(key("a"));
  Entry *b = c.insert(key("b"));
  auto rows = std::make_unique<Range2Payload>();
  rows->len.bytes = 400;
  a->payload = std::move(rows);
  a->buf_bytes = {800, 400};
  b->buf_bytes = {1000};
  EXPECT_EQ(a->bytes(), 1600u);
  EXPECT_EQ(c.total_bytes(), 2600u);
  auto composed = std::make_unique<GatherPayload>();
  composed->composed.bytes = 8; // range2 row starts / gather2 composed indices count too
  GatherPayload &g = *composed;
  b->payload = std::move(composed);
  EXPECT_EQ(c.total_bytes(), 2608u);
  g.composed.bytes = 0;
  EXPECT_TRUE(Cache::fits(2600, 0, 400, 3000));
  EXPECT_FALSE(Cache::fits(2600, 0, 401, 3000));
  EXPECT_TRUE(Cache::fits(2600, 1600, 2000, 3000)); // refresh of a, growing
  EXPECT_FALSE(Cache::fits(2600, 1600, 2001, 3000));
  EXPECT_TRUE(Cache::fits(2600, 0, 1ull << 40, 0)); // no cap
  EXPECT_FALSE(Cache::fits(0, 0, 4000, 3000));
  auto all = c.clear();
  EXPECT_EQ(all.size(), 2u);
  EXPECT_EQ(c.total_bytes(), 0u);
}

TEST(Stats, Report) {
  std::map<std::string, SiteStats> m;
  SiteStats &s = m["k.cu:3:4"];
  s.id = "k.cu:3:4";
  s.kernel = "spmv";
  s.pattern = "range";
  s.launches = 10;
  s.hits = 9;
  s.misses = 1;
  s.remaps = 1;
  s.bytes_remapped = 4096;
  s.remap_ms = 0.25;
  s.layout = 1;
  s.fallbacks["over IRREGFIX_MAX_BYTES"] = 2;
  s.fallbacks["disabled by IRREGFIX_DISABLE"] = 1;
  EXPECT_EQ(s.fallback_count(), 3);
  std::string r = format_stats(m);
  EXPECT_NE(r.find("k.cu:3:4"), std::string::npos);
  EXPECT_NE(r.find("spmv"), std::string::npos);
  EXPECT_NE(r.find("range"), std::string::npos);
  EXPECT_NE(r.find("launches transformed 10"), std::string::npos);
  EXPECT_NE(r.find("fallbacks 3"), std::string::npos);
  EXPECT_NE(r.find("2 x over IRREGFIX_MAX_BYTES"), std::string::npos);
  EXPECT_NE(r.find("hits 9"), std::string::npos);
  EXPECT_NE(r.find("bytes remapped 4096"), std::string::npos);
  EXPECT_NE(r.find("0.250 ms"), std::string::npos);
  EXPECT_NE(r.find("ell-colmajor"), std::string::npos);
  EXPECT_EQ(r.find("inspector:"), std::string::npos); // not a scatter site

  SiteStats &scatter = m["k.cu:9:1"];
  scatter.pattern = "scatter";
  scatter.inspector = describe_segments(1000, 8000, 2500, 3);
  r = format_stats(m);
  EXPECT_NE(r.find("inspector-executor"), std::string::npos);
  EXPECT_NE(r.find("irregfix:   inspector: 1000 elements updated by 8000 updates; 2500 of the updates to "
                   "elements of more than 32 (a warp each; 3 chunks of blocks for those of more than 4096)"),
            std::string::npos);
  EXPECT_EQ(describe_segments(1000, 1500, 0, 0), "1000 elements updated by 1500 updates, none by more than 32");
  EXPECT_EQ(describe_segments(10, 800, 700, 0),
            "10 elements updated by 800 updates; 700 of the updates to elements of more than 32 (a warp each)");
}

TEST(ParseConfig, Layout) {
  int l = -7;
  EXPECT_TRUE(parse_layout("ell", &l));
  EXPECT_EQ(l, 1);
  EXPECT_TRUE(parse_layout("SELL32", &l));
  EXPECT_EQ(l, 2);
  EXPECT_TRUE(parse_layout("sell-32", &l));
  EXPECT_EQ(l, 2);
  EXPECT_TRUE(parse_layout("Auto", &l));
  EXPECT_EQ(l, 0);
  l = 1;
  EXPECT_TRUE(parse_layout(nullptr, &l));
  EXPECT_EQ(l, 0);
  l = 1;
  EXPECT_TRUE(parse_layout("", &l));
  EXPECT_EQ(l, 0);
  l = 2;
  EXPECT_FALSE(parse_layout("csr", &l));
  EXPECT_FALSE(parse_layout("ell ", &l));
  EXPECT_EQ(l, 2); // left alone
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr).layout, 0); // default: auto
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, "ell").layout, 1);
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, "sell32").layout, 2);
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, "auto").layout, 0);
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, "bogus").layout, 0); // warns
  Config c = parse_config("1", "1K", nullptr, nullptr, "sell");
  EXPECT_TRUE(c.disabled);
  EXPECT_EQ(c.max_bytes, 1024u);
  EXPECT_EQ(c.layout, 2);
}

TEST(ParseConfig, LayoutSigmaAndNone) {
  int l = 0;
  EXPECT_TRUE(parse_layout("sell32s", &l));
  EXPECT_EQ(l, 3); // kLayoutSell32Sigma
  EXPECT_TRUE(parse_layout("SELL-32-SIGMA", &l));
  EXPECT_EQ(l, 3); // kLayoutSell32Sigma
  EXPECT_TRUE(parse_layout("none", &l));
  EXPECT_EQ(l, kLayoutChoiceNone);
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, nullptr).sigma, 256);
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, nullptr, "1024").sigma, 1024);
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, nullptr, "100").sigma, 128); // rounded up
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, nullptr, "8").sigma, 256);   // warns
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, nullptr, "12x").sigma, 256);  // warns
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, nullptr, "8192").sigma, 256); // warns
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, nullptr, "4096").sigma, 4096);
  EXPECT_EQ(round_sigma(33), 64);
  EXPECT_EQ(round_sigma(1), 32);
}

TEST(ParseConfig, LayoutFromEnvironment) {
  setenv("IRREGFIX_LAYOUT", "sell32", 1);
  EXPECT_EQ(config_from_env().layout, 2);
  setenv("IRREGFIX_LAYOUT", "ELL", 1);
  EXPECT_EQ(config_from_env().layout, 1);
  setenv("IRREGFIX_LAYOUT", "nonsense", 1);
  EXPECT_EQ(config_from_env().layout, 0);
  unsetenv("IRREGFIX_LAYOUT");
  EXPECT_EQ(config_from_env().layout, 0);
}

TEST(LayoutChoice, PreferSell) {
  EXPECT_FALSE(prefer_sell(100, 50, 100));  // ELL pads nothing
  EXPECT_FALSE(prefer_sell(115, 100, 100)); // at the threshold, not over it
  EXPECT_TRUE(prefer_sell(116, 100, 100));
  EXPECT_FALSE(prefer_sell(200, 200, 100)); // SELL-32 no smaller
  EXPECT_TRUE(prefer_sell(200, 199, 100));
  EXPECT_FALSE(prefer_sell(0, 0, 0));       // nothing to copy
  EXPECT_STREQ(layout_name(2), "sell-32");
  EXPECT_STREQ(layout_name(3), "sell-32-sigma");
  EXPECT_FALSE(pads_much(115, 100));
  EXPECT_TRUE(pads_much(116, 100));
  EXPECT_FALSE(pads_much(5, 0));
}

// The candidates proposed from cell counts: out[0..count), as a vector.
std::vector<int> candidates(unsigned long long nnz, unsigned long long ell,
                            unsigned long long sell, unsigned long long sigma) {
  LayoutCells c;
  c.nnz = nnz;
  c.ell = ell;
  c.sell = sell;
  c.sigma = sigma;
  int out[kMaxLayoutCandidates] = {-1, -1, -1};
  const int count = layout_candidates(c, out);
  return std::vector<int>(out, out + count);
}

constexpr int kEll = 1, kSell = 2, kSigma = 3; // Layout values

TEST(LayoutChoice, UniformRowsProposeEllAlone) {
  // A 5-point grid: every layout the same cells; SELL-32 saves nothing.
  EXPECT_EQ(candidates(500, 500, 500, 0), (std::vector<int>{kEll}));
  // ELL under the threshold, SELL-32 saves 8%: not worth its addressing.
  EXPECT_EQ(candidates(100, 110, 101, 0), (std::vector<int>{kEll}));
  // Nothing to copy.
  EXPECT_EQ(candidates(0, 0, 0, 0), (std::vector<int>{kEll}));
}

TEST(LayoutChoice, EllUnderThresholdButSellMuchSmallerIsTimedSecond) {
  // ELL pads 1.14 (the favourite), SELL-32 saves 12%: both timed, ELL first.
  EXPECT_EQ(candidates(100, 114, 100, 0), (std::vector<int>{kEll, kSell}));
}

TEST(LayoutChoice, SkewedRowsOfAKernelThatCannotPermute) {
  // Rows of 1 to 64: SELL-32 the favourite; ELL within 1.5x of it is timed too.
  EXPECT_EQ(candidates(1000, 1970, 1400, 0), (std::vector<int>{kSell, kEll}));
  // ELL twice SELL-32's cells: not timed.
  EXPECT_EQ(candidates(1000, 3000, 1400, 0), (std::vector<int>{kSell}));
}

TEST(LayoutChoice, HeavySkewSortedProposesSigmaFirst) {
  // Offshore-like: sigma 1.05, SELL-32 1.3, ELL 1.9: ELL is beyond 1.5x of sigma.
  EXPECT_EQ(candidates(1000, 1900, 1300, 1050), (std::vector<int>{kSigma, kSell}));
  // Apache-like: all close: every layout timed, fewer cells first.
  EXPECT_EQ(candidates(1000, 1200, 1050, 1020), (std::vector<int>{kSigma, kSell, kEll}));
  // SELL-32 saving under 10% over ELL is left out even beside sigma.
  EXPECT_EQ(candidates(1000, 1200, 1190, 1020), (std::vector<int>{kSigma, kEll}));
}

TEST(LayoutChoice, SortOnlyWhenPermutableAndSellPadsMuch) {
  LayoutCells c;
  c.nnz = 1000;
  c.ell = 1900;
  c.sell = 1300;
  EXPECT_TRUE(worth_sorting(c, true));
  EXPECT_FALSE(worth_sorting(c, false)); // the launch may not permute
  c.sell = 1100;                         // SELL-32 pads little: nothing to gain
  EXPECT_FALSE(worth_sorting(c, true));
  c.ell = 1100;
  c.sell = 1100;
  EXPECT_FALSE(worth_sorting(c, true));
}

// One range site's stats in a report's map.
SiteStats &range_site(std::map<std::string, SiteStats> &m, int layout) {
  SiteStats &s = m["k.cu:1:1"];
  s.id = "k.cu:1:1";
  s.pattern = "range";
  s.layout = layout;
  return s;
}

TEST(Stats, PaddingLine) {
  std::map<std::string, SiteStats> m;
  SiteStats &s = range_site(m, 2);
  std::string r = format_stats(m);
  EXPECT_NE(r.find("layout sell-32"), std::string::npos);
  EXPECT_EQ(r.find("padding"), std::string::npos); // not computed: no line
  s.ell_padding = 1.97;
  s.sell_padding = 1.25;
  r = format_stats(m);
  EXPECT_NE(r.find("padding (cells / non-zeros): ell 1.970, sell-32 1.250"), std::string::npos) << r;
  s.sigma_padding = 1.05;
  s.sigma = 256;
  r = format_stats(m);
  EXPECT_NE(r.find("padding (cells / non-zeros): ell 1.970, sell-32 1.250, sell-32-sigma 1.050 "
                   "(sigma 256)\n"),
            std::string::npos)
      << r;
  s.sigma_padding = 0;
  s.sell_padding = 0;
  r = format_stats(m);
  EXPECT_NE(r.find("ell 1.970, sell-32 not computed\n"), std::string::npos) << r;
}

TEST(Stats, SelectorLineNamesTheCandidatesAndTheChoice) {
  std::map<std::string, SiteStats> m;
  SiteStats &s = range_site(m, 3);
  EXPECT_EQ(format_stats(m).find("selector"), std::string::npos); // never ran: no line
  s.selector = "sell-32-sigma: copies cached: ...; medians (us, -1: none timed): original 25.0, "
               "sell-32-sigma 14.0 + remap 3.0 (chosen: least kernel time, its copy never "
               "rewritten), ell-colmajor 20.0 + remap 2.0; 13.0 launches per copy";
  const std::string r = format_stats(m);
  EXPECT_NE(r.find("irregfix: site k.cu:1:1 kernel  pattern range layout sell-32-sigma\n"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("irregfix:   selector: " + s.selector + "\n"), std::string::npos) << r;
}

TEST(ParseConfig, Chunks) {
  int c = -1;
  EXPECT_TRUE(parse_chunks(nullptr, &c));
  EXPECT_EQ(c, 0);
  EXPECT_TRUE(parse_chunks("auto", &c));
  EXPECT_EQ(c, 0);
  EXPECT_TRUE(parse_chunks("7", &c));
  EXPECT_EQ(c, 7);
  EXPECT_TRUE(parse_chunks("64", &c));
  EXPECT_EQ(c, kMaxChunks);
  for (const char *bad : {"0", "-2", "65", "4x", "many"}) {
    c = 3;
    EXPECT_FALSE(parse_chunks(bad, &c)) << bad;
    EXPECT_EQ(c, 3) << bad;
  }
}

// k = sqrt(min(remap, compute) / per-chunk cost), at most a chunk per wave of
// blocks and kMaxChunks; forced counts only capped by the blocks.
TEST(ChunkPlan, Model) {
  const long long wave = full_wave(132, 256); // 8 blocks of 256 threads per multiprocessor
  EXPECT_EQ(wave, 1056);
  EXPECT_EQ(full_wave(132, 32), 132 * 32); // at most 32 blocks per multiprocessor
  EXPECT_EQ(full_wave(132, 1024), 264);
  const long long blocks = 100000;
  EXPECT_EQ(plan_chunks(0.5, 0.8, -1, blocks, wave, 0), 10); // sqrt(0.5 / 0.005)
  EXPECT_EQ(plan_chunks(0.8, 0.5, -1, blocks, wave, 0), 10); // the shorter stage counts
  EXPECT_EQ(plan_chunks(0.004, 1.0, -1, blocks, wave, 0), 1); // a short remap: not worth a chunk
  EXPECT_EQ(plan_chunks(-1, -1, 0.125, blocks, wave, 0), 5); // not measured: the byte estimate
  EXPECT_EQ(plan_chunks(100.0, 100.0, -1, blocks, wave, 0), kMaxChunks);
  EXPECT_EQ(plan_chunks(0.5, 0.5, -1, 3 * wave, wave, 0), 3); // chunks of at least a wave
  EXPECT_EQ(plan_chunks(0.5, 0.5, -1, wave, wave, 0), 1);     // one wave: no pipeline
  EXPECT_EQ(plan_chunks(0.5, 0.5, -1, 1, wave, 0), 1);
  EXPECT_EQ(plan_chunks(0, 0, 0, blocks, wave, 7), 7);        // IRREGFIX_CHUNKS
  EXPECT_EQ(plan_chunks(0, 0, 0, 5, wave, 7), 5);             // never more chunks than blocks
}

TEST(Stats, PipelineLine) {
  std::map<std::string, SiteStats> m;
  SiteStats &s = m["k.cu:1:1"];
  s.id = "k.cu:1:1";
  EXPECT_EQ(format_stats(m).find("pipelined"), std::string::npos);
  s.pipelined = 3;
  s.last_chunks = 6;
  s.pipelined_timed = 3;
  s.pipelined_remap_ms = 2.0;
  s.hidden_ms = 1.5;
  const std::string r = format_stats(m);
  EXPECT_NE(r.find("pipelined launches 3 (latest in 6 chunks); remap 2.000 ms over 3 timed, "
                   "1.500 ms of it (75%) hidden behind the kernel"),
            std::string::npos)
      << r;
  s.last_sliced = true; // a hoisted launch's
  EXPECT_NE(format_stats(m).find("pipelined launches 3 (latest in 6 slices of iterations)"), std::string::npos);
}

// An entry holding a source by its allocation (no bytes read, but its values
// counted) and f whole: a write anywhere in the source's allocation makes it
// stale and keeps its shape; a write to f, or the source freed, does not. Its
// scatter tables count against IRREGFIX_MAX_BYTES. (A scatter site's updated
// array is not even read: ScatterSegmentsIgnoreWritesToTheUpdatedArray.)
TEST(Cache, ScatterEntryKeepsItsSegmentsAcrossWritesToTheTarget) {
  Cache c;
  Entry *e = c.insert(key("scatter"));
  e->valid = e->shape_valid = true;
  e->sources = {SourceRange{0x10000, Range{0x10000, 0x1000}, Range{0x10000, 0}},  // A
                SourceRange{0x20000, Range{0x20000, 0x1000}, Range{0x20000, 0x400}}}; // f
  e->index_sources = 1;
  EXPECT_EQ(c.invalidate(0x10800, Range{0x10000, 0x1000}), 1);
  EXPECT_FALSE(e->valid);
  EXPECT_TRUE(e->shape_valid);
  e->valid = true;
  EXPECT_EQ(c.invalidate(0x10000, Range{0x10000, 0x1000}, /*freed=*/true), 1);
  EXPECT_FALSE(e->shape_valid);
  e->valid = e->shape_valid = true;
  EXPECT_EQ(c.invalidate(0x20010, Range{}), 1);
  EXPECT_FALSE(e->shape_valid);
  auto segments = std::make_unique<ScatterPayload>();
  segments->tables[kScatterSlots].bytes = 400;
  segments->tables[kScatterTargets].bytes = 400;
  segments->tables[kScatterFirst].bytes = 404;
  e->payload = std::move(segments);
  e->buf_bytes = {400};
  EXPECT_EQ(e->bytes(), 1604u);
}

TEST(ParseConfig, DeterministicFromEnvironment) {
  unsetenv("IRREGFIX_DETERMINISTIC");
  EXPECT_FALSE(config_from_env().deterministic);
  setenv("IRREGFIX_DETERMINISTIC", "1", 1);
  EXPECT_TRUE(config_from_env().deterministic);
  setenv("IRREGFIX_DETERMINISTIC", "0", 1);
  EXPECT_FALSE(config_from_env().deterministic);
  unsetenv("IRREGFIX_DETERMINISTIC");
}

TEST(ParseConfig, SharingOrderFromEnvironment) {
  unsetenv("IRREGFIX_SHARING_ORDER");
  EXPECT_TRUE(config_from_env().sharing_order);
  setenv("IRREGFIX_SHARING_ORDER", "0", 1);
  EXPECT_FALSE(config_from_env().sharing_order);
  setenv("IRREGFIX_SHARING_ORDER", "1", 1);
  EXPECT_TRUE(config_from_env().sharing_order);
  setenv("IRREGFIX_SHARING_ORDER", "maybe", 1); // warned about, the default kept
  EXPECT_TRUE(config_from_env().sharing_order);
  unsetenv("IRREGFIX_SHARING_ORDER");
}
