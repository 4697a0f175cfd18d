#include "AnalysisTestUtil.h"
#include "Analysis/AnalysisBudget.h"
#include "Decide/DecideFile.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

TEST(AnalysisBudget, NoScopeNoLimit) {
  for (int I = 0; I < 1000; ++I)
    checkAnalysisBudget(); // outside any scope: never throws
}

TEST(AnalysisBudget, SpentBudgetThrowsAndUnlimitedDoesNot) {
  {
    AnalysisBudgetScope Unlimited(-1);
    for (int I = 0; I < 1000; ++I)
      checkAnalysisBudget();
  }
  AnalysisBudgetScope Spent(0);
  EXPECT_TRUE(Spent.expired());
  EXPECT_THROW(checkAnalysisBudget(), AnalysisBudgetExceeded);
}

TEST(AnalysisBudget, AnInnerScopeEndsAndTheOuterOneHoldsAgain) {
  AnalysisBudgetScope Outer(-1);
  {
    AnalysisBudgetScope Inner(0);
    EXPECT_THROW(checkAnalysisBudget(), AnalysisBudgetExceeded);
  }
  for (int I = 0; I < 1000; ++I)
    checkAnalysisBudget();
}

TEST(AnalysisBudget, AKernelPastItsBudgetIsLeftAsItIsAndTheNextIsDecided) {
  const std::string Code = "__global__ void a(int n, const int *s, const float *t, float *o) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = t[s[i]]; }\n"
                           "__global__ void b(int n, const int *s, const float *t, float *o) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = t[s[i]]; }\n";
  std::vector<const clang::FunctionDecl *> Kernels;
  std::vector<std::string> LeftSpent, LeftUnlimited;
  size_t ReadsUnlimited = 0;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    Kernels.push_back(K);
    if (Kernels.size() < 2)
      return;
    DecideOptions Spent;
    Spent.Budget.Seconds = 0;
    Spent.Budget.Described = "none";
    for (const KernelDecision &D : decideFile(Kernels, Ctx, nullptr, Spent)) {
      LeftSpent.push_back(D.LeftAsIs);
      EXPECT_TRUE(D.Info.Reads.empty());
      EXPECT_FALSE(D.rewritten());
    }
    for (const KernelDecision &D : decideFile(Kernels, Ctx, nullptr, DecideOptions())) {
      LeftUnlimited.push_back(D.LeftAsIs);
      ReadsUnlimited += D.Info.Reads.size();
    }
  });
  ASSERT_EQ(LeftSpent.size(), 2u);
  EXPECT_EQ(LeftSpent[0], "its analysis ran past its budget (none)");
  EXPECT_EQ(LeftSpent[1], "its analysis ran past its budget (none)");
  EXPECT_EQ(LeftUnlimited, std::vector<std::string>(2, ""));
  EXPECT_EQ(ReadsUnlimited, 2u);
}

} // namespace
