// Planning of hoisted launches (runtime/src/policy/overlap_plan.h): steps and groups.
#include "config.h"
#include "overlap_plan.h"
#include "stats.h"

#include <gtest/gtest.h>

using irregfix::HoistPlan;
using irregfix::HoistStep;
using namespace irregfix;
using namespace irregfix::detail;

TEST(HoistPlan, ParsesTheGroup) {
  EXPECT_EQ(parse_hoist_group(nullptr), 0);
  EXPECT_EQ(parse_hoist_group(""), 0);
  EXPECT_EQ(parse_hoist_group("1"), 1);
  EXPECT_EQ(parse_hoist_group("16"), 16);
  EXPECT_EQ(parse_hoist_group("0"), -1);
  EXPECT_EQ(parse_hoist_group("-2"), -1);
  EXPECT_EQ(parse_hoist_group("4x"), -1);
  EXPECT_EQ(parse_hoist_group("99999999999"), -1);
}

TEST(HoistPlan, ParsesAlways) {
  EXPECT_FALSE(parse_hoist_always(nullptr));
  EXPECT_FALSE(parse_hoist_always(""));
  EXPECT_FALSE(parse_hoist_always("0"));
  EXPECT_TRUE(parse_hoist_always("1"));
  EXPECT_FALSE(parse_hoist_always("yes"));
  EXPECT_FALSE(parse_hoist_always("10"));
}

TEST(HoistPlan, OneIterationAStepIsThePapersForm) {
  HoistPlan p = plan_hoist(7, 1);
  EXPECT_EQ(p.steps, 7);
  for (int s = 0; s < p.steps; ++s) {
    HoistStep st = irregfix::hoist_step(p, s);
    EXPECT_EQ(st.begin, s);
    EXPECT_EQ(st.end, s + 1);
    EXPECT_EQ(st.epilogue, 0);
  }
}

TEST(HoistPlan, GroupsCoverEveryIterationOnce) {
  for (long long width : {1LL, 5LL, 8LL, 9LL, 100LL, 1001LL})
    for (int group : {0, 1, 2, 3, 4, 64}) {
      HoistPlan p = plan_hoist(width, group);
      long long next = 0;
      for (int s = 0; s < p.steps; ++s) {
        HoistStep st = irregfix::hoist_step(p, s);
        EXPECT_EQ(st.begin, next) << width << " " << group;
        EXPECT_GT(st.end, st.begin);
        next = st.end;
      }
      EXPECT_EQ(next, width) << width << " " << group;
    }
}

TEST(HoistPlan, DefaultIsFourSteps) {
  EXPECT_EQ(plan_hoist(100, 0).steps, kHoistDefaultSteps);
  EXPECT_EQ(plan_hoist(100, 0).group, 25);
  EXPECT_EQ(plan_hoist(3, 0).steps, 3); // fewer iterations than steps: one each
  EXPECT_EQ(plan_hoist(101, 0).steps, 4);
}

TEST(HoistPlan, NoIterationsNoStepsAndNothingCarried) {
  HoistPlan p = plan_hoist(0, 0);
  EXPECT_EQ(p.steps, 0);
  HoistStep e = irregfix::hoist_epilogue(p);
  EXPECT_EQ(e.epilogue, 1);
  EXPECT_EQ(e.carried, 0);
  EXPECT_EQ(irregfix::hoist_epilogue(plan_hoist(5, 2)).carried, 1);
}

TEST(HoistPlan, StatsReportHoistedLaunches) {
  std::map<std::string, SiteStats> stats;
  SiteStats &s = stats["a.cu:1:1"];
  s.id = "a.cu:1:1";
  s.kernel = "k";
  s.pattern = "range";
  EXPECT_EQ(format_stats(stats).find("hoisted"), std::string::npos);
  s.hoisted_launches = 3;
  s.hoisted_steps = 12;
  s.hoist_group = 25;
  s.hoist_in_kernel = 40;
  EXPECT_NE(format_stats(stats).find("irregfix:   hoisted: launches 3, steps 12 (25 iterations a step); "
                                     "in-kernel loop with nothing to overlap 40\n"),
            std::string::npos);
  s.hoist_declined = 1;
  s.hoist_last_decline = "CUDA error in cudaMalloc";
  EXPECT_NE(format_stats(stats).find("declined 1 (CUDA error in cudaMalloc)"), std::string::npos);
}
