// The layout policy (runtime/src/policy/layout_policy.h): what a launch allows, the
// request of a prepare, the layout a range build makes, the candidates it
// proposes; the pattern table (irregfix/pattern.h); every variable in the
// configuration (config.h). Needs no GPU.
#include "config.h"
#include "launch_shape.h"
#include "layout_policy.h"

#include <irregfix/pattern.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

const SiteInfo kPlain{"p.cu:1:1", "k", "range"};
const SiteInfo kPermutable{"p.cu:2:1", "k", "range", kSitePermutable | kSiteChunkable};
const SiteInfo kShareable{"p.cu:3:1", "k", "neighbors", kSiteShareable | kSiteChunkable};

} // namespace

TEST(PatternTable, NamesAndNumbersRoundTrip) {
  for (const PatternName &p : kPatternNames) {
    Pattern back = kPatternRange;
    ASSERT_TRUE(pattern_from_name(p.name, &back)) << p.name;
    EXPECT_EQ(back, p.pattern);
    EXPECT_STREQ(pattern_name(p.pattern), p.name);
  }
  EXPECT_STREQ(pattern_name(kPatternRange2), "range2");
  EXPECT_STREQ(pattern_name(42), "unknown");
  Pattern out = kPatternGather;
  EXPECT_FALSE(pattern_from_name("rang", &out));
  EXPECT_FALSE(pattern_from_name("ranges", &out));
  EXPECT_FALSE(pattern_from_name(nullptr, &out));
  EXPECT_EQ(out, kPatternGather);
}

TEST(LayoutPolicy, PermutingNeedsAPermutableKernelAndAThreadForEveryRow) {
  EXPECT_FALSE(may_permute(kPlain, launch(4, 256), 1000));
  EXPECT_TRUE(may_permute(kPermutable, launch(4, 256), 1000));
  EXPECT_FALSE(may_permute(kPermutable, launch(3, 256), 1000)); // 768 threads for 1000 rows
  EXPECT_TRUE(may_permute(kPermutable, LaunchShape{}, 1000));   // no launcher: assumed
  EXPECT_TRUE(may_permute(kPermutable, launch(0, 0), 1000));    // configuration unknown
}

TEST(LayoutPolicy, SharingNeedsAShareableOneDimensionalLaunchWithoutDynamicSharedMemory) {
  EXPECT_EQ(shareable_block(kShareable, launch(8, 128)), 128u);
  EXPECT_EQ(shareable_block(kPlain, launch(8, 128)), 0u);
  EXPECT_EQ(shareable_block(kShareable, LaunchShape{}), 0u);
  LaunchShape two_d = launch(8, 128);
  two_d.block.y = 2;
  EXPECT_EQ(shareable_block(kShareable, two_d), 0u);
  LaunchShape own = launch(8, 128);
  own.shmem = 64;
  EXPECT_EQ(shareable_block(kShareable, own), 0u);
  const SiteInfo hoisted{"p.cu:4:1", "k", "neighbors", kSiteShareable | kSiteHoisted};
  EXPECT_EQ(shareable_block(hoisted, launch(8, 128)), 0u);
}

// Sharing groups a permutable kernel's threads in the locality order (its
// blocks then read the same elements), unless IRREGFIX_SHARING_ORDER=0 or the
// launch may not permute.
TEST(LayoutPolicy, SharingOfAPermutableLaunchIsInTheLocalityOrder) {
  const SiteInfo both{"p.cu:5:1", "k", "neighbors", kSiteShareable | kSitePermutable};
  Config cfg;
  cfg.layout = kLayoutSharing;
  LayoutRequest r = layout_request(cfg, kPatternNeighbors, both, launch(8, 128), 1000);
  EXPECT_EQ(r.key, kLayoutSharing);
  EXPECT_TRUE(r.share_in_order);
  EXPECT_FALSE(layout_request(cfg, kPatternNeighbors, kShareable, launch(8, 128), 1000).share_in_order);
  EXPECT_FALSE(layout_request(cfg, kPatternNeighbors, both, launch(7, 128), 1000).share_in_order); // 896 threads
  cfg.sharing_order = false;
  EXPECT_FALSE(layout_request(cfg, kPatternNeighbors, both, launch(8, 128), 1000).share_in_order);
  cfg.sharing_order = true;
  cfg.layout = kLayoutEllColMajor;
  EXPECT_FALSE(layout_request(cfg, kPatternNeighbors, both, launch(8, 128), 1000).share_in_order);
}

