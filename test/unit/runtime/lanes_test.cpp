// The lanes layout (warp-cooperative rows) on the host: its row in the layout
// table and IRREGFIX_LAYOUT / IRREGFIX_LANES, when a launch may run it, the
// lanes a row, the range model that predicts before the selector probes
// (range_model.h), the candidates a range build proposes, the entry's view,
// the selector ruled out by the model, and the statistics' lines. Needs no GPU.
#include "config.h"
#include "lanes_payload.h"
#include "launch_shape.h"
#include "layout_policy.h"
#include "range_model.h"
#include "selector.h"
#include "stats.h"

#include <gtest/gtest.h>

#include <memory>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

const SiteInfo kLanes{"l.cu:1:1", "k", "range", kSitePermutable | kSiteChunkable | kSiteLanes};
const SiteInfo kNoLanes{"l.cu:2:1", "k", "range", kSitePermutable | kSiteChunkable};
const SiteInfo kInOrder{"l.cu:3:1", "k", "range", kSitePermutable | kSiteChunkable | kSiteLanes | kSiteLanesInOrder};

// An H100's resident threads: 132 multiprocessors of 2048.
constexpr long long kH100Threads = 132LL * 2048;

// The motivating matrix: 10,240 rows of about 1,640 floats (val and col read: 8 bytes an element).
RangeShape long_rows() {
  RangeShape s;
  s.rows = 10240;
  s.nnz = 10240ULL * 1640;
  s.element_bytes = 8;
  s.resident_threads = kH100Threads;
  return s;
}

// A request of a range site under auto in a profiled launch of `rows` threads.
LayoutRequest auto_request(const SiteInfo &site, long long rows) {
  Config cfg;
  LaunchShape l = launch(static_cast<unsigned>((rows + 255) / 256), 256);
  l.profiling = true;
  LayoutRequest r = layout_request(cfg, kPatternRange, site, l, rows);
  r.element_bytes = 8;
  r.resident_threads = kH100Threads;
  return r;
}

} // namespace

TEST(LanesLayout, HasItsRowAndItsSpellings) {
  ASSERT_NE(layout_row(kLayoutLanes), nullptr);
  EXPECT_STREQ(layout_name(kLayoutLanes), "lanes");
  EXPECT_TRUE(layout_has(kLayoutLanes, kViewLanes));
  EXPECT_FALSE(layout_has(kLayoutLanes, kViewSlices));
  EXPECT_FALSE(layout_row(kLayoutLanes)->permuted);
  int layout = 0;
  ASSERT_TRUE(parse_layout("LANES", &layout));
  EXPECT_EQ(layout, kLayoutLanes);
  ASSERT_TRUE(parse_layout("warp-rows", &layout));
  EXPECT_EQ(layout, kLayoutLanes);
}

TEST(LanesLayout, IrregfixLanesTakesAPowerOfTwoFromTwoToThirtyTwo) {
  EXPECT_EQ(parse_lanes(nullptr), 0);
  EXPECT_EQ(parse_lanes(""), 0);
  EXPECT_EQ(parse_lanes("auto"), 0);
  for (int l : {2, 4, 8, 16, 32})
    EXPECT_EQ(parse_lanes(std::to_string(l).c_str()), l);
  for (const char *bad : {"1", "3", "64", "0", "x", "8x"})
    EXPECT_EQ(parse_lanes(bad), -1) << bad;
}

TEST(LanesLayout, OnlyOneDimensionalLaunchesOfKernelsWithTheVariant) {
  EXPECT_TRUE(may_run_lanes(kLanes, launch(40, 256)));
  EXPECT_FALSE(may_run_lanes(kNoLanes, launch(40, 256)));
  EXPECT_FALSE(may_run_lanes(kLanes, LaunchShape{})); // no launcher
  EXPECT_FALSE(may_run_lanes(kLanes, launch(0, 0)));  // configuration unknown
  LaunchShape two_d = launch(40, 256);
  two_d.grid.y = 2;
  EXPECT_FALSE(may_run_lanes(kLanes, two_d));
  EXPECT_TRUE(may_run_lanes(kLanes, launch(8388607, 256)));
  EXPECT_FALSE(may_run_lanes(kLanes, launch(8388608, 256))); // 2^31 threads: the variant's grid would overflow
  const SiteInfo hoisted{"l.cu:3:1", "k", "range", kSiteLanes | kSiteHoisted};
  EXPECT_FALSE(may_run_lanes(hoisted, launch(40, 256)));
}

