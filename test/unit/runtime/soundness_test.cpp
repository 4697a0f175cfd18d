// Host logic of the cache's soundness rule: invalidating every copy, frees,
// sources in memory the host can write (never served from the cache), the
// invalidation report, IRREGFIX_VERIFY's configuration, names and message.
// Needs no GPU.
#include "address_ranges.h"
#include "cache.h"
#include "config.h"
#include "layout_policy.h"
#include "overlap_plan.h"
#include "stats.h"
#include "invalidation_stats.h"
#include "verify_logic.h"

#include <irregfix/irregfix.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

CacheKey key(const char *site, int device = 0) {
  CacheKey k;
  k.device = device;
  k.site = site;
  k.sources = {reinterpret_cast<const void *>(std::uintptr_t{0x1000})};
  k.B = reinterpret_cast<const void *>(std::uintptr_t{0x3000});
  k.n = 100;
  k.elem_sizes = {4};
  k.layout = 1;
  return k;
}

// A data array and an index array, each `memory` (a cudaMemoryType).
std::vector<SourceRange> two_sources(std::uintptr_t base, int data_memory, int index_memory) {
  return {SourceRange{base, Range{base, 0x1000}, Range{base, 0x100}, data_memory},
          SourceRange{base + 0x1000, Range{base + 0x1000, 0x1000}, Range{base + 0x1000, 0x100}, index_memory}};
}

// A report of one site, "k.cu:1:2", whose stats the test fills in.
struct OneSite {
  std::map<std::string, SiteStats> m;
  SiteStats &s = m["k.cu:1:2"];
  OneSite() { s.id = "k.cu:1:2"; }
  std::string report() const { return format_stats(m); }
};

} // namespace

// Every entry, on every device, goes stale as after a write to each of its
// sources: the write count moves, and the shape is rebuilt (a write that
// cannot be named may have hit an index array).
TEST(InvalidateAll, MarksEveryEntryStaleWithItsShape) {
  Cache c;
  EXPECT_EQ(c.invalidate_all(), 0); // empty: nothing to do
  Entry *a = c.insert(key("a", 0));
  Entry *b = c.insert(key("b", 1));
  Entry *stale = c.insert(key("c", 0));
  a->sources = two_sources(0x10000, cudaMemoryTypeDevice, cudaMemoryTypeDevice);
  b->sources = two_sources(0x20000, cudaMemoryTypeDevice, cudaMemoryTypeDevice);
  a->valid = a->shape_valid = b->valid = b->shape_valid = true;
  stale->shape_valid = true; // already stale: not counted again, still written
  EXPECT_EQ(c.invalidate_all(), 2);
  for (Entry *e : {a, b, stale}) {
    EXPECT_FALSE(e->valid);
    EXPECT_FALSE(e->shape_valid);
    EXPECT_EQ(e->writes, 1u);
  }
  EXPECT_EQ(c.invalidate_all(), 0);
  EXPECT_EQ(a->writes, 2u);
}

// A free of a data array rebuilds the shape too: the address may come back as
// another allocation (another size, another kind of memory).
TEST(InvalidateFreed, RebuildsTheShapeOfACopyOfAFreedDataArray) {
  Cache c;
  Entry *e = c.insert(key("f"));
  e->sources = two_sources(0x10000, cudaMemoryTypeDevice, cudaMemoryTypeDevice);
  e->valid = e->shape_valid = true;
  EXPECT_EQ(c.invalidate(0x10000, Range{}), 1); // a write to the data array: the shape holds
  EXPECT_TRUE(e->shape_valid);
  e->valid = true;
  EXPECT_EQ(c.invalidate(0x10000, Range{}, /*freed=*/true), 1);
  EXPECT_FALSE(e->shape_valid);
  e->valid = e->shape_valid = true;
  EXPECT_EQ(c.invalidate(0x90000, Range{}, true), 0); // another allocation
  EXPECT_TRUE(e->shape_valid);
}

TEST(SourceMemory, OnlyPlainDeviceMemoryIsCached) {
  EXPECT_TRUE(cacheable_memory(cudaMemoryTypeDevice));
  EXPECT_FALSE(cacheable_memory(cudaMemoryTypeManaged));
  EXPECT_FALSE(cacheable_memory(cudaMemoryTypeHost));         // pinned, mapped, registered
  EXPECT_FALSE(cacheable_memory(cudaMemoryTypeUnregistered)); // system memory (HMM, ATS)
  EXPECT_FALSE(cacheable_memory(12345));                      // a type this runtime does not know
}