TEST(LayoutPolicy, RequestFollowsTheConfigurationThenTheLaunchsWish) {
  Config cfg;
  // Auto, no wish: a range site's favourite is its build's to choose.
  LayoutRequest r = layout_request(cfg, kPatternRange, kPermutable, launch(4, 256), 1000);
  EXPECT_EQ(r.key, kLayoutKeyAuto);
  EXPECT_TRUE(r.report_padding);
  EXPECT_TRUE(r.may_permute);
  // The selector's candidate.
  r = layout_request(cfg, kPatternRange, kPermutable, launch(4, 256, kLayoutSell32), 1000);
  EXPECT_EQ(r.key, kLayoutSell32);
  EXPECT_FALSE(r.report_padding); // a candidate's build leaves the survey's padding
  // SELL-32-sigma on a launch that may not permute means SELL-32.
  r = layout_request(cfg, kPatternRange, kPermutable, launch(3, 256, kLayoutSell32Sigma), 1000);
  EXPECT_EQ(r.key, kLayoutSell32);
  // Forced layouts win over the wish; forced sharing leaves range sites to auto.
  cfg.layout = kLayoutEllColMajor;
  r = layout_request(cfg, kPatternRange, kPermutable, launch(4, 256, kLayoutSell32), 1000);
  EXPECT_EQ(r.key, kLayoutEllColMajor);
  EXPECT_TRUE(r.report_padding);
  cfg.layout = kLayoutSharing;
  EXPECT_EQ(layout_request(cfg, kPatternRange, kPlain, launch(4, 256), 1000).key, kLayoutKeyAuto);
  EXPECT_EQ(layout_request(cfg, kPatternNeighbors, kShareable, launch(4, 256), 1000).key, kLayoutSharing);
  EXPECT_EQ(layout_request(cfg, kPatternNeighbors, kShareable, LaunchShape{}, 1000).key,
            kLayoutEllColMajor); // no launch: no block size to share by
  // Gathers and two-level ranges have one layout.
  cfg.layout = kLayoutSell32;
  EXPECT_EQ(layout_request(cfg, kPatternGather, kPlain, launch(4, 256), 1000).key, kLayoutEllColMajor);
  EXPECT_EQ(layout_request(cfg, kPatternRange2, kPlain, launch(4, 256), 1000).key, kLayoutEllColMajor);
}

// The tool reads a gather's copy at gather_slot(v, t), which is t: that holds
// only while every gather copy is ELL one element wide, whatever is forced or wished.
TEST(LayoutPolicy, AGathersCopyIsEllOneWideSoItsSlotIsTheThread) {
  Config cfg;
  for (int forced = 0; forced <= kLayoutLanes; ++forced)
    for (int wish = 0; wish <= kLayoutLanes; ++wish)
      for (int pattern : {kPatternGather, kPatternGather2})
        for (bool pieces : {false, true}) {
          cfg.layout = forced;
          EXPECT_EQ(layout_request(cfg, pattern, kPermutable, launch(4, 256, wish), 1000, pieces).key,
                    kLayoutEllColMajor)
              << "forced " << forced << ", wished " << wish << ", " << pattern_name(pattern);
        }
  Entry e;
  e.key.pattern = kPatternGather;
  e.key.n = 100;
  e.layout = kLayoutEllColMajor;
  e.max_len = 1; // keep_gather_shape
  long long zero = 0;
  e.zero_cell = &zero;
  View v{};
  const void *out[1] = {};
  fill_view(e, &v, out);
  for (long long t : {0LL, 1LL, 31LL, 32LL, 33LL, 99LL})
    EXPECT_EQ(slot(v, t, 0), gather_slot(v, t)) << "t=" << t;
}

TEST(LayoutPolicy, RangeBuildMakesTheRequestedLayoutOrAutosFavourite) {
  LayoutRequest forced;
  forced.key = kLayoutSell32;
  LayoutCells cells;
  cells.nnz = 1000;
  cells.ell = 2000;
  cells.sell = 1100;
  int proposed[kMaxLayoutCandidates];
  int count = -1;
  EXPECT_EQ(range_layout(forced, cells, proposed, &count), kLayoutSell32);
  EXPECT_EQ(count, 0);
  EXPECT_TRUE(range_counts_slices(forced));
  forced.key = kLayoutEllColMajor;
  EXPECT_FALSE(range_counts_slices(forced));

  LayoutRequest survey;
  survey.key = kLayoutKeyAuto;
  survey.may_permute = true;
  // ELL pads 2x, SELL-32 1.1x: SELL-32 is the favourite; no sort (it pads little).
  EXPECT_FALSE(range_sorts(survey, cells, 1000));
  EXPECT_EQ(range_layout(survey, cells, proposed, &count), kLayoutSell32);
  ASSERT_GE(count, 1);
  EXPECT_EQ(proposed[0], kLayoutSell32);
  // SELL-32 still pads much: a launch that may permute sorts.
  cells.sell = 1900;
  EXPECT_TRUE(range_sorts(survey, cells, 1000));
  survey.may_permute = false;
  EXPECT_FALSE(range_sorts(survey, cells, 1000));
  cells.sigma = 1050;
  survey.may_permute = true;
  EXPECT_EQ(range_layout(survey, cells, proposed, &count), kLayoutSell32Sigma);
  EXPECT_EQ(layout_cells(cells, kLayoutSell32Sigma), 1050u);
  LayoutRequest sigma;
  sigma.key = kLayoutSell32Sigma;
  EXPECT_TRUE(range_sorts(sigma, LayoutCells{}, 10));
}