TEST(LanesLayout, ForcedLanesAsksForItWhereTheLaunchMayRunItElseAuto) {
  Config cfg;
  cfg.layout = kLayoutLanes;
  EXPECT_EQ(layout_request(cfg, kPatternRange, kLanes, launch(40, 256), 10000).key, kLayoutLanes);
  EXPECT_EQ(layout_request(cfg, kPatternRange, kNoLanes, launch(40, 256), 10000).key, kLayoutKeyAuto);
  EXPECT_EQ(layout_request(cfg, kPatternRange, kLanes, LaunchShape{}, 10000).key, kLayoutKeyAuto);
  // The selector's wish under auto.
  cfg.layout = 0;
  EXPECT_EQ(layout_request(cfg, kPatternRange, kLanes, launch(40, 256, kLayoutLanes), 10000).key, kLayoutLanes);
  // Other patterns never run lanes.
  EXPECT_FALSE(layout_request(cfg, kPatternGather, kLanes, launch(40, 256), 10000).may_lanes);
}

TEST(LanesLayout, ALanesEntryServesOnlyLaunchesThatMayRunTheVariant) {
  Entry e;
  e.layout = kLayoutLanes;
  LayoutRequest r;
  r.may_lanes = true;
  EXPECT_TRUE(serves_request(e, r));
  r.may_lanes = false;
  r.may_permute = true;
  EXPECT_FALSE(serves_request(e, r));
  EXPECT_NE(std::string(unserved_because(e)).find("lanes"), std::string::npos);
}

TEST(LanesLayout, EachLaneHasEightElementsOfAnAverageRow) {
  EXPECT_EQ(choose_lanes(0, 0), 2);
  EXPECT_EQ(choose_lanes(3, 0), 2);
  EXPECT_EQ(choose_lanes(16.2, 0), 2); // the offshore matrix
  EXPECT_EQ(choose_lanes(31.9, 0), 2);
  EXPECT_EQ(choose_lanes(32, 0), 4);
  EXPECT_EQ(choose_lanes(64, 0), 8);
  EXPECT_EQ(choose_lanes(127.9, 0), 8);
  EXPECT_EQ(choose_lanes(128, 0), 16);
  EXPECT_EQ(choose_lanes(255, 0), 16);
  EXPECT_EQ(choose_lanes(256, 0), 32);
  EXPECT_EQ(choose_lanes(1640, 0), 32);
  EXPECT_EQ(choose_lanes(1640, 4), 4);  // IRREGFIX_LANES wins
  EXPECT_EQ(choose_lanes(40, 32), 32);
}

TEST(LanesLayout, TheViewCarriesTheLanesAndTheArraysInPlace) {
  Entry e;
  e.key.n = 10;
  int a = 0, b = 0;
  e.key.sources = {&a, &b};
  e.layout = kLayoutLanes;
  auto p = std::make_unique<LanesPayload>();
  p->lanes = 16;
  e.payload = std::move(p);
  View v{};
  const void *out[2] = {};
  fill_view(e, &v, out);
  EXPECT_EQ(v.layout, kLayoutLanes);
  EXPECT_EQ(v.lanes, 16);
  EXPECT_TRUE(runs_lanes(v));
  EXPECT_EQ(out[0], &a);
  EXPECT_EQ(out[1], &b);
  // Any other layout's view says no lanes.
  Entry ell;
  ell.layout = kLayoutEllColMajor;
  ell.bufs = {&a};
  View w{};
  w.lanes = 7;
  fill_view(ell, &w, out);
  EXPECT_EQ(w.lanes, 0);
  EXPECT_FALSE(runs_lanes(w));
}

