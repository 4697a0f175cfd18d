// The locality layout's host logic: the order (its host model,
// order_reference.h) is a permutation that brings a block's reads together;
// when the policy proposes it, asks for it and keeps it; the view a kernel
// reads it through; and the selector's side of it: each candidate's own
// reuse, the settled launcher's fast path, the bound on profiling. No GPU.
#include "config.h"
#include "launch_shape.h"
#include "layout_policy.h"
#include "locality_payload.h"
#include "order_reference.h"
#include "selector.h"

#include <irregfix/pattern.h>

#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <memory>
#include <vector>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

const SiteInfo kRange{"l.cu:1:1", "k", "range", kSitePermutable | kSiteChunkable};
const SiteInfo kRangeInOrder{"l.cu:2:1", "k", "range", kSiteChunkable};
const SiteInfo kNeighbors{"l.cu:3:1", "k", "neighbors", kSitePermutable | kSiteChunkable | kSiteShareable};
const SiteInfo kNeighborsInOrder{"l.cu:4:1", "k", "neighbors", kSiteChunkable};

} // namespace

TEST(LocalityOrder, IsAPermutationThatBringsABlocksReadsTogether) {
  // A 256 x 256 grid renumbered at random: the threads of a block, as
  // numbered, read elements far apart; in the locality order, a region's.
  const order_reference::Graph shuffled = order_reference::grid(256, 7);
  const std::vector<int> perm = order_reference::order(shuffled, 128);
  ASSERT_TRUE(order_reference::is_permutation(perm));
  const double before = order_reference::sampled_sectors(shuffled, {}, 8, 0, shuffled.n);
  const double after = order_reference::sampled_sectors(shuffled, perm, 8, 0, shuffled.n);
  EXPECT_GT(before, 0.7) << before;
  EXPECT_LT(after, before / 2) << before << " -> " << after;
  EXPECT_TRUE(locality_pays(before));
  // Numbered row by row, the grid needs no order.
  const order_reference::Graph rows = order_reference::grid(256, 0);
  EXPECT_LT(order_reference::sampled_sectors(rows, {}, 8, 0, rows.n), kOrderWorthSectors);
  EXPECT_FALSE(locality_pays(order_reference::sampled_sectors(rows, {}, 8, 0, rows.n)));
  // ... and no copy: its gather is as good as a copy's.
  EXPECT_FALSE(neighbor_copy_pays(order_reference::sampled_sectors(rows, {}, 8, 0, rows.n)));
  EXPECT_TRUE(neighbor_copy_pays(before));
  EXPECT_TRUE(order_reference::is_permutation(order_reference::order(rows, 128)));
}

TEST(LocalityOrder, ThreadsNoSeedReachesAndSentinelsStillGetAPlace) {
  // Thread 5 reads nothing, thread 6 only sentinels and an element past n.
  order_reference::Graph g;
  for (int t = 0; t < 5; ++t)
    g.add({t, (t + 1) % 5});
  g.add({});
  g.add({-1, 100});
  const std::vector<int> perm = order_reference::order(g, 32);
  ASSERT_TRUE(order_reference::is_permutation(perm));
  EXPECT_EQ(perm[0], 0); // the seed first, then what reaches it
  EXPECT_EQ(perm[5], 5);  // unreached, by least element read: none
  EXPECT_EQ(perm[6], 6);
  EXPECT_FALSE(order_reference::is_permutation({0, 0, 1}));
  EXPECT_FALSE(order_reference::is_permutation({0, 3, 1}));
}

TEST(LocalityOrder, RegionsGrowSoTheirCountFitsTheSortKey) {
  EXPECT_EQ(order_region(1000, 128), 128);
  EXPECT_EQ(order_region(1000, 8), 32);
  EXPECT_EQ(order_region(INT_MAX, 32), 256); // 2^31 / 2^24 regions would not fit 24 bits at 128
  EXPECT_LT((static_cast<long long>(INT_MAX) + order_region(INT_MAX, 32) - 1) / order_region(INT_MAX, 32),
            (1LL << kOrderSeedBits) - 1);
}

TEST(LocalityOrder, KeptUntilItDecays) {
  EXPECT_FALSE(order_decayed(0.10, 0.10));
  EXPECT_FALSE(order_decayed(0.10, 0.14)); // within a quarter and the slack
  EXPECT_TRUE(order_decayed(0.10, 0.15));
  EXPECT_FALSE(order_decayed(0.0, 0.02));
  EXPECT_TRUE(order_decayed(0.0, 0.03));
}