TEST(LayoutPolicy, NeighbourSitesProposeSharingOnlyWhenAsked) {
  Config cfg;
  LayoutRequest r = layout_request(cfg, kPatternNeighbors, kShareable, launch(8, 128), 1024);
  int out[kMaxLayoutCandidates];
  EXPECT_EQ(neighbor_candidates(cfg, r, out), 0); // IRREGFIX_AUTO_SHARING unset
  cfg.auto_sharing = true;
  ASSERT_EQ(neighbor_candidates(cfg, r, out), 2);
  EXPECT_EQ(out[0], kLayoutEllColMajor);
  EXPECT_EQ(out[1], kLayoutSharing);
  r = layout_request(cfg, kPatternNeighbors, kShareable, launch(8, 128, kLayoutSharing), 1024);
  EXPECT_EQ(neighbor_candidates(cfg, r, out), 0); // the selector already runs a candidate
  r = layout_request(cfg, kPatternNeighbors, kShareable, LaunchShape{}, 1024);
  EXPECT_EQ(neighbor_candidates(cfg, r, out), 0); // no launch: nothing to share by
}

// A payload that offers every field a kernel could read: the layout's row
// decides which it does.
struct EveryField : Payload {
  PayloadView fields;
  void each_buffer(const BufferFn &) override {}
  PayloadView view() const override { return fields; }
};

TEST(LayoutPolicy, ViewOfAnEntryNamesOnlyItsLayoutsFields) {
  Entry e;
  e.key.n = 64;
  e.key.pattern = kPatternRange;
  e.layout = kLayoutEllColMajor;
  e.max_len = 7;
  int len = 0, perm = 0, local = 0;
  long long slices = 0, zero = 0;
  e.zero_cell = &zero;
  auto every = std::make_unique<EveryField>();
  every->fields.len = &len;
  every->fields.slice_start = &slices;
  every->fields.perm = &perm;
  every->fields.local = &local;
  e.payload = std::move(every);
  e.bufs = {&len};
  View v{};
  const void *out[1] = {};
  fill_view(e, &v, out);
  EXPECT_EQ(v.layout, kLayoutEllColMajor);
  EXPECT_EQ(v.width, 7);
  // ELL's block start: the zero cell, no slice, the width a block of 32.
  EXPECT_EQ(v.slice_start, &zero);
  EXPECT_EQ(v.slice_mask, 0);
  EXPECT_EQ(v.block_width, 7);
  EXPECT_EQ(v.perm, nullptr);
  EXPECT_EQ(v.local, nullptr);
  EXPECT_EQ(out[0], &len);
  e.layout = kLayoutSell32Sigma;
  fill_view(e, &v, out);
  EXPECT_EQ(v.slice_start, &slices);
  EXPECT_EQ(v.slice_mask, -1);
  EXPECT_EQ(v.block_width, 0);
  EXPECT_EQ(v.perm, &perm);
  EXPECT_EQ(v.local, nullptr);
  EXPECT_STREQ(layout_name(kLayoutSell32Sigma), "sell-32-sigma");
}

TEST(Config, EveryVariableIsReadInOnePlace) {
  setenv("IRREGFIX_HOIST_GROUP", "8", 1);
  setenv("IRREGFIX_HOIST_ALWAYS", "1", 1);
  setenv("IRREGFIX_NVTX", "1", 1);
  Config c = config_from_env();
  EXPECT_EQ(c.hoist_group, 8);
  EXPECT_TRUE(c.hoist_always);
  EXPECT_TRUE(c.nvtx);
  setenv("IRREGFIX_HOIST_GROUP", "zero", 1); // warns, the default
  setenv("IRREGFIX_HOIST_ALWAYS", "maybe", 1);
  unsetenv("IRREGFIX_NVTX");
  c = config_from_env();
  EXPECT_EQ(c.hoist_group, 0);
  EXPECT_FALSE(c.hoist_always);
  EXPECT_FALSE(c.nvtx);
  unsetenv("IRREGFIX_HOIST_GROUP");
  unsetenv("IRREGFIX_HOIST_ALWAYS");
}

// A reduction read through the order gathers its elements: renumbered arrays
// only while what it gathers fits three quarters of the L2 (CG's two vectors
// of 16.8 MB on a 60 MB L2 do, of 32 MB do not); an unknown L2 takes none.
TEST(LayoutPolicy, ReadingThroughTheOrderNeedsTheElementsInTheL2) {
  const long long l2 = 60LL << 20;
  EXPECT_TRUE(positions_fit_cache(2 * 16800000ULL, l2));
  EXPECT_FALSE(positions_fit_cache(2 * 32000000ULL, l2));
  EXPECT_TRUE(positions_fit_cache(static_cast<unsigned long long>(0.75 * l2), l2));
  EXPECT_FALSE(positions_fit_cache(static_cast<unsigned long long>(0.75 * l2) + 1, l2));
  EXPECT_FALSE(positions_fit_cache(1024, 0));
}
