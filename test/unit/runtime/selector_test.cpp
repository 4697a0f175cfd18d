// The transformed-or-original selector on synthetic timings whose answer is known.
#include "selector.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using irregfix::detail::Selector;

namespace {

// Drives a selector like the runtime does: every timed launch reports the given
// kernel time of the variant it ran, plus a remap when the copy was not valid.
struct Program {
  Program(double original, double transformed, double remap)
      : original_ms(original), transformed_ms(transformed), remap_ms(remap) {}
  double original_ms, transformed_ms, remap_ms;
  bool copy_valid = false; // the copy survives until the next write
  Selector sel;
  int originals = 0, transformeds = 0;

  // One launch; `write` says whether the program wrote a source before it.
  Selector::Run launch(bool write) {
    if (write)
      copy_valid = false;
    Selector::Decision d = sel.decide(copy_valid, write);
    if (d.run == Selector::kRunTransformed) {
      ++transformeds;
      if (d.timed) {
        if (!copy_valid)
          sel.add_remap(remap_ms);
        sel.add_transformed(transformed_ms);
      }
      copy_valid = true;
    } else {
      ++originals;
      if (d.timed)
        sel.add_original(original_ms);
    }
    return d.run;
  }
};

TEST(Selector, ProfilesBothVariantsFirstTransformedFirst) {
  Program p{10e-3, 5e-3, 1e-3};
  EXPECT_EQ(p.launch(true), Selector::kRunTransformed);
  EXPECT_EQ(p.launch(false), Selector::kRunOriginal);
  EXPECT_EQ(p.launch(false), Selector::kRunTransformed);
  EXPECT_EQ(p.launch(false), Selector::kRunOriginal);
  EXPECT_TRUE(p.sel.profiling());
  p.launch(false);
  p.launch(false);
  EXPECT_EQ(p.transformeds, 3);
  EXPECT_EQ(p.originals, 3);
  p.launch(false);
  EXPECT_FALSE(p.sel.profiling());
}

TEST(Selector, CachedAndFasterMeansTransformed) {
  // CG: the matrix never changes, the transformed kernel is faster.
  Program p{10e-3, 7e-3, 50e-3};
  for (int i = 0; i < 6; ++i)
    p.launch(i == 0);
  int transformed = 0;
  for (int i = 0; i < 1000; ++i)
    transformed += p.launch(false) == Selector::kRunTransformed;
  EXPECT_GE(transformed, 1000 - 1000 / Selector::kWatchPeriod - 1); // watch launches time the original
  EXPECT_NEAR(p.sel.original_ms(), 10e-3, 1e-12);
  EXPECT_NEAR(p.sel.transformed_ms(), 7e-3, 1e-12);
  EXPECT_NE(p.sel.why().find("copies cached"), std::string::npos) << p.sel.why();
}

TEST(Selector, NoReuseAndCostlyRemapMeansOriginal) {
  // MD with the remap every step: the kernel saves 3 us, the remap costs 40 us.
  Program p{10e-3, 7e-3, 40e-3};
  for (int i = 0; i < 6; ++i)
    p.launch(true);
  int original = 0;
  for (int i = 0; i < 1000; ++i)
    original += p.launch(true) == Selector::kRunOriginal;
  EXPECT_EQ(original, 1000);
  EXPECT_NE(p.sel.why().find("costs more"), std::string::npos) << p.sel.why();
}

// The program's launches grow (each variant's time set anew), every launch
// writing its sources: how many of the next 2000 ran the transformed kernel.
int transformed_after_growth(Program &p, double original_ms, double transformed_ms) {
  p.original_ms = original_ms;
  p.transformed_ms = transformed_ms;
  int transformed = 0;
  for (int i = 0; i < 2000; ++i)
    transformed += p.launch(true) == Selector::kRunTransformed;
  return transformed;
}

TEST(Selector, TimingsOfAnotherSizeAreTakenAgainBeforeTheyDecide) {
  // A launcher whose launches grow fourfold, each with a new copy to build:
  // at either size the transformed kernel does not beat the original. Compared
  // with the small size's transformed time, the large size's original would
  // seem to repay a remap at every launch.
  Program p{50e-3, 51e-3, 60e-3};
  for (int i = 0; i < 200; ++i)
    p.launch(true);
  ASSERT_FALSE(p.sel.profiling());
  ASSERT_EQ(p.sel.reprofiles(), 0);
  const int transformed = transformed_after_growth(p, 200e-3, 205e-3);
  EXPECT_EQ(p.sel.reprofiles(), 1);
  EXPECT_LE(transformed, Selector::kProbes); // the new size's probes, then the original
  EXPECT_NE(p.sel.why().find("does not beat"), std::string::npos) << p.sel.why();
  EXPECT_NE(p.sel.summary([](int) { return "x"; }).find("profiled again 1 time"), std::string::npos);
}

TEST(Selector, AChoiceTheOriginalsTimingsAloneWouldChangeIsProfiledAgain) {
  // The launches grow by 40%, less than kDrift: the stale transformed time
  // against the new original would seem to repay a remap at every launch.
  Program p{50e-3, 51e-3, 5e-3};
  for (int i = 0; i < 200; ++i)
    p.launch(true);
  ASSERT_EQ(p.transformeds, Selector::kProbes);
  const int transformed = transformed_after_growth(p, 70e-3, 72e-3);
  EXPECT_GE(p.sel.reprofiles(), 1);
  EXPECT_LE(transformed, Selector::kProbes * p.sel.reprofiles());
  EXPECT_NE(p.sel.why().find("does not beat"), std::string::npos) << p.sel.why();
}

TEST(Selector, ASizeThatSwingsIsProfiledAgainSeldom) {
  Program p{50e-3, 51e-3, 60e-3};
  int transformed = 0;
  const int launches = 20000;
  for (int i = 0; i < launches; ++i) {
    const bool large = (i / 300) % 2 == 1;
    p.original_ms = large ? 200e-3 : 50e-3;
    p.transformed_ms = large ? 205e-3 : 51e-3;
    transformed += p.launch(true) == Selector::kRunTransformed;
  }
  // Each time waits twice as long, up to 4096 launches: 512 + 1024 + 2048 + 4096 x 4 before the eighth.
  EXPECT_GE(p.sel.reprofiles(), 1);
  EXPECT_LE(p.sel.reprofiles(), 7);
  EXPECT_LE(transformed, Selector::kProbes * (p.sel.reprofiles() + 1));
}

TEST(Selector, SteadyTimingsAreNotProfiledAgain) {
  Program p{10e-3, 7e-3, 50e-3};
  for (int i = 0; i < 3000; ++i)
    p.launch(i % 100 == 0);
  p.original_ms = 15e-3; // within kDrift of the settled median
  for (int i = 0; i < 3000; ++i)
    p.launch(i % 100 == 0);
  EXPECT_EQ(p.sel.reprofiles(), 0);
}

TEST(Selector, NoReuseButCheapRemapMeansTransformed) {
  // The saving of one launch pays for its own remap.
  Program p{100e-3, 40e-3, 20e-3};
  for (int i = 0; i < 6; ++i)
    p.launch(true);
  int transformed = 0;
  for (int i = 0; i < 200; ++i)
    transformed += p.launch(true) == Selector::kRunTransformed;
  EXPECT_GE(transformed, 200 - 200 / Selector::kWatchPeriod - 1);
}

TEST(Selector, SlowerTransformedKernelIsShutOff) {
  Program p{10e-3, 10.1e-3, 1e-3};
  for (int i = 0; i < 6; ++i)
    p.launch(i == 0);
  for (int i = 0; i < 500; ++i)
    p.launch(false);
  EXPECT_LE(p.transformeds, 3 + 500 / Selector::kWatchPeriod + 1);
  EXPECT_NE(p.sel.why().find("does not beat"), std::string::npos) << p.sel.why();
}

TEST(Selector, AWatchOfTheLosingTransformedKernelIsOnlyIfItsCopyIsCached) {
  Program p{10e-3, 10.1e-3, 1e-3};
  for (int i = 0; i < 6; ++i)
    p.launch(i == 0);
  int watched = 0, cached_only = 0;
  for (int i = 0; i < 3 * Selector::kWatchPeriod; ++i) {
    const Selector::Decision d = p.sel.decide(true, false);
    if (d.timed && d.run == Selector::kRunTransformed) {
      ++watched;
      cached_only += d.only_if_cached;
      p.sel.cancel(d.run, d.candidate); // the launch found no copy: the original, untimed
    } else if (d.timed) {
      p.sel.add_original(p.original_ms);
    }
    EXPECT_FALSE(d.only_if_cached && d.run == Selector::kRunOriginal);
  }
  EXPECT_GE(watched, 2);
  EXPECT_EQ(cached_only, watched) << "every watch of the losing kernel may decline a build";
  EXPECT_FALSE(p.sel.profiling());
  EXPECT_NE(p.sel.why().find("does not beat"), std::string::npos) << p.sel.why();
}

TEST(Selector, CachedCopiesWhoseRemapWouldNotPayServeOnlyIfCached) {
  // Each launch writes a source (a copy serves one launch): the transformed
  // kernel saves 2 us, a remap costs 50.
  Program p{10e-3, 8e-3, 50e-3};
  for (int i = 0; i < 40; ++i)
    p.launch(true);
  EXPECT_FALSE(p.sel.profiling());
  Selector::Decision d = p.sel.decide(true, false);
  EXPECT_EQ(d.run, Selector::kRunTransformed);
  EXPECT_TRUE(d.only_if_cached) << "a launch whose copy is gone must not remap for 2 us";
  // A program that stops writing: the copy serves many launches, a remap pays.
  Program q{10e-3, 5e-3, 1e-3};
  for (int i = 0; i < 600; ++i)
    q.launch(i == 0);
  d = q.sel.decide(true, false);
  EXPECT_EQ(d.run, Selector::kRunTransformed);
  EXPECT_FALSE(d.only_if_cached);
}

TEST(Selector, ReuseGrowsWhenTheProgramStopsWriting) {
  // Writes every launch first (original wins), then none: the copy comes to pay.
  Program p{10e-3, 7e-3, 40e-3};
  for (int i = 0; i < 300; ++i)
    p.launch(true);
  EXPECT_EQ(p.launch(true), Selector::kRunOriginal);
  int transformed = 0;
  for (int i = 0; i < 2000; ++i)
    transformed += p.launch(false) == Selector::kRunTransformed;
  EXPECT_GT(transformed, 1000);
}

TEST(Selector, ACopyMadeOnlyInsidePipelinedLaunchesIsTimedOnceTheProgramWrites) {
  // The first copy was made inside a pipelined launch, whose whole time counts as a
  // kernel sample: no remap was ever timed on its own. When the program then writes
  // a source before every launch, the first launch that must remap is timed, and the
  // remap (40 us against 6 us saved) sends the launcher back to the original.
  Selector sel;
  sel.set_warm_up(0);
  bool copy_valid = false;
  for (int i = 0; i < 6; ++i) { // profiling: no remap sample reported
    const Selector::Decision d = sel.decide(copy_valid, i == 0);
    ASSERT_TRUE(d.timed);
    if (d.run == Selector::kRunTransformed) {
      sel.add_transformed(154e-3);
      copy_valid = true;
    } else {
      sel.add_original(160e-3);
    }
  }
  for (int i = 0; i < 30; ++i) // reads only: the cached copy pays
    ASSERT_EQ(sel.decide(true, false).run, Selector::kRunTransformed);
  ASSERT_LT(sel.remap_ms(), 0);
  const Selector::Decision first = sel.decide(false, true);
  EXPECT_EQ(first.run, Selector::kRunTransformed);
  EXPECT_TRUE(first.timed);
  EXPECT_NE(sel.why().find("timing a remap"), std::string::npos) << sel.why();
  sel.add_remap(400e-3);
  sel.add_transformed(154e-3);
  int transformed = 0;
  for (int i = 0; i < 30; ++i)
    transformed += sel.decide(false, true).run == Selector::kRunTransformed;
  EXPECT_EQ(transformed, 0);
  EXPECT_NE(sel.why().find("costs more"), std::string::npos) << sel.why();
}

TEST(Selector, OneSlowFirstSampleDoesNotDecide) {
  // The first transformed launch pays a one-time module load: the median ignores it.
  Selector sel;
  Selector::Decision d = sel.decide(false, true);
  ASSERT_TRUE(d.timed);
  ASSERT_EQ(d.run, Selector::kRunTransformed);
  sel.add_remap(3.0);
  sel.add_transformed(4.0); // a 4 ms outlier
  for (int i = 0; i < 5; ++i) {
    d = sel.decide(true, false);
    ASSERT_TRUE(d.timed);
    if (d.run == Selector::kRunTransformed)
      sel.add_transformed(7e-3);
    else
      sel.add_original(10e-3);
  }
  EXPECT_EQ(sel.decide(true, false).run, Selector::kRunTransformed);
  EXPECT_NEAR(sel.transformed_ms(), 7e-3, 1e-12);
}

TEST(Selector, WaitsForOutstandingTimingsWithTheOriginal) {
  Selector sel;
  for (int i = 0; i < 2 * Selector::kProbes; ++i)
    EXPECT_TRUE(sel.decide(i > 0, i == 0).timed);
  // Nothing reported back yet: no more probes, the original runs untimed.
  Selector::Decision d = sel.decide(true, false);
  EXPECT_FALSE(d.timed);
  EXPECT_EQ(d.run, Selector::kRunOriginal);
  // A probe the runtime could not run is cancelled and asked again.
  sel.cancel(Selector::kRunTransformed);
  d = sel.decide(true, false);
  EXPECT_TRUE(d.timed);
  EXPECT_EQ(d.run, Selector::kRunTransformed);
}

} // namespace