// The changes (1-based) of the lists at which an order steady at every check is measured.
std::vector<long long> measured_changes(OrderChecks &c, int changes, double fresh, double now) {
  std::vector<long long> at;
  for (int i = 0; i < changes; ++i)
    if (c.due()) {
      at.push_back(c.changes);
      c.checked(fresh, now);
    }
  return at;
}

TEST(LocalityOrder, ASteadyOrderIsCheckedAtEverLongerIntervals) {
  OrderChecks c;
  EXPECT_EQ(measured_changes(c, 80, 0.10, 0.105), (std::vector<long long>{1, 3, 7, 15, 31, 47, 63, 79}));
  EXPECT_EQ(c.changes, 80);
  EXPECT_EQ(c.checks, 8);
}

TEST(LocalityOrder, ADriftingOrderIsCheckedAsSoonAsItsPaceCouldReachTheBar) {
  OrderChecks c;
  EXPECT_EQ(measured_changes(c, 7, 0.10, 0.105).size(), 3u); // 1, 3, 7: steady
  // More than a tenth worse than fresh, by 0.015 over the 8 changes since 7: the
  // bar (0.10 * 1.25 + 0.02 = 0.145) is 13 changes away at that pace, so the
  // next check comes 6 changes later; no worse there, and the interval doubles.
  EXPECT_EQ(measured_changes(c, 20, 0.10, 0.12), (std::vector<long long>{15, 21}));
  // Worse by 0.02 over the next 12 changes: 3 changes from the bar at that
  // pace, so checked at the next change, then at doubling intervals while no worse.
  EXPECT_EQ(measured_changes(c, 14, 0.10, 0.14), (std::vector<long long>{33, 34, 36, 40}));
  // A new order starts over.
  c.restart();
  EXPECT_TRUE(c.due());
}

TEST(LocalityOrder, AnOrderDriftingSlowlyFarFromTheBarIsCheckedRarely) {
  // MD's shape: fresh 0.067, a drift of about a thousandth of a sector a read
  // every ten rebuilds; the bar at 0.104.
  OrderChecks c;
  double now = 0.067;
  int checks = 0;
  for (int change = 1; change <= 200; ++change) {
    now = 0.067 + 0.0001 * change;
    if (c.due()) {
      ++checks;
      c.checked(0.067, now);
    }
  }
  EXPECT_LE(checks, 20);
  EXPECT_GE(checks, 12); // at most every kOrderCheckMaxInterval changes
}

TEST(LocalityPolicy, ForcedLocalityNeedsAPermutableLaunch) {
  Config cfg;
  cfg.layout = kLayoutLocality;
  EXPECT_EQ(layout_request(cfg, kPatternRange, kRange, launch(4, 256), 1000).key, kLayoutLocality);
  // Not permutable, or too few threads: the range site's own choice.
  EXPECT_EQ(layout_request(cfg, kPatternRange, kRangeInOrder, launch(4, 256), 1000).key, kLayoutKeyAuto);
  EXPECT_EQ(layout_request(cfg, kPatternRange, kRange, launch(3, 256), 1000).key, kLayoutKeyAuto);
  EXPECT_EQ(layout_request(cfg, kPatternNeighbors, kNeighbors, launch(4, 256), 1000).key, kLayoutLocality);
  EXPECT_EQ(layout_request(cfg, kPatternNeighbors, kNeighborsInOrder, launch(4, 256), 1000).key,
            kLayoutEllColMajor);
  EXPECT_EQ(layout_request(cfg, kPatternGather, kRange, launch(4, 256), 1000).key, kLayoutEllColMajor);
  EXPECT_EQ(layout_request(cfg, kPatternIndexed, kRange, launch(4, 256), 1000).key, kLayoutEllColMajor);
  // Under auto, the selector's wish.
  Config autocfg;
  EXPECT_EQ(layout_request(autocfg, kPatternNeighbors, kNeighbors, launch(4, 256, kLayoutLocality), 1000).key,
            kLayoutLocality);
  EXPECT_EQ(layout_request(autocfg, kPatternRange, kRange, launch(4, 256, kLayoutLocality), 1000).key,
            kLayoutLocality);
}

