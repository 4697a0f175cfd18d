// The transformed-or-original selector on synthetic timings whose answer is known.
#include "selector.h"

#include <gtest/gtest.h>

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