// ---- candidate layouts ------------------------------------------------------

namespace {

constexpr int kEll = 1, kSell = 2, kSigma = 3; // Layout values, as labels

const char *name(int label) {
  return label == kEll ? "ell" : label == kSell ? "sell-32" : label == kSigma ? "sigma" : "?";
}

// Drives a selector over candidate layouts as the runtime does: the first
// transformed launch builds candidate 0's copy, whose build proposes the
// candidates; each candidate has its own copy (valid until the next write);
// when profiling settles, the losers' copies are freed.
struct Layouts {
  struct Candidate {
    int label;
    double kernel_ms, remap_ms;
  };
  Layouts(double original, std::vector<Candidate> c)
      : original_ms(original), cands(std::move(c)), valid(cands.size(), false),
        runs(cands.size(), 0) {}
  double original_ms;
  std::vector<Candidate> cands;
  std::vector<bool> valid;
  std::vector<int> runs; // transformed launches per candidate
  int originals = 0, settled = 0, last = -1;
  bool proposed = false;
  Selector sel;

  // One launch; `write` says whether the program wrote a source before it.
  Selector::Decision launch(bool write) {
    if (write)
      valid.assign(valid.size(), false);
    const bool copy_valid = last >= 0 && valid[last];
    const Selector::Decision d = sel.decide(copy_valid, write || last < 0);
    if (d.settled) {
      ++settled;
      for (std::size_t c = 0; c < valid.size(); ++c)
        if (static_cast<int>(c) != d.candidate)
          valid[c] = false;
    }
    if (d.run == Selector::kRunOriginal) {
      ++originals;
      if (d.timed)
        sel.add_original(original_ms);
      return d;
    }
    const int c = d.candidate;
    if (!proposed) { // candidate 0's build counts the cells of every layout
      proposed = true;
      std::vector<int> labels;
      for (const Candidate &k : cands)
        labels.push_back(k.label);
      sel.set_candidates(labels.data(), static_cast<int>(labels.size()));
    }
    ++runs[c];
    if (d.timed) {
      if (!valid[c])
        sel.add_remap(cands[c].remap_ms, c);
      sel.add_transformed(cands[c].kernel_ms, c);
    }
    valid[c] = true;
    last = c;
    return d;
  }
  // Launches without writes; how many ran candidate c.
  int run(int launches, int c) {
    int count = 0;
    for (int i = 0; i < launches; ++i) {
      const Selector::Decision d = launch(false);
      count += d.run == Selector::kRunTransformed && d.candidate == c;
    }
    return count;
  }
};

TEST(SelectorLayouts, ProbesCandidateZeroTheOriginalThenTheOthersInTurn) {
  Layouts p{10e-3, {{kSigma, 5e-3, 1e-3}, {kSell, 6e-3, 1e-3}, {kEll, 7e-3, 1e-3}}};
  const int want[] = {0, -1, 1, 2, 0, -1, 1, 2, 0, -1, 1, 2}; // -1: the original
  for (int i = 0; i < 12; ++i) {
    const Selector::Decision d = p.launch(i == 0);
    EXPECT_TRUE(d.timed) << i;
    EXPECT_EQ(d.run == Selector::kRunOriginal ? -1 : d.candidate, want[i]) << "launch " << i;
  }
  EXPECT_TRUE(p.sel.profiling());
  EXPECT_EQ(p.sel.candidates(), 3);
  p.launch(false);
  EXPECT_FALSE(p.sel.profiling());
  EXPECT_EQ(p.settled, 1);
  for (int c = 0; c < 3; ++c)
    EXPECT_EQ(p.runs[c], Selector::kProbes + (c == 0)) << c; // the 13th launch runs sigma
}

TEST(SelectorLayouts, UniformRowsKeepEll) {
  // A grid: ELL alone is proposed, cached and faster.
  Layouts p{10e-3, {{kEll, 8e-3, 50e-3}}};
  p.launch(true);
  const int ell = p.run(1000, 0);
  EXPECT_GE(ell, 1000 - 1000 / Selector::kWatchPeriod - 2 * Selector::kProbes);
  EXPECT_EQ(p.sel.label(p.sel.chosen()), kEll);
  EXPECT_NE(p.sel.why().find("copies cached"), std::string::npos) << p.sel.why();
}

TEST(SelectorLayouts, UniformRowsPickEllOverSigmaThatPadsTheSame) {
  // Rows alike: sigma pads as ELL does and its permutation costs 12%.
  Layouts p{10e-3, {{kSigma, 8.4e-3, 2e-3}, {kEll, 7.5e-3, 1e-3}}};
  p.launch(true);
  p.run(20, 1);
  EXPECT_FALSE(p.sel.profiling());
  EXPECT_EQ(p.sel.chosen(), 1);
  const int ell = p.run(1000, 1);
  EXPECT_GE(ell, 1000 - 1000 / Selector::kWatchPeriod - 1);
  EXPECT_EQ(p.run(1000, 0), 0); // sigma never runs again: its copy is gone
}

TEST(SelectorLayouts, HeavySkewPicksSigma) {
  // Offshore-like: sigma 1.4x faster than ELL, SELL-32 in between; the original
  // slower than all.
  Layouts p{25e-3, {{kSigma, 14e-3, 3e-3}, {kSell, 17e-3, 2e-3}, {kEll, 20e-3, 2e-3}}};
  p.launch(true);
  p.run(20, 0);
  EXPECT_EQ(p.sel.chosen(), 0);
  EXPECT_EQ(p.sel.label(p.sel.chosen()), kSigma);
  EXPECT_GE(p.run(640, 0), 640 - 640 / Selector::kWatchPeriod - 1);
  EXPECT_NEAR(p.sel.transformed_ms(), 14e-3, 1e-12);
  EXPECT_NEAR(p.sel.transformed_ms(2), 20e-3, 1e-12);
}

TEST(SelectorLayouts, PaddingMispredictsAndTheTimingsDecide) {
  // The favourite by padding (candidate 0) is the slower kernel.
  Layouts p{25e-3, {{kSigma, 20e-3, 1e-3}, {kEll, 15e-3, 1e-3}}};
  p.launch(true);
  p.run(20, 1);
  EXPECT_EQ(p.sel.label(p.sel.chosen()), kEll);
}

TEST(SelectorLayouts, EveryCandidateLosingShutsTheSiteOff) {
  // Apache-like: the original (0.1135) beats ELL (0.1468) and sigma (0.1382).
  Layouts p{0.1135, {{kSigma, 0.1382, 0.4}, {kEll, 0.1468, 0.4}}};
  p.launch(true);
  for (int i = 0; i < 500; ++i)
    p.launch(false);
  EXPECT_EQ(p.sel.label(p.sel.chosen()), kSigma); // the better loser, kept for watching
  // After profiling only the watch launches run the transformed kernel.
  EXPECT_LE(p.runs[0] + p.runs[1], 2 * Selector::kProbes + 500 / Selector::kWatchPeriod + 1);
  EXPECT_EQ(p.runs[1], Selector::kProbes);
  EXPECT_NE(p.sel.why().find("does not beat"), std::string::npos) << p.sel.why();
}

TEST(SelectorLayouts, NoReuseMeansTheOriginal) {
  // Every launch writes a source: each transformed launch pays its remap.
  Layouts p{10e-3, {{kSigma, 6e-3, 30e-3}, {kEll, 7e-3, 20e-3}}};
  for (int i = 0; i < 9; ++i)
    p.launch(true);
  int original = 0;
  for (int i = 0; i < 1000; ++i)
    original += p.launch(true).run == Selector::kRunOriginal;
  EXPECT_EQ(original, 1000);
  EXPECT_NE(p.sel.why().find("costs more"), std::string::npos) << p.sel.why();
}

TEST(SelectorLayouts, TheRemapIsAmortisedOverReuse) {
  // Sigma's kernel is faster but its remap dearer. Written every other launch
  // (2 launches a copy), ELL's cheap remap wins; never written, sigma wins.
  const std::vector<Layouts::Candidate> cands = {{kSigma, 10e-3, 40e-3}, {kEll, 14e-3, 10e-3}};
  Layouts often{40e-3, cands}, never{40e-3, cands};
  for (int i = 0; i < 12; ++i) {
    often.launch(i % 2 == 0);
    never.launch(i == 0);
  }
  EXPECT_FALSE(often.sel.profiling());
  EXPECT_EQ(often.sel.label(often.sel.chosen()), kEll);
  EXPECT_EQ(never.sel.label(never.sel.chosen()), kSigma);
  // Never written: a first remap that also loads the remap kernels (2.4 ms)
  // does not decide either.
  Layouts loads{40e-3, {{kSigma, 10e-3, 2.4}, {kEll, 14e-3, 10e-3}}};
  for (int i = 0; i < 12; ++i)
    loads.launch(i == 0);
  EXPECT_EQ(loads.sel.label(loads.sel.chosen()), kSigma);
  EXPECT_NE(loads.sel.summary(name).find("(chosen: least kernel time, its copy never rewritten)"),
            std::string::npos)
      << loads.sel.summary(name);
}

TEST(SelectorLayouts, ACandidateThatCannotBeBuiltIsDropped) {
  Selector sel;
  Selector::Decision d = sel.decide(false, true);
  ASSERT_EQ(d.candidate, 0);
  const int labels[] = {kSigma, kEll};
  sel.set_candidates(labels, 2);
  sel.add_remap(1e-3, 0);
  sel.add_transformed(5e-3, 0);
  d = sel.decide(true, false); // the original
  ASSERT_EQ(d.run, Selector::kRunOriginal);
  sel.add_original(10e-3);
  d = sel.decide(true, false); // ELL: its copy is over IRREGFIX_MAX_BYTES
  ASSERT_EQ(d.run, Selector::kRunTransformed);
  ASSERT_EQ(d.candidate, 1);
  sel.cancel(Selector::kRunTransformed, 1);
  sel.drop(1);
  for (int i = 0; i < 4; ++i) {
    d = sel.decide(true, false);
    ASSERT_NE(d.candidate, 1);
    if (d.run == Selector::kRunOriginal)
      sel.add_original(10e-3);
    else
      sel.add_transformed(5e-3, 0);
  }
  d = sel.decide(true, false);
  EXPECT_FALSE(sel.profiling());
  EXPECT_EQ(d.candidate, 0);
  EXPECT_EQ(d.run, Selector::kRunTransformed);
  EXPECT_NE(sel.summary(name).find("ell -1.0 + remap -1.0 (dropped"), std::string::npos)
      << sel.summary(name);
}

TEST(SelectorLayouts, CandidatesAreTakenOnceAndOnlyWhileProfiling) {
  Selector sel;
  const int three[] = {kSigma, kSell, kEll}, one[] = {kEll};
  sel.set_candidates(three, 3);
  sel.set_candidates(one, 1); // a later build's proposal: ignored
  EXPECT_EQ(sel.candidates(), 3);
  EXPECT_EQ(sel.label(0), kSigma);
  Selector late;
  for (int i = 0; i < 2 * Selector::kProbes; ++i) {
    const Selector::Decision d = late.decide(true, i == 0);
    if (d.run == Selector::kRunOriginal)
      late.add_original(10e-3);
    else
      late.add_transformed(5e-3);
  }
  late.decide(true, false);
  ASSERT_FALSE(late.profiling());
  late.set_candidates(three, 3);
  EXPECT_EQ(late.candidates(), 1);
}

TEST(SelectorLayouts, SummaryNamesTheCandidatesTheirMediansAndTheChoice) {
  Layouts p{25e-3, {{kSigma, 14e-3, 3e-3}, {kEll, 20e-3, 2e-3}}};
  p.launch(true);
  EXPECT_EQ(p.sel.summary(name).rfind("profiling; medians (us, -1: none timed): original -1.0, "
                                      "sigma 14.0 + remap 3.0, ell -1.0 + remap -1.0; ",
                                      0),
            0u)
      << p.sel.summary(name);
  p.run(20, 0);
  const std::string s = p.sel.summary(name);
  EXPECT_EQ(s.rfind("sigma: copies cached: the transformed kernel saves 11.0 us (14.0 vs 25.0 us); "
                    "medians (us, -1: none timed): original 25.0, sigma 14.0 + remap 3.0 (chosen: "
                    "least kernel time, its copy never rewritten), ell 20.0 + remap 2.0; ",
                    0),
            0u)
      << s;
  // Written every other launch: the remap counts, spread over the copy's launches.
  Layouts w{25e-3, {{kSigma, 14e-3, 3e-3}, {kEll, 20e-3, 2e-3}}};
  for (int i = 0; i < 12; ++i)
    w.launch(i % 2 == 0);
  EXPECT_NE(w.sel.summary(name).find(
                "sigma 14.0 + remap 3.0 (chosen: least kernel time plus remap / 2.0 launches per "
                "copy), ell 20.0 + remap 2.0; "),
            std::string::npos)
      << w.sel.summary(name);
}

TEST(SelectorLayouts, SummaryOfOneUnnamedVariantIsAsBefore) {
  Program p{10e-3, 7e-3, 50e-3};
  for (int i = 0; i < 7; ++i)
    p.launch(i == 0);
  EXPECT_EQ(p.sel.summary(name),
            "copies cached: the transformed kernel saves 3.0 us (7.0 vs 10.0 us); medians: original "
            "10.0 us, transformed 7.0 us, remap 50.0 us (-1: none timed); 7.0 launches per copy");
}

} // namespace