TEST(LocalityPolicy, AutoProposesTheOrderOnlyWhereTheReadsLieFarApart) {
  Config cfg;
  const LayoutRequest r = layout_request(cfg, kPatternNeighbors, kNeighbors, launch(4, 256), 1000);
  int out[kMaxLayoutCandidates] = {};
  EXPECT_EQ(neighbor_candidates(cfg, r, false, out), 0); // ELL alone
  ASSERT_EQ(neighbor_candidates(cfg, r, true, out), 2);
  EXPECT_EQ(out[0], kLayoutEllColMajor);
  EXPECT_EQ(out[1], kLayoutLocality);
  cfg.auto_sharing = true;
  ASSERT_EQ(neighbor_candidates(cfg, r, true, out), 3);
  EXPECT_EQ(out[1], kLayoutSharing);
  EXPECT_EQ(out[2], kLayoutLocality);
  const LayoutRequest fixed = layout_request(cfg, kPatternNeighbors, kNeighborsInOrder, launch(4, 256), 1000);
  EXPECT_EQ(neighbor_candidates(cfg, fixed, true, out), 0); // may not permute, may not share

  LayoutRequest range = layout_request(Config{}, kPatternRange, kRange, launch(4, 256), 1000);
  EXPECT_TRUE(range_proposes_locality(range, 1000, 0.8));
  EXPECT_FALSE(range_proposes_locality(range, 1000, 0.1));
  EXPECT_FALSE(range_proposes_locality(range, 1LL << 32, 0.8));
  range.may_permute = false;
  EXPECT_FALSE(range_proposes_locality(range, 1000, 0.8));
}

TEST(LocalityPolicy, TheOrderIsTimedOnlyWhereItsDataFitsHalfTheL2) {
  const long long l2 = 50LL << 20; // an H100's
  EXPECT_TRUE(order_fits_cache(1LL << 20, 8, l2));  // 8 MiB: 1M rows, 4-byte bounds and output
  EXPECT_TRUE(order_fits_cache(1LL << 20, 16, l2)); // 16 MiB: MD's forces at 1M atoms
  EXPECT_TRUE(order_fits_cache(25LL << 17, 8, l2)); // exactly half
  EXPECT_FALSE(order_fits_cache((25LL << 17) + 1, 8, l2));
  EXPECT_FALSE(order_fits_cache(8LL << 20, 8, l2)); // 64 MiB: 8M rows
  EXPECT_TRUE(order_fits_cache(8LL << 20, 8, 0));   // the L2 unknown: no bound
}

TEST(LocalityPolicy, AGatherIsRenumberedWhereTheCopiesOverflowTheL2) {
  const long long l2 = 50LL << 20;
  EXPECT_FALSE(renumber_pays(kRenumberAuto, 40ULL << 20, l2)); // the grid at 1x: 5M non-zeros, 8 bytes each
  EXPECT_FALSE(renumber_pays(kRenumberAuto, 50ULL << 20, l2)); // exactly the L2
  EXPECT_TRUE(renumber_pays(kRenumberAuto, (50ULL << 20) + 1, l2));
  EXPECT_TRUE(renumber_pays(kRenumberAuto, 320ULL << 20, l2)); // the grid at 8x
  EXPECT_TRUE(renumber_pays(kRenumberAuto, 1, 0));             // the L2 unknown
  EXPECT_TRUE(renumber_pays(kRenumberAlways, 1, l2));
  EXPECT_FALSE(renumber_pays(kRenumberNever, 320ULL << 20, l2));
  EXPECT_EQ(parse_renumber(nullptr), kRenumberAuto);
  EXPECT_EQ(parse_renumber("auto"), kRenumberAuto);
  EXPECT_EQ(parse_renumber("1"), kRenumberAlways);
  EXPECT_EQ(parse_renumber("0"), kRenumberNever);
  EXPECT_EQ(parse_renumber("yes"), 2);
}

