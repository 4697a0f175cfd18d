// Host logic of indexed copies (prepare_indexed): the cache key, the layout a
// site asks for and builds, the refresh rules (what the launcher computes
// first after each kind of write) and the sizes of a shape. Needs no GPU.
#include "cache.h"
#include "config.h"
#include "indexed_plan.h"
#include "layout_policy.h"

#include <irregfix/irregfix.cuh>
#include <irregfix/pattern.h>

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

const void *at(std::uintptr_t p) { return reinterpret_cast<const void *>(p); }

// A loop site of two data arrays (x by col, val by k), two index arrays
// (row, col) and one scalar (m), whose fields a test may change.
struct Site {
  const void *arrays[2] = {at(0x10000), at(0x20000)};
  std::size_t sizes[2] = {4, 8};
  const void *index[2] = {at(0x30000), at(0x40000)};
  long long scalars[1] = {5000};
  IndexedSite s;
  Site() {
    s.n = 1000;
    s.loop = 1;
    s.count = 2;
    s.arrays = arrays;
    s.elem_sizes = sizes;
    s.index_count = 2;
    s.index_arrays = index;
    s.scalar_count = 1;
    s.scalars = scalars;
  }
};

// Sources as a build records them: two data arrays, then two index arrays,
// each in an allocation of its own.
std::vector<SourceRange> sources() {
  std::vector<SourceRange> v;
  for (std::uintptr_t base : {0x10000u, 0x20000u, 0x30000u, 0x40000u})
    v.push_back(SourceRange{base, Range{base, 0x1000}, Range{base, 0x1000}, cudaMemoryTypeDevice});
  return v;
}

// An entry whose indices and copies are built (what indexed_first_step looks at).
Entry *built_entry(Cache &c, const Site &site) {
  Entry *e = c.insert(indexed_key("k.cu:3:4", 0, site.s, kLayoutKeyAuto));
  e->sources = sources();
  e->index_sources = 2;
  static long long slots[2];
  auto indices = std::make_unique<IndexedPayload>();
  indices->indices.ptr = slots;
  indices->index_ptrs = {slots, slots + 1};
  e->payload = std::move(indices);
  e->bufs = {slots, slots + 1};
  e->valid = e->shape_valid = true;
  return e;
}

} // namespace

TEST(IndexedKey, NamesEverythingTheIndicesDependOn) {
  Site a;
  const CacheKey k = indexed_key("k.cu:3:4", 0, a.s, kLayoutKeyAuto);
  EXPECT_EQ(k.pattern, kPatternIndexed);
  EXPECT_EQ(k.sources.size(), 2u);
  EXPECT_EQ(k.index_arrays.size(), 2u);
  EXPECT_EQ(k.params, (std::vector<long long>{1, 5000}));
  EXPECT_TRUE(indexed_loop(k));
  EXPECT_TRUE(same_indexed_call(k, a.s, 0, kLayoutKeyAuto));
  EXPECT_EQ(CacheKeyHash()(k), CacheKeyHash()(indexed_key("k.cu:3:4", 0, a.s, kLayoutKeyAuto)));

  // Each change makes another key, and same_indexed_call agrees.
  auto differs = [&](const char *what, auto change, int device = 0, int layout = kLayoutKeyAuto) {
    Site b;
    change(b);
    const CacheKey kb = indexed_key("k.cu:3:4", device, b.s, layout);
    EXPECT_NE(k, kb) << what;
    EXPECT_FALSE(same_indexed_call(k, b.s, device, layout)) << what;
  };
  differs("an index array", [](Site &b) { b.index[1] = at(0x50000); });
  differs("one index array fewer", [](Site &b) { b.s.index_count = 1; });
  differs("a scalar", [](Site &b) { b.scalars[0] = 5001; });
  differs("no scalar", [](Site &b) { b.s.scalar_count = 0; });
  differs("a gather", [](Site &b) { b.s.loop = 0; });
  differs("a data array", [](Site &b) { b.arrays[0] = at(0x11000); });
  differs("an element size", [](Site &b) { b.sizes[1] = 16; });
  differs("n", [](Site &b) { b.s.n = 999; });
  differs("the device", [](Site &) {}, 1);
  differs("the layout", [](Site &) {}, 0, kLayoutEllColMajor);

  // The scalars are not the index arrays: a key does not confuse them.
  Site c;
  c.s.index_count = 0;
  c.s.scalar_count = 0;
  const CacheKey kc = indexed_key("k.cu:3:4", 0, c.s, kLayoutKeyAuto);
  EXPECT_TRUE(kc.index_arrays.empty());
  EXPECT_EQ(kc.params, (std::vector<long long>{1}));
  EXPECT_TRUE(same_indexed_call(kc, c.s, 0, kLayoutKeyAuto));
  EXPECT_FALSE(same_indexed_call(kc, a.s, 0, kLayoutKeyAuto));

  // Another pattern's key with the same arrays is not an indexed call.
  CacheKey other = k;
  other.pattern = kPatternGather;
  EXPECT_FALSE(same_indexed_call(other, a.s, 0, kLayoutKeyAuto));
}