TEST(LanesLayout, TheLaunchIsTheOriginalsThreadsTimesTheLanesInWholeWarps) {
  View v{};
  v.layout = kLayoutLanes;
  v.lanes = 32;
  const LanesLaunch l = lanes_launch(v, dim3(40), dim3(256));
  EXPECT_EQ(l.lanes.lanes, 32);
  EXPECT_EQ(l.lanes.shift, 5);
  EXPECT_EQ(l.lanes.threads, 40 * 256);
  for (int lanes : {2, 4, 8, 16}) { // a thread's row is g >> shift
    v.lanes = lanes;
    EXPECT_EQ(1 << lanes_launch(v, dim3(40), dim3(256)).lanes.shift, lanes);
  }
  v.lanes = 32;
  EXPECT_EQ(l.block.x, 256u);
  EXPECT_EQ(l.grid.x, 40u * 32u);
  EXPECT_EQ(lanes_rows(l, 10000), 10000);
  EXPECT_EQ(lanes_rows(l, 20000), 40 * 256);
  // A block that is no multiple of 32 would split a row's lanes between warps.
  const LanesLaunch odd = lanes_launch(v, dim3(7), dim3(100));
  EXPECT_EQ(odd.block.x, 256u);
  EXPECT_EQ(odd.lanes.threads, 700);
  EXPECT_EQ(static_cast<long long>(odd.grid.x) * odd.block.x >= 700LL * 32, true);
}

// The case the model is for: the scalar kernel runs 325 us, its ELL copy 914
// us, a warp a row 76 us (H100). The model must expect the copy to lose by
// more than 1.5x and the lanes to win.
TEST(RangeModel, PredictsTheCopyLosesAndTheLanesWinOnFewLongRows) {
  const RangeShape s = long_rows();
  ASSERT_TRUE(model_applies(s));
  EXPECT_NEAR(original_ns(s) * 1e-3, 325, 30);
  EXPECT_NEAR(padded_ns(s, s.nnz) * 1e-3, 914, 60);
  EXPECT_GT(padded_ns(s, s.nnz), kExpectedLoss * original_ns(s));
  EXPECT_TRUE(padding_expected_to_lose(s));
  EXPECT_LT(lanes_ns(s, 32), original_ns(s) / 3); // the target: 3x
  EXPECT_FALSE(expected_to_lose(s, lanes_ns(s, 32)));
}

// The in-order variant (every lane runs the row's loop): on few long rows the
// model's times follow the H100's (8 lanes 183 us, 16 188, 32 285 against the
// original's 264), it takes 8 lanes and is proposed; on rows of 16
// (offshore) the model does not apply and it is not.
TEST(RangeModel, ProposesTheInOrderLanesOnLongRowsOnly) {
  const RangeShape s = long_rows();
  EXPECT_NEAR(lanes_in_order_ns(s, 8) * 1e-3, 183, 35);
  EXPECT_NEAR(lanes_in_order_ns(s, 16) * 1e-3, 188, 35);
  EXPECT_NEAR(lanes_in_order_ns(s, 32) * 1e-3, 285, 65); // the model adds steps it overlaps: above
  EXPECT_EQ(in_order_lanes(s), 8);
  LayoutRequest r = auto_request(kInOrder, 10240);
  EXPECT_TRUE(r.lanes_in_order);
  EXPECT_EQ(request_lanes(r, s), 8);
  EXPECT_TRUE(proposes_lanes(r, s));
  const RangePrecheck p = range_precheck(r, 10240, s.nnz);
  EXPECT_FALSE(p.padded);
  EXPECT_TRUE(p.lanes);
  r.lanes = 16; // IRREGFIX_LANES
  EXPECT_EQ(request_lanes(r, s), 16);
  const LayoutRequest offshore = auto_request(kInOrder, 2078312);
  EXPECT_FALSE(range_precheck(offshore, 2078312, 2078312ULL * 16).lanes);
  EXPECT_TRUE(range_precheck(auto_request(kLanes, 2078312), 2078312, 2078312ULL * 16).lanes);
}

