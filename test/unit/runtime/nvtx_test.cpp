// NVTX ranges of the runtime (runtime/src/core/nvtx.h), recorded by an NVTX tool of
// our own (nvtx_recorder.h, linked into this program). Off (IRREGFIX_NVTX
// unset), nothing may reach NVTX. Needs no GPU.
#include "nvtx_recorder.h"

#include "nvtx.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace irregfix::detail;
using nvtx_recorder::recorded;
using nvtx_recorder::take_events;

TEST(Nvtx, NamesSayWhatForWhichKernelAndSite) {
  EXPECT_EQ(nvtx_name(Work::kRemap, "cg.cu:35:5", "spmv_csr", "ell-colmajor"),
            "remap spmv_csr @ cg.cu:35:5 [ell-colmajor]");
  EXPECT_EQ(nvtx_name(Work::kProbe, "a.cu:1:1", "k", "original"), "probe k @ a.cu:1:1 [original]");
  EXPECT_EQ(nvtx_name(Work::kChunk, "a.cu:1:1", "k", ""), "chunk k @ a.cu:1:1");
  EXPECT_EQ(nvtx_name(Work::kHoistedStep, nullptr, nullptr, "step 2"), "step ? @ ? [step 2]");
  EXPECT_STREQ(work_name(Work::kRefresh), "refresh");
  EXPECT_STREQ(work_name(Work::kDecision), "decision");
  EXPECT_STREQ(work_name(Work::kCopies), "copies");
}

TEST(Nvtx, OffRecordsNothing) {
  take_events();
  {
    NvtxRange r;
    r.start(false, Work::kRemap, "a.cu:1:1", "k", "ell-colmajor");
    EXPECT_FALSE(r.open());
    nvtx_mark(false, Work::kDecision, "a.cu:1:1", "k", "original");
  }
  EXPECT_TRUE(take_events().empty());
}

TEST(Nvtx, RangesAndMarksReachTheToolInTheIrregfixDomain) {
  take_events();
  {
    NvtxRange r;
    r.start(true, Work::kRemap, "cg.cu:35:5", "spmv_csr", "sell-32-sigma");
    EXPECT_TRUE(r.open());
    nvtx_mark(true, Work::kDecision, "cg.cu:35:5", "spmv_csr", "sell-32-sigma: saves 40 us");
    r.end();
    EXPECT_FALSE(r.open());
    r.end(); // ending twice ends once
  }
  const std::vector<std::string> e = take_events();
  const std::vector<std::string> want = {
      "start irregfix: remap spmv_csr @ cg.cu:35:5 [sell-32-sigma]",
      "mark irregfix: decision spmv_csr @ cg.cu:35:5 [sell-32-sigma: saves 40 us]",
      "end irregfix: remap spmv_csr @ cg.cu:35:5 [sell-32-sigma]",
  };
  EXPECT_EQ(e, want);
  EXPECT_NE(recorded.last_colour, 0u);
}

// Chunks and hoisted steps: starting the next part ends the one before; the
// end of the launch (destruction, or moving an empty range in) ends the last.
TEST(Nvtx, StartingTheNextPartEndsThePreviousOne) {
  take_events();
  {
    NvtxRange part;
    part.start(true, Work::kChunk, "a.cu:1:1", "k", "1 of 2");
    part.start(true, Work::kChunk, "a.cu:1:1", "k", "2 of 2");
    NvtxRange probe;
    probe.start(true, Work::kProbe, "a.cu:1:1", "k", "original");
    part = NvtxRange{};
    EXPECT_FALSE(part.open());
  }
  const std::vector<std::string> want = {
      "start irregfix: chunk k @ a.cu:1:1 [1 of 2]", "end irregfix: chunk k @ a.cu:1:1 [1 of 2]",
      "start irregfix: chunk k @ a.cu:1:1 [2 of 2]", "start irregfix: probe k @ a.cu:1:1 [original]",
      "end irregfix: chunk k @ a.cu:1:1 [2 of 2]",   "end irregfix: probe k @ a.cu:1:1 [original]",
  };
  EXPECT_EQ(take_events(), want);
  EXPECT_TRUE(recorded.open.empty());
}