TEST(IndexedKey, RejectsSitesItCannotUse) {
  Site a;
  EXPECT_EQ(check_indexed_site(a.s), "");
  auto why = [](auto change) {
    Site b;
    change(b);
    return check_indexed_site(b.s);
  };
  EXPECT_EQ(why([](Site &b) { b.s.count = 0; }), "no arrays to remap");
  EXPECT_EQ(why([](Site &b) { b.s.arrays = nullptr; }), "no arrays to remap");
  EXPECT_EQ(why([](Site &b) { b.s.n = 0; }), "no threads");
  EXPECT_EQ(why([](Site &b) { b.arrays[1] = nullptr; }), "null source array");
  EXPECT_EQ(why([](Site &b) { b.sizes[0] = 0; }), "an element size of zero");
  EXPECT_NE(why([](Site &b) { b.s.index_arrays = nullptr; }), "");
  EXPECT_NE(why([](Site &b) { b.s.scalars = nullptr; }), "");
  EXPECT_EQ(why([](Site &b) { b.index[0] = nullptr; }), ""); // an optional array the kernels guard
}

// The request's key: ELL or SELL-32 when asked, auto's own choice under auto,
// and ELL under any forced layout indexed sites do not support.
TEST(IndexedLayout, Request) {
  const SiteInfo site{"k.cu:3:4", "k", "indexed", kSitePermutable | kSiteShareable};
  LaunchShape open;
  open.open = true;
  open.grid = dim3(4);
  open.block = dim3(256);
  auto key = [&](int forced, int wish = kLayoutKeyAuto) {
    Config cfg;
    cfg.layout = forced;
    LaunchShape l = open;
    l.wish = wish;
    return layout_request(cfg, kPatternIndexed, site, l, 1000).key;
  };
  EXPECT_EQ(key(0), kLayoutKeyAuto);
  EXPECT_EQ(key(kLayoutEllColMajor), kLayoutEllColMajor);
  EXPECT_EQ(key(kLayoutSell32), kLayoutSell32);
  EXPECT_EQ(key(kLayoutSell32Sigma), kLayoutEllColMajor);
  EXPECT_EQ(key(kLayoutSharing), kLayoutEllColMajor);
  // Under auto, the selector's candidate of another site of the launch.
  EXPECT_EQ(key(0, kLayoutSell32), kLayoutSell32);
  EXPECT_EQ(key(0, kLayoutEllColMajor), kLayoutEllColMajor);
  EXPECT_EQ(key(0, kLayoutSell32Sigma), kLayoutKeyAuto);
  EXPECT_EQ(key(0, kLayoutSharing), kLayoutKeyAuto);
}

TEST(IndexedLayout, BuiltLayout) {
  LayoutCells skewed; // ELL pads 4x, SELL-32 1.2x
  skewed.nnz = 1000;
  skewed.ell = 4000;
  skewed.sell = 1200;
  LayoutCells uniform; // ELL pads 1.1x
  uniform.nnz = 1000;
  uniform.ell = 1100;
  uniform.sell = 1050;
  LayoutCells uncounted = skewed;
  uncounted.sell = 0;
  EXPECT_EQ(indexed_layout(kLayoutKeyAuto, true, skewed), kLayoutSell32);
  EXPECT_EQ(indexed_layout(kLayoutKeyAuto, true, uniform), kLayoutEllColMajor);
  EXPECT_EQ(indexed_layout(kLayoutKeyAuto, true, uncounted), kLayoutEllColMajor);
  EXPECT_EQ(indexed_layout(kLayoutEllColMajor, true, skewed), kLayoutEllColMajor);
  EXPECT_EQ(indexed_layout(kLayoutSell32, true, uniform), kLayoutSell32);
  // Gathers: one slot a thread, always ELL.
  EXPECT_EQ(indexed_layout(kLayoutSell32, false, skewed), kLayoutEllColMajor);
  EXPECT_EQ(indexed_layout(kLayoutKeyAuto, false, skewed), kLayoutEllColMajor);
}