TEST(LocalityPolicy, TheKernelReadsItsDataInPlaceThroughTheOrderedList) {
  Entry e;
  e.key.n = 64;
  e.key.pattern = kPatternNeighbors;
  int data = 0, perm = 0, index = 0, other = 0;
  e.key.sources = {&data};
  e.layout = kLayoutLocality;
  auto list = std::make_unique<LocalityNeighborPayload>();
  list->jmax = 9;
  list->perm.ptr = &perm;
  list->order_index.ptr = &index;
  e.payload = std::move(list);
  View v{};
  const void *out[1] = {&other};
  fill_view(e, &v, out);
  EXPECT_EQ(out[0], &data); // the data array itself
  EXPECT_EQ(v.index, &index);
  EXPECT_EQ(v.perm, &perm);
  EXPECT_EQ(v.slice_mask, 0); // no slices: slot() would address it as ELL
  EXPECT_EQ(v.width, 9);
  // A range site: SELL-32 over the ordered threads.
  Entry r;
  r.key.n = 64;
  r.key.pattern = kPatternRange;
  r.layout = kLayoutLocality;
  long long slices = 0;
  auto rows = std::make_unique<LocalityRangePayload>();
  rows->slices.ptr = &slices;
  rows->perm.ptr = &perm;
  r.payload = std::move(rows);
  r.bufs = {&other};
  fill_view(r, &v, out);
  EXPECT_EQ(out[0], &other);
  EXPECT_EQ(v.index, nullptr);
  EXPECT_EQ(v.slice_start, &slices);
  EXPECT_EQ(v.slice_mask, -1);
  EXPECT_EQ(v.perm, &perm);
  EXPECT_STREQ(layout_name(kLayoutLocality), "locality");
}

TEST(LocalityPolicy, ANeighbourSlotReadsTheOrderedListOrTheSlices) {
  const int index[] = {5, 7, 11, 13};
  const long long slices[] = {0, 64};
  View v{};
  v.n = 2;
  v.layout = kLayoutLocality;
  v.index = index;
  EXPECT_EQ(neighbor_slot(v, 1, 1), 13); // index[1 * 2 + 1]
  v.index = nullptr;
  v.slice_start = slices;
  v.slice_mask = -1;
  EXPECT_EQ(neighbor_slot(v, 1, 1), 33); // slice 0: 1 * 32 + 1
  EXPECT_EQ(slot(v, 33, 1), 97);         // slice 1: 64 + 1 * 32 + 1
}

TEST(LocalityPolicy, ASlotOfEllIsItsBlockOfThirtyTwoFromTheWidth) {
  View v{};
  v.slice_mask = 0; // the zero cell, not read on the host
  v.block_width = 3;
  for (long long t : {0LL, 5LL, 31LL, 32LL, 70LL})
    for (long long it = 0; it < 3; ++it)
      EXPECT_EQ(slot(v, t, it), ell_slot(t, it, 3)) << "t=" << t << " iter=" << it;
}

TEST(LocalityConfig, LayoutAndRegionParse) {
  int l = 0;
  EXPECT_TRUE(parse_layout("locality", &l));
  EXPECT_EQ(l, kLayoutLocality);
  l = 0;
  EXPECT_TRUE(parse_layout("Order", &l));
  EXPECT_EQ(l, kLayoutLocality);
  EXPECT_EQ(parse_order_region(nullptr), 0);
  EXPECT_EQ(parse_order_region(""), 0);
  EXPECT_EQ(parse_order_region("512"), 512);
  EXPECT_EQ(parse_order_region("100"), -1);
  EXPECT_EQ(parse_order_region("16"), -1);
  EXPECT_EQ(parse_order_region("8192"), -1);
  unsetenv("IRREGFIX_ORDER_REGION");
  EXPECT_EQ(config_from_env().order_region, 128); // a launch's own order
  EXPECT_EQ(config_from_env().domain_region, 1024); // the program-wide domain's
  setenv("IRREGFIX_ORDER_REGION", "64", 1); // both
  EXPECT_EQ(config_from_env().order_region, 64);
  EXPECT_EQ(config_from_env().domain_region, 64);
  setenv("IRREGFIX_ORDER_REGION", "many", 1); // warns, the defaults
  EXPECT_EQ(config_from_env().order_region, 128);
  EXPECT_EQ(config_from_env().domain_region, 1024);
  unsetenv("IRREGFIX_ORDER_REGION");
}

TEST(Config, ProfileAfterMs) {
  EXPECT_EQ(parse_profile_after_ms(nullptr), kProfileAfterMsDefault);
  EXPECT_EQ(parse_profile_after_ms("0"), 0);
  EXPECT_EQ(parse_profile_after_ms("200"), 200);
  EXPECT_EQ(parse_profile_after_ms("-1"), -1);
  EXPECT_EQ(parse_profile_after_ms("soon"), -1);
  setenv("IRREGFIX_PROFILE_AFTER_MS", "0", 1);
  EXPECT_EQ(config_from_env().profile_after_ms, 0);
  setenv("IRREGFIX_PROFILE_AFTER_MS", "later", 1); // warns, the default
  EXPECT_EQ(config_from_env().profile_after_ms, kProfileAfterMsDefault);
  unsetenv("IRREGFIX_PROFILE_AFTER_MS");
}