namespace {

// A short run cannot earn back its profiling: with a warm-up of 5 ms, a
// launcher whose original takes 1 ms runs it (the first three timed) for five
// launches, then profiles as without a warm-up, from its original samples.
TEST(SelectorWarmUp, RunsTheOriginalUntilItsLaunchesTookTheWarmUpTime) {
  Program p{1.0, 0.5, 0.1};
  p.sel.set_warm_up(5.0);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(p.launch(i == 0), Selector::kRunOriginal) << "launch " << i;
    EXPECT_TRUE(p.sel.warming_up());
  }
  EXPECT_NE(p.sel.why().find("warming up"), std::string::npos) << p.sel.why();
  EXPECT_NEAR(p.sel.original_ms(), 1.0, 1e-12); // its three timed launches
  // Warm: the candidate is built and timed (the original's samples are in hand).
  EXPECT_EQ(p.launch(false), Selector::kRunTransformed);
  EXPECT_FALSE(p.sel.warming_up());
  EXPECT_TRUE(p.sel.profiling());
  for (int i = 0; i < 3; ++i)
    p.launch(false);
  EXPECT_FALSE(p.sel.profiling());
  EXPECT_EQ(p.launch(false), Selector::kRunTransformed); // 2x faster, its copy cached
}

// Once the original's probes are timed, the launches short of the warm-up's
// end may skip the selector (the launcher's fast path): it offers all but the
// last of them, counts those taken, and the warm-up ends at the same launch.
TEST(SelectorWarmUp, TheLaunchesLeftOfTheWarmUpMayTakeTheFastPath) {
  Program p{1.0, 0.5, 0.1};
  p.sel.set_warm_up(10.0);
  EXPECT_FALSE(p.sel.runs_original()); // nothing timed yet
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(p.launch(i == 0), Selector::kRunOriginal);
  EXPECT_TRUE(p.sel.runs_original());
  ASSERT_EQ(p.sel.untimed_launches(), 6); // ten launches take 10 ms: three ran, the tenth asks
  p.sel.skipped(6, 0);
  EXPECT_EQ(p.sel.untimed_launches(), 0);
  EXPECT_EQ(p.launch(false), Selector::kRunOriginal); // the tenth: still warming up
  EXPECT_FALSE(p.sel.runs_original());
  EXPECT_EQ(p.launch(false), Selector::kRunTransformed); // warm: profiling starts
  EXPECT_FALSE(p.sel.warming_up());
}