// The refresh rules: after a write to a data array only, the kept indices hold
// (gather again, ready at once); after a write to an index array, an unnamed
// write or a free, the launcher computes them again.
TEST(IndexedRefresh, WhatTheLauncherComputesFirst) {
  Site site;
  Cache c;
  Entry *e = built_entry(c, site);
  EXPECT_EQ(indexed_first_step(*e, true), kIndexedReady);

  c.invalidate(0x20010, Range{}); // inside val (a data array)
  EXPECT_FALSE(e->valid);
  EXPECT_EQ(indexed_first_step(*e, true), kIndexedReady);

  e->valid = true;
  c.invalidate(0x40010, Range{}); // inside col (an index array)
  EXPECT_FALSE(e->shape_valid);
  EXPECT_EQ(indexed_first_step(*e, true), kIndexedLengths);
  EXPECT_EQ(indexed_first_step(*e, false), kIndexedIndices);

  e->valid = e->shape_valid = true;
  c.invalidate_all();
  EXPECT_EQ(indexed_first_step(*e, true), kIndexedLengths);

  e->valid = e->shape_valid = true;
  c.invalidate(0x10000, Range{}, true); // x freed: its address may come back as another allocation
  EXPECT_EQ(indexed_first_step(*e, true), kIndexedLengths);

  // A write that reaches none of the sources changes nothing.
  e->valid = e->shape_valid = true;
  EXPECT_EQ(c.invalidate(0x90000, Range{}), 0);
  EXPECT_TRUE(e->valid);
  EXPECT_EQ(indexed_first_step(*e, true), kIndexedReady);
}

TEST(IndexedRefresh, AnEntryWithoutItsIndicesStartsOver) {
  Site site;
  Cache c;
  Entry *e = built_entry(c, site);
  payload_of<IndexedPayload>(*e)->indices.ptr = nullptr; // a build that failed before its buffers
  EXPECT_EQ(indexed_first_step(*e, true), kIndexedLengths);
  e = c.insert(indexed_key("k.cu:5:6", 0, site.s, kLayoutKeyAuto)); // a miss
  EXPECT_EQ(indexed_first_step(*e, false), kIndexedIndices);
}

// Index arrays in memory the host may write, or in no allocation the runtime
// found (recorded as unregistered memory), make the entry rebuild its shape at
// every launch.
TEST(IndexedRefresh, IndexArraysTheHostMayWriteRebuildTheShape) {
  Site site;
  Cache c;
  Entry *e = built_entry(c, site);
  note_source_memory(*e);
  EXPECT_FALSE(e->host_writable);
  e->sources[3] = SourceRange{0x40000, Range{}, Range{}, cudaMemoryTypeUnregistered};
  note_source_memory(*e);
  EXPECT_TRUE(e->host_writable);
  EXPECT_TRUE(e->index_host_writable);
  EXPECT_FALSE(servable(*e));
  e->sources[3].memory = cudaMemoryTypeDevice;
  e->sources[0].memory = cudaMemoryTypeManaged; // a data array: the copy only
  note_source_memory(*e);
  EXPECT_TRUE(e->host_writable);
  EXPECT_FALSE(e->index_host_writable);
}

TEST(IndexedShape, Sizes) {
  std::size_t index_bytes = 0;
  std::vector<std::size_t> copies;
  EXPECT_EQ(indexed_bytes(1000, {4, 12}, &index_bytes, &copies), "");
  EXPECT_EQ(index_bytes, 2u * 1000 * sizeof(long long));
  EXPECT_EQ(copies, (std::vector<std::size_t>{4000, 12000}));
  EXPECT_EQ(indexed_bytes(0, {4}, &index_bytes, &copies), "");
  EXPECT_EQ(index_bytes, 0u);
  EXPECT_EQ(indexed_bytes(1ull << 62, {4}, &index_bytes, &copies), "remapped copy too large");
  EXPECT_EQ(indexed_bytes(1ull << 58, {1, 1ull << 10}, &index_bytes, &copies), "remapped copy too large");
  EXPECT_EQ(indexed_moved(100, {4, 8}), 1200u);
}

TEST(IndexedShape, ExtentOfTheIndices) {
  const Range r = index_extent_range(0x1000, 8, 2, 5); // elements 2..5
  EXPECT_EQ(r.base, 0x1010u);
  EXPECT_EQ(r.size, 32u);
  const Range below = index_extent_range(0x1000, 4, -3, -1); // before the pointer, in its allocation
  EXPECT_EQ(below.base, 0x1000u - 12);
  EXPECT_EQ(below.size, 12u);
  const Range none = index_extent_range(0x1000, 4, LLONG_MAX, LLONG_MIN); // no valid index
  EXPECT_EQ(none.base, 0x1000u);
  EXPECT_TRUE(none.empty());
}