// ---- the selector -----------------------------------------------------------

namespace {

// Settles a selector whose only candidate loses to the original by far.
Selector settled_on_the_original() {
  Selector sel;
  for (int i = 0; i < 20 && sel.profiling(); ++i) {
    const Selector::Decision d = sel.decide(true, false);
    if (d.timed && d.run == Selector::kRunOriginal)
      sel.add_original(10e-3);
    else if (d.timed)
      sel.add_transformed(25e-3, d.candidate);
  }
  return sel;
}

} // namespace

TEST(SelectorFastPath, ASettledOriginalRunsUntilTheNextWatchWithoutAsking) {
  Selector sel = settled_on_the_original();
  ASSERT_FALSE(sel.profiling());
  Selector::Decision d = sel.decide(true, false);
  ASSERT_EQ(d.run, Selector::kRunOriginal);
  ASSERT_FALSE(d.timed);
  EXPECT_TRUE(sel.runs_original());
  const long long budget = sel.untimed_launches();
  EXPECT_GT(budget, 0);
  EXPECT_LT(budget, Selector::kWatchPeriod);
  sel.skipped(budget, 0);
  d = sel.decide(true, false); // the watched launch: the transformed kernel, timed
  EXPECT_TRUE(d.timed);
  EXPECT_EQ(d.run, Selector::kRunTransformed);
  EXPECT_FALSE(sel.runs_original());
  sel.add_transformed(25e-3);
  d = sel.decide(true, false);
  EXPECT_FALSE(d.timed);
  EXPECT_TRUE(sel.runs_original());
  EXPECT_EQ(sel.untimed_launches(), Selector::kWatchPeriod - 2); // this launch was the first after the watch
}

// The fast path's admission reads the settings an untimed launch of a settled
// launcher depends on (IRREGFIX_LAYOUT, IRREGFIX_DISABLE) and nothing else:
// IRREGFIX_RENUMBER shapes only the copies of transformed launches, and the
// original's time scale only the timings of watched launches, none of which
// the fast path runs. Were either read, a launcher on the fast path could keep
// running the original after testing::set_renumber or set_original_time_scale
// changed what it should do (those two setters once left the generation as it
// was; every setter now bumps it, through change_config).
TEST(SelectorFastPath, OnlyTheLayoutAndDisableDecideIt) {
  Selector sel = settled_on_the_original();
  ASSERT_FALSE(sel.profiling());
  ASSERT_EQ(sel.decide(true, false).run, Selector::kRunOriginal);
  ASSERT_TRUE(fast_path_allowed(Config{}, sel));
  for (int renumber : {kRenumberNever, kRenumberAuto, kRenumberAlways})
    for (double scale : {1e-3, 1.0, 1e3}) {
      Config c;
      c.renumber = renumber;
      c.original_time_scale = scale;
      EXPECT_TRUE(fast_path_allowed(c, sel)) << renumber << " " << scale;
    }
  Config forced, none, disabled;
  forced.layout = kLayoutEllColMajor;
  none.layout = kLayoutChoiceNone;
  disabled.disabled = true;
  EXPECT_FALSE(fast_path_allowed(forced, sel));
  EXPECT_FALSE(fast_path_allowed(none, sel));
  EXPECT_FALSE(fast_path_allowed(disabled, sel));
  // Every launch of its budget is an untimed original: no timing to read at
  // any scale until the watched launch, which ends the fast path.
  const long long budget = sel.untimed_launches();
  for (long long i = 0; i < budget; ++i) {
    const Selector::Decision d = sel.decide(true, false);
    EXPECT_EQ(d.run, Selector::kRunOriginal);
    EXPECT_FALSE(d.timed);
  }
  EXPECT_TRUE(sel.decide(true, false).timed);
  EXPECT_FALSE(fast_path_allowed(Config{}, sel));
}