// Many threads: the launch is bound by its traffic, and a copy without
// padding moves what the original moves: nothing is pruned.
TEST(RangeModel, LeavesCopiesToTheSelectorWhereTheTrafficBounds) {
  RangeShape s;
  s.rows = 1000000;
  s.nnz = 1000000ULL * 200;
  s.element_bytes = 8;
  s.resident_threads = kH100Threads;
  ASSERT_TRUE(model_applies(s));
  EXPECT_FALSE(padding_expected_to_lose(s));
  EXPECT_NEAR(padded_ns(s, s.nnz) / original_ns(s), 1.0, 0.05);
  // Three times the cells: expected to lose.
  EXPECT_TRUE(expected_to_lose(s, padded_ns(s, 3 * s.nnz)));
}

// Rows shorter than kModelMinMeanRow on average: the steps were not measured
// there, and the model prunes nothing (the selector's tests of copies on
// rows of 4 to 64 keep their candidates).
TEST(RangeModel, PrunesNothingOnShortRows) {
  for (long long rows : {5000LL, 65536LL, 1LL << 20})
    for (unsigned long long mean : {4ULL, 16ULL, 64ULL}) {
      RangeShape s;
      s.rows = rows;
      s.nnz = rows * mean;
      s.resident_threads = kH100Threads;
      EXPECT_FALSE(model_applies(s));
      EXPECT_FALSE(padding_expected_to_lose(s)) << rows << " rows of " << mean;
      EXPECT_FALSE(expected_to_lose(s, padded_ns(s, 10 * s.nnz)));
    }
}

TEST(RangeModel, MoreWavesLengthenTheBulksChain) {
  RangeShape one = long_rows();
  RangeShape four = one;
  four.resident_threads = one.rows / 4;
  EXPECT_NEAR(original_ns(four) / original_ns(one), 4.0, 0.01);
  // Without the device's size: one wave.
  RangeShape unknown = one;
  unknown.resident_threads = 0;
  EXPECT_DOUBLE_EQ(original_ns(unknown), original_ns(one));
}

TEST(RangePrecheck, FewLongRowsProposeTheLanesAloneAndCopyNothing) {
  const LayoutRequest r = auto_request(kLanes, 10240);
  const RangePrecheck p = range_precheck(r, 10240, 10240ULL * 1640);
  EXPECT_FALSE(p.padded);
  EXPECT_TRUE(p.lanes);
  EXPECT_TRUE(p.why.empty());
}

TEST(RangePrecheck, WithoutTheVariantTheOriginalRunsAndSaysWhy) {
  const LayoutRequest r = auto_request(kNoLanes, 10240);
  const RangePrecheck p = range_precheck(r, 10240, 10240ULL * 1640);
  EXPECT_FALSE(p.padded);
  EXPECT_FALSE(p.lanes);
  EXPECT_NE(p.why.find("cost model"), std::string::npos) << p.why;
  EXPECT_NE(p.why.find("no lanes variant"), std::string::npos) << p.why;
}

TEST(RangePrecheck, ShortRowsKeepThePaddedLayoutsAndProposeLanesFromEight) {
  const LayoutRequest r = auto_request(kLanes, 100000);
  EXPECT_TRUE(range_precheck(r, 100000, 100000ULL * 4).padded);
  EXPECT_FALSE(range_precheck(r, 100000, 100000ULL * 4).lanes); // rows of 4: not worth lanes
  EXPECT_TRUE(range_precheck(r, 100000, 100000ULL * 8).lanes);
  EXPECT_FALSE(range_precheck(auto_request(kNoLanes, 100000), 100000, 100000ULL * 8).lanes);
}