TEST(SourceMemory, AnEntryRemembersWhetherTheHostCanWriteASource) {
  Entry e;
  e.index_sources = 1;
  e.sources = two_sources(0x10000, cudaMemoryTypeDevice, cudaMemoryTypeDevice);
  note_source_memory(e);
  EXPECT_FALSE(e.host_writable);
  EXPECT_FALSE(e.index_host_writable);
  e.valid = true;
  EXPECT_TRUE(servable(e));

  // Managed data array: rebuilt at every launch, its shape kept.
  e.sources = two_sources(0x10000, cudaMemoryTypeManaged, cudaMemoryTypeDevice);
  note_source_memory(e);
  EXPECT_TRUE(e.host_writable);
  EXPECT_FALSE(e.index_host_writable);
  EXPECT_FALSE(servable(e)); // valid, and still never served as it is

  // Host-mapped index array: the shape is rebuilt too.
  e.sources = two_sources(0x10000, cudaMemoryTypeDevice, cudaMemoryTypeHost);
  note_source_memory(e);
  EXPECT_TRUE(e.host_writable);
  EXPECT_TRUE(e.index_host_writable);

  // A source whose memory was never asked about counts as host-writable.
  e.sources.push_back(SourceRange{});
  e.sources[1].memory = cudaMemoryTypeDevice;
  e.index_sources = 2;
  note_source_memory(e);
  EXPECT_TRUE(e.host_writable);
  EXPECT_TRUE(e.index_host_writable);

  // Back to device memory (a rebuild after a free): served again.
  e.sources = two_sources(0x10000, cudaMemoryTypeDevice, cudaMemoryTypeDevice);
  e.index_sources = 1;
  note_source_memory(e);
  EXPECT_FALSE(e.host_writable);
  EXPECT_FALSE(e.index_host_writable);
  EXPECT_TRUE(servable(e));
}

TEST(SourceMemory, SiteReportCountsTheRebuilds) {
  OneSite one;
  EXPECT_EQ(one.report().find("rebuilt at every launch"), std::string::npos);
  one.s.host_writable_builds = 4;
  EXPECT_NE(one.report().find("irregfix:   rebuilt at every launch: a source is in managed or host "
                              "memory (4 launches)\n"),
            std::string::npos)
      << one.report();
}

TEST(InvalidationReport, CauseNames) {
  EXPECT_EQ(cause_name(IRREGFIX_CAUSE_UNTRACED_KERNEL), "untraced kernel");
  EXPECT_EQ(cause_name(IRREGFIX_CAUSE_LAUNCH_API), "launch API");
  EXPECT_EQ(cause_name(IRREGFIX_CAUSE_UNSEEN_CALL), "unseen call");
  EXPECT_EQ(cause_name(IRREGFIX_CAUSE_ENTRY), "entry");
  EXPECT_EQ(cause_name(IRREGFIX_CAUSE_UNNAMED_COPY), "unnamed copy");
  EXPECT_EQ(cause_name(IRREGFIX_CAUSE_DEVICE_RESET), "device reset");
  EXPECT_EQ(cause_name(0), "cause 0");
  EXPECT_EQ(cause_name(42), "cause 42");
}

TEST(InvalidationReport, NothingWhenNothingWasInvalidated) {
  InvalidationStats s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(format_invalidations(s), "");
}

// The most frequent program points, most first, ties by name, three at most.
TEST(InvalidationReport, TopWhere) {
  InvalidationStats s;
  const char *calls[] = {"b.cu:9", "a.cu:3", "c.cu:1", "a.cu:3", "d.cu:4", "c.cu:1", "a.cu:3", nullptr};
  for (const char *where : calls)
    s.note_all(IRREGFIX_CAUSE_ENTRY, where, 0);
  const auto top = top_where(s.all[IRREGFIX_CAUSE_ENTRY], 3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0], std::make_pair(std::string("a.cu:3"), 3LL));
  EXPECT_EQ(top[1], std::make_pair(std::string("c.cu:1"), 2LL));
  EXPECT_EQ(top[2], std::make_pair(std::string("?"), 1LL)); // no `where`; "?" sorts first of the ones
  EXPECT_EQ(top_where(s.all[IRREGFIX_CAUSE_ENTRY], 10).size(), 5u);
  EXPECT_EQ(s.all[IRREGFIX_CAUSE_ENTRY].count.calls, 8);
}