// A warm-up longer than the run: only the original, and no copy is ever built.
TEST(SelectorWarmUp, AShortRunNeverBuildsACopy) {
  Program p{0.03, 0.01, 1.0};
  p.sel.set_warm_up(50.0);
  for (int i = 0; i < 200; ++i)
    EXPECT_EQ(p.launch(i == 0), Selector::kRunOriginal);
  EXPECT_EQ(p.transformeds, 0);
}

// A copy put off (its launches so far do not pay for it): the launcher warms
// up again, on the fast path, until they have taken the time asked; then the
// candidate is built and timed.
TEST(SelectorWarmUp, ACopyPutOffLengthensTheWarmUp) {
  Program p{1.0, 0.5, 0.1};
  p.sel.set_warm_up(5.0);
  EXPECT_EQ(p.sel.warmed_ms(), 0);
  for (int i = 0; i < 5; ++i)
    p.launch(i == 0);
  EXPECT_NEAR(p.sel.warmed_ms(), 5.0, 1e-12);
  Selector::Decision d = p.sel.decide(false, false); // warm: candidate 0 asked
  ASSERT_EQ(d.run, Selector::kRunTransformed);
  p.sel.put_off(20.0, "probing put off: test");
  p.sel.cancel(d.run, d.candidate); // the launch ran the original instead
  EXPECT_TRUE(p.sel.warming_up());
  EXPECT_EQ(p.sel.why(), "probing put off: test");
  EXPECT_TRUE(p.sel.runs_original());
  EXPECT_EQ(p.sel.untimed_launches(), 14); // 20 launches in all: five ran, the twentieth asks
  p.sel.skipped(14, 0);
  EXPECT_EQ(p.launch(false), Selector::kRunOriginal); // the twentieth
  EXPECT_EQ(p.launch(false), Selector::kRunTransformed);
  EXPECT_FALSE(p.sel.warming_up());
  p.sel.put_off(10.0, "shorter: ignored");
  EXPECT_FALSE(p.sel.warming_up());
}

TEST(SelectorWarmUp, WithoutAWarmUpNothingBudgetsProbing) {
  Program p{1.0, 0.5, 0.1};
  p.sel.set_warm_up(0);
  EXPECT_EQ(p.sel.warmed_ms(), -1);
}

// No warm-up: the first launch builds and times the candidate, as before.
TEST(SelectorWarmUp, ZeroProfilesAtOnce) {
  Program p{1.0, 0.5, 0.1};
  p.sel.set_warm_up(0);
  EXPECT_EQ(p.launch(true), Selector::kRunTransformed);
}

} // namespace