// Probing's budget: a copy of 320 MB (8M rows of 5 elements of 8 bytes) is
// expected to cost 4 ms, which 50 ms of launches do not pay for at 2%; 200 ms do.
TEST(RangePrecheck, PutsOffACopyTheLaunchesSoFarDoNotPayFor) {
  LayoutRequest r = auto_request(kNoLanes, 8000000);
  r.element_bytes = 8;
  const unsigned long long nnz = 40000000ULL;
  EXPECT_NEAR(expected_probe_ms(nnz * 8), 4.0, 1e-9);
  r.launched_ms = 50;
  const RangePrecheck early = range_precheck(r, 8000000, nnz);
  EXPECT_TRUE(early.padded);
  EXPECT_NEAR(early.put_off_ms, 200.0, 1e-9);
  EXPECT_NE(early.why.find("probing put off"), std::string::npos) << early.why;
  r.launched_ms = 200;
  const RangePrecheck later = range_precheck(r, 8000000, nnz);
  EXPECT_EQ(later.put_off_ms, 0);
  EXPECT_TRUE(later.why.empty());
  r.launched_ms = -1; // no warm-up (IRREGFIX_PROFILE_AFTER_MS=0): nothing budgets probing
  EXPECT_EQ(range_precheck(r, 8000000, nnz).put_off_ms, 0);
}

TEST(RangeLayout, ProposesTheLanesAfterThePaddedCandidates) {
  LayoutRequest r = auto_request(kLanes, 100000);
  LayoutCells c;
  c.rows = 100000;
  c.nnz = 100000ULL * 20;
  c.ell = 100000ULL * 24; // rows of 16 to 24
  c.sell = 100000ULL * 23;
  int proposed[kMaxLayoutCandidates] = {};
  int count = 0;
  EXPECT_EQ(range_layout(r, c, proposed, &count), kLayoutSell32);
  ASSERT_EQ(count, 3);
  EXPECT_EQ(proposed[1], kLayoutEllColMajor);
  EXPECT_EQ(proposed[2], kLayoutLanes);
  // Without the variant: as before.
  r = auto_request(kNoLanes, 100000);
  range_layout(r, c, proposed, &count);
  EXPECT_EQ(count, 2);
}

TEST(SelectorRuledOut, RunsTheOriginalOnTheSettledPathAndSaysWhy) {
  Selector s;
  s.rule_out("the cost model expects a copy to lose");
  EXPECT_FALSE(s.profiling());
  EXPECT_TRUE(s.ruled_out());
  for (int i = 0; i < 200; ++i) {
    const Selector::Decision d = s.decide(false, false);
    EXPECT_EQ(d.run, Selector::kRunOriginal);
    EXPECT_FALSE(d.timed);
  }
  EXPECT_TRUE(s.runs_original());
  EXPECT_GT(s.untimed_launches(), 0);
  EXPECT_EQ(s.summary(layout_name), "original: the cost model expects a copy to lose");
}

TEST(LanesStats, TheReportNamesTheLanesAndVerifysMeasure) {
  std::map<std::string, SiteStats> stats;
  SiteStats &s = stats["l.cu:1:1"];
  s.id = "l.cu:1:1";
  s.kernel = "spmv";
  s.pattern = "range";
  s.layout = kLayoutLanes;
  s.lanes = 32;
  s.lanes_mean = 1640;
  s.lanes_compared = 12;
  s.lanes_reassociates = true;
  s.lanes_max_relative = 2.5e-7;
  const std::string report = format_stats(stats);
  EXPECT_NE(report.find("layout lanes"), std::string::npos) << report;
  EXPECT_NE(report.find("lanes: 32 a row (rows of 1640.0 elements on average)"), std::string::npos) << report;
  EXPECT_NE(report.find("over 12 launches: largest relative difference 2.5e-07"), std::string::npos) << report;
  s.lanes_reassociates = false;
  EXPECT_NE(format_stats(stats).find("over 12 launches: bit for bit"), std::string::npos);
  s.lanes_differing = 3;
  EXPECT_NE(format_stats(stats).find("3 elements differed"), std::string::npos);
}