// The whole block: a header, then each kind that happened, in a fixed order.
TEST(InvalidationReport, Block) {
  InvalidationStats s;
  s.by_name = {12, 3};
  s.released = {1, 1};
  s.by_symbol = {4, 2};
  s.symbols_not_found = 1;
  s.note_all(IRREGFIX_CAUSE_UNNAMED_COPY, "irregfix_invalidate_symbol (no address found)", 5);
  for (int i = 0; i < 6; ++i)
    s.note_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "cg.cu:12", i < 2 ? 1 : 0);
  for (int i = 0; i < 3; ++i)
    s.note_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "cg.cu:40", 0);
  s.note_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "util.cu:7", 1);
  s.note_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "util.cu:90", 0);
  EXPECT_EQ(format_invalidations(s),
            "irregfix: invalidations, whole program (calls, and the cached copies they turned stale)\n"
            "irregfix:   by name (irregfix_invalidate): 12 calls, 3 copies turned stale\n"
            "irregfix:   at frees (irregfix_release): 1 call, 1 copy turned stale\n"
            "irregfix:   by __device__ variable (irregfix_invalidate_symbol): 4 calls, 2 copies turned "
            "stale; 1 found no address and made every copy stale (counted under unnamed copy)\n"
            "irregfix:   every copy (irregfix_invalidate_all), untraced kernel: 11 calls, 3 copies "
            "turned stale; most from cg.cu:12 (6), cg.cu:40 (3), util.cu:7 (1)\n"
            "irregfix:   every copy (irregfix_invalidate_all), unnamed copy: 1 call, 5 copies turned "
            "stale; most from irregfix_invalidate_symbol (no address found) (1)\n");
}

TEST(InvalidationReport, OnlyTheKindsThatHappened) {
  InvalidationStats s;
  s.note_all(IRREGFIX_CAUSE_LAUNCH_API, "main.cu:5", 0);
  const std::string r = format_invalidations(s);
  EXPECT_EQ(r.find("by name"), std::string::npos);
  EXPECT_EQ(r.find("by __device__"), std::string::npos);
  EXPECT_NE(r.find("launch API: 1 call, 0 copies turned stale; most from main.cu:5 (1)\n"), std::string::npos)
      << r;
}

TEST(VerifyConfig, FromEnvironment) {
  unsetenv("IRREGFIX_VERIFY");
  EXPECT_FALSE(config_from_env().verify);
  setenv("IRREGFIX_VERIFY", "1", 1);
  EXPECT_TRUE(config_from_env().verify);
  setenv("IRREGFIX_VERIFY", "on", 1);
  EXPECT_TRUE(config_from_env().verify);
  setenv("IRREGFIX_VERIFY", "0", 1);
  EXPECT_FALSE(config_from_env().verify);
  unsetenv("IRREGFIX_VERIFY");
}

TEST(VerifyNames, FromTheSiteListByPosition) {
  const char *list = "val,col, row_ptr ";
  EXPECT_EQ(source_name(list, 0), "val");
  EXPECT_EQ(source_name(list, 1), "col");
  EXPECT_EQ(source_name(list, 2), "row_ptr");
  EXPECT_EQ(source_name(list, 3), "#3"); // shorter list
  EXPECT_EQ(source_name(nullptr, 1), "#1");
  EXPECT_EQ(source_name("a,,c", 1), "#1"); // an empty name
  EXPECT_EQ(source_name("a", -1), "#-1");
}

TEST(VerifyNames, FirstChangedSource) {
  EXPECT_EQ(first_changed({1, 2, 3}, {1, 2, 3}), -1);
  EXPECT_EQ(first_changed({1, 2, 3}, {1, 9, 9}), 1);
  EXPECT_EQ(first_changed({1, 2}, {1, 2, 3}), 2);
  EXPECT_EQ(first_changed({}, {}), -1);
}

TEST(VerifyNames, Message) {
  EXPECT_EQ(stale_copy_message("spmv.cu:40:12", "spmv", "x", 3, 7),
            "irregfix: IRREGFIX_VERIFY: stale copy at spmv.cu:40:12 (kernel 'spmv'): source 'x' changed "
            "since launch 3 built the copy; this is launch 7");
  EXPECT_EQ(stale_copy_message(nullptr, nullptr, "#0", 1, 2),
            "irregfix: IRREGFIX_VERIFY: stale copy at ? (kernel '?'): source '#0' changed since launch 1 "
            "built the copy; this is launch 2");
}

TEST(VerifyNames, SiteReportCountsTheCheckedHits) {
  OneSite one;
  EXPECT_EQ(one.report().find("IRREGFIX_VERIFY"), std::string::npos);
  one.s.verified = 5;
  EXPECT_NE(one.report().find("irregfix:   IRREGFIX_VERIFY: 5 cache hits checked, none stale\n"),
            std::string::npos)
      << one.report();
}