TEST(SelectorFastPath, SkippedLaunchesCountTowardReuse) {
  // The remap costs more than a launch saves while every launch writes; once
  // the skipped launches stop writing, the reuse grows and the copy pays.
  Selector sel;
  for (int i = 0; i < 40 && sel.profiling(); ++i) {
    const Selector::Decision d = sel.decide(i > 0, true);
    if (d.timed && d.run == Selector::kRunOriginal)
      sel.add_original(10e-3);
    else if (d.timed) {
      sel.add_remap(40e-3);
      sel.add_transformed(7e-3);
    }
  }
  ASSERT_FALSE(sel.profiling());
  EXPECT_EQ(sel.decide(false, true).run, Selector::kRunOriginal);
  sel.skipped(1000, 1000);
  EXPECT_LT(sel.reuse(), 1.5);
  EXPECT_EQ(sel.decide(false, true).run, Selector::kRunOriginal);
  for (int i = 0; i < 20; ++i)
    sel.skipped(60, 0);
  EXPECT_GT(sel.reuse(), 20.0);
  sel.decide(false, false); // a watched launch (the skipped ones reached the period)
  EXPECT_EQ(sel.decide(false, false).run, Selector::kRunTransformed) << sel.why();
  EXPECT_NE(sel.why().find("pays off"), std::string::npos) << sel.why();
}

TEST(SelectorLocality, EachCandidateCountsTheLaunchesItsOwnCopyServes) {
  // MD: ELL copies the positions, written every step; the locality order
  // copies the neighbour list, rebuilt every fifth step. ELL's kernel and
  // remap cost more than the original; the order's pays.
  const double original = 152e-3;
  const double kernel[] = {97e-3, 91e-3}, remap[] = {216e-3, 100e-3};
  Selector sel;
  bool proposed = false;
  int observed[Selector::kMaxCandidates] = {-1, -1, -1, -1};
  bool built[2] = {false, false};
  int locality = 0, originals = 0;
  for (int step = 0; step < 300; ++step) {
    const bool list = step % 5 == 0;
    // Each candidate's copy: ELL's is written every step, the order's list at rebuilds.
    observed[0] = built[0] ? 1 : -1;
    observed[1] = built[1] ? (list ? 1 : 0) : -1;
    const Selector::Decision d = sel.decide(false, true, observed);
    if (d.run == Selector::kRunOriginal) {
      ++originals;
      if (d.timed)
        sel.add_original(original);
      continue;
    }
    const int c = d.candidate;
    if (!proposed) {
      const int labels[] = {kLayoutEllColMajor, kLayoutLocality};
      sel.set_candidates(labels, 2);
      proposed = true;
    }
    const bool remapped = c == 0 || list || !built[1];
    built[c] = true;
    if (d.timed) {
      if (remapped)
        sel.add_remap(remap[c], c);
      sel.add_transformed(kernel[c], c);
    }
    locality += step >= 100 && c == 1;
  }
  ASSERT_FALSE(sel.profiling());
  EXPECT_EQ(sel.label(sel.chosen()), kLayoutLocality) << sel.summary(layout_name);
  EXPECT_NEAR(sel.reuse(1), 5.0, 1.0);
  EXPECT_NEAR(sel.reuse(0), 1.0, 0.1);
  EXPECT_GE(locality, 190); // after profiling, the order runs but for watched launches
}

TEST(SelectorBound, AFarSlowerCandidateIsProbedTwiceThenNoMore) {
  Selector sel;
  const int labels[] = {kLayoutEllColMajor, kLayoutLocality};
  int probes[2] = {0, 0};
  for (int i = 0; i < 30 && sel.profiling(); ++i) {
    const Selector::Decision d = sel.decide(true, i == 0);
    if (i == 0)
      sel.set_candidates(labels, 2);
    if (d.run == Selector::kRunOriginal) {
      if (d.timed)
        sel.add_original(10e-3);
      continue;
    }
    ++probes[d.candidate];
    if (d.timed)
      sel.add_transformed(d.candidate == 1 ? 40e-3 : 8e-3, d.candidate);
  }
  EXPECT_FALSE(sel.profiling());
  EXPECT_EQ(probes[1], Selector::kHopelessSamples);
  EXPECT_TRUE(sel.hopeless(1));
  EXPECT_FALSE(sel.hopeless(0));
  EXPECT_EQ(sel.label(sel.chosen()), kLayoutEllColMajor);
  EXPECT_NE(sel.summary(layout_name).find("probed no more"), std::string::npos) << sel.summary(layout_name);
}
