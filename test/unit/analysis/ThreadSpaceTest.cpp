// Thread spaces beyond the guarded 1-D index: linear indices of 2-D and 3-D
// thread indices (n is the product of each index's guard bound) and kernels
// no guard bounds (n is the launch's thread count).
#include "AnalysisTestUtil.h"
#include "Analysis/SiteFinder.h"
#include "Decide/DecideFile.h"

#include <gtest/gtest.h>

using namespace irregfix::test;

namespace {

// The pattern sites of Code's one kernel as the site finder leaves them,
// refused ones included (analyzeKernel gives refused reads to indexed sites).
std::vector<SiteSummary> patternSitesOf(const std::string &Code) {
  std::vector<SiteSummary> Out;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    irregfix::KernelInfo Info;
    Info.Kernel = K;
    irregfix::WriteSet W = irregfix::WriteSet::of(K, /*DeviceOnly=*/nullptr);
    irregfix::findPatternSites(Info, Ctx, W);
    for (const irregfix::Site &S : Info.Sites) {
      SiteSummary Sum;
      Sum.Pattern = irregfix::pattern_name(S.Pattern);
      Sum.Refused = S.RefusedBecause;
      for (const irregfix::SiteArray &A : S.Arrays)
        if (Sum.Refused.empty() && !A.RefusedBecause.empty())
          Sum.Refused = A.RefusedBecause;
      Sum.Transformable = S.transformable();
      Sum.LaunchThreads = S.LaunchThreads;
      Out.push_back(Sum);
    }
  });
  return Out;
}

const char *Dims2 = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "int j = blockIdx.y * blockDim.y + threadIdx.y;\n";
const char *Dims3 = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "int j = blockIdx.y * blockDim.y + threadIdx.y;\n"
                    "int k = blockIdx.z * blockDim.z + threadIdx.z;\n";

// A gather at Index under Guard, in a kernel of nx, ny, nz.
std::string gather(const std::string &Dims, const std::string &Guard, const std::string &Index) {
  return "__global__ void g(int nx, int ny, int nz, const int *B, const float *A, float *y) {\n" + Dims + Guard +
         " {\n  int c = " + Index + ";\n  y[c] = A[B[c]];\n }\n}\n";
}

SiteSummary only(const std::string &Code, bool PatternSitesOnly = false) {
  auto Sites = PatternSitesOnly ? patternSitesOf(Code) : sitesOf(Code);
  EXPECT_EQ(Sites.size(), 1u) << Code;
  return Sites.empty() ? SiteSummary{} : Sites[0];
}

TEST(LinearThreadIndex, SpellingsOf2DGiveTheProductOfTheBounds) {
  for (const char *Index : {"i + nx * j", "j * nx + i", "nx * j + i", "i + j * nx"}) {
    SiteSummary S = only(gather(Dims2, "if (i < nx && j < ny)", Index));
    EXPECT_TRUE(S.Transformable) << Index << ": " << S.Refused;
    EXPECT_EQ(S.Pattern, "gather");
    EXPECT_EQ(S.Extents, "nx*ny") << Index;
    EXPECT_EQ(S.Bound, "") << "a linear index has no single bound";
  }
}

TEST(LinearThreadIndex, EarlyReturnsAndReversedComparisonsAreGuards) {
  for (const char *Guard : {"if (i >= nx || j >= ny) return; {", "if (nx > i) if (ny > j)",
                            "if (j >= ny) return; if (i < nx)"}) {
    std::string Code = gather(Dims2, Guard, "i + nx * j");
    if (std::string(Guard).back() == '{')
      Code += "}\n"; // the block the early return leaves open
    SiteSummary S = only(Code);
    EXPECT_TRUE(S.Transformable) << Guard << ": " << S.Refused;
    EXPECT_EQ(S.Extents, "nx*ny") << Guard;
  }
}

TEST(LinearThreadIndex, ThreeDimensionsInEitherNesting) {
  for (const char *Index : {"i + nx * j + nx * ny * k", "(k * ny + j) * nx + i", "i + nx * (j + ny * k)",
                            "k * nx * ny + j * nx + i"}) {
    SiteSummary S = only(gather(Dims3, "if (i < nx && j < ny && k < nz)", Index));
    EXPECT_TRUE(S.Transformable) << Index << ": " << S.Refused;
    EXPECT_EQ(S.Extents, "nx*ny*nz") << Index;
  }
}

TEST(LinearThreadIndex, InlineIndexAndRangeLoops) {
  SiteSummary G = only("__global__ void g(int nx, int ny, const int *B, const float *A, float *y) {\n" +
                       std::string(Dims2) + "if (i < nx && j < ny) y[j * nx + i] = A[B[j * nx + i]];\n}\n");
  EXPECT_TRUE(G.Transformable) << G.Refused;
  EXPECT_EQ(G.Extents, "nx*ny");
  SiteSummary R = only("__global__ void r(int nx, int ny, const int *B, const float *A, float *y) {\n" +
                       std::string(Dims2) +
                       "if (i < nx && j < ny) {\n int c = i + nx * j; float s = 0;\n"
                       " for (int e = B[c]; e < B[c + 1]; ++e) s += A[e];\n y[c] = s;\n }\n}\n");
  EXPECT_EQ(R.Pattern, "range");
  EXPECT_TRUE(R.Transformable) << R.Refused;
  EXPECT_EQ(R.Extents, "nx*ny");
}

TEST(LinearThreadIndex, ChainsAndNeighbourLists) {
  SiteSummary G2 = only("__global__ void g(int nx, int ny, const int *C, const int *B, const float *A, float *y) {\n" +
                        std::string(Dims2) + "if (i < nx && j < ny) { int c = i + nx * j; y[c] = A[B[C[c]]]; }\n}\n");
  EXPECT_EQ(G2.Pattern, "gather2");
  EXPECT_TRUE(G2.Transformable) << G2.Refused;
  EXPECT_EQ(G2.Extents, "nx*ny");
  SiteSummary N = only("__global__ void m(int nx, int ny, int w, const int *cnt, const int *nl, const float *p, "
                       "float *f) {\n" +
                       std::string(Dims2) +
                       "if (i < nx && j < ny) {\n int c = i + nx * j; float s = 0;\n"
                       " for (int q = 0; q < cnt[c]; ++q) s += p[nl[q * w + c]];\n f[c] = s;\n }\n}\n");
  EXPECT_EQ(N.Pattern, "neighbors");
  EXPECT_TRUE(N.Transformable) << N.Refused;
  EXPECT_EQ(N.Extents, "nx*ny");
}

TEST(LinearThreadIndex, EachIndexNeedsAGuard) {
  SiteSummary S = only(gather(Dims2, "if (i < nx)", "i + nx * j"));
  EXPECT_FALSE(S.Transformable);
  EXPECT_NE(S.Refused.find("no guard bounds 'j', the y index"), std::string::npos) << S.Refused;
}

TEST(LinearThreadIndex, StrideMustBeTheBoundBefore) {
  SiteSummary Y = only(gather(Dims2, "if (i < nx && j < ny)", "i + ny * j"));
  EXPECT_FALSE(Y.Transformable);
  EXPECT_NE(Y.Refused.find("not one-to-one: 'j' is multiplied by 'ny', not by 'nx'"), std::string::npos)
      << Y.Refused;
  SiteSummary Z = only(gather(Dims3, "if (i < nx && j < ny && k < nz)", "i + nx * j + nx * nz * k"));
  EXPECT_FALSE(Z.Transformable);
  EXPECT_NE(Z.Refused.find("'k' is multiplied by 'nx * nz', not by 'nx * ny'"), std::string::npos) << Z.Refused;
  SiteSummary X = only(gather(Dims2, "if (i < nx && j < ny)", "2 * i + nx * j"));
  EXPECT_FALSE(X.Transformable);
  EXPECT_NE(X.Refused.find("its x index must step by 1"), std::string::npos) << X.Refused;
}

TEST(LinearThreadIndex, OneSiteReadAtTwoNumberingsIsRefused) {
  SiteSummary S = only("__global__ void g(int nx, int ny, const int *B, const float *A, float *y) {\n" +
                       std::string(Dims2) +
                       "if (i < nx && j < ny) y[i + nx * j] = A[B[i + nx * j]] + A[B[i]];\n}\n",
                       /*PatternSitesOnly=*/true);
  EXPECT_FALSE(S.Transformable);
  EXPECT_NE(S.Refused.find("read at two thread indices"), std::string::npos) << S.Refused;
}

// Reads whose index is computed from a value loaded at the linear index (a
// cell's material, its list of fractions) go to indexed sites laid out in
// that index over nx * ny threads.
const char *CellMaterials = R"cu(
__global__ void cells(int nx, int ny, const int *mat, const int *first, const float *frac, const float *dens,
                      float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny)
    return;
  int c = nx * j + i;
  int m = mat[c];
  float s = dens[m > 0 ? m - 1 : 0];
  if (m <= 0)
    for (int k = first[-m]; k < first[-m + 1]; ++k)
      s += frac[k];
  out[c] = s;
}
)cu";

TEST(LinearThreadIndex, IndexedSitesTakeIndicesLoadedAtIt) {
  auto Sites = sitesOf(CellMaterials);
  size_t Indexed = 0;
  for (const SiteSummary &S : Sites) {
    if (S.Pattern != "indexed")
      continue;
    ++Indexed;
    EXPECT_TRUE(S.Transformable) << S.Refused;
    EXPECT_EQ(S.Extents, "nx*ny");
    EXPECT_FALSE(S.LaunchThreads);
  }
  EXPECT_EQ(Indexed, 2u) << "one gather site (dens, first's bounds) and one loop site (frac)";
}

// What the kernel as a whole is allowed with such sites: its copies are laid
// out in c in thread order, so no layout that permutes, chunks, stages or
// splits its threads, and no hoisted loop, even where asked for.
TEST(LinearThreadIndex, IndexedSitesKeepTheKernelWholeAndInOrder) {
  std::vector<const clang::FunctionDecl *> Kernels;
  bool Checked = false;
  forEachKernel(CellMaterials, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    Kernels.push_back(K);
    irregfix::DecideOptions Options;
    Options.Hoist.All = true;
    Options.Reassociate = true;
    for (const irregfix::KernelDecision &D : irregfix::decideFile(Kernels, Ctx, nullptr, Options)) {
      EXPECT_TRUE(D.Info.hasTransformableSite());
      EXPECT_FALSE(D.Info.Perm.Permutable);
      EXPECT_FALSE(D.Info.Chunks.Chunkable);
      EXPECT_FALSE(D.Info.Share.Shareable);
      EXPECT_FALSE(D.Info.Lanes.Qualifies);
      EXPECT_FALSE(D.Info.Hoist.Hoistable);
      EXPECT_FALSE(D.Info.OrderOnly);
      Checked = true;
    }
  });
  EXPECT_TRUE(Checked);
}

// The verdict of each indirect read of Code's kernel, a line each:
// "rewritten" or the reason it is not.
std::string readVerdicts(const std::string &Code) {
  std::string Out;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    irregfix::KernelInfo Info = irregfix::analyzeKernel(K, Ctx, /*DeviceOnly=*/nullptr);
    for (const irregfix::ReadVerdict &V : Info.Reads)
      Out += (V.Verdict == irregfix::ReadVerdict::Rewritten ? std::string("rewritten") : V.Reason) + "\n";
  });
  return Out;
}

// y[c] = A[Index], c = Cell, under Guard.
std::string computedGather(const std::string &Guard, const std::string &Cell, const std::string &Index) {
  return "__global__ void g(int nx, int ny, int pitch, const int *B, const float *A, float *y) {\n" +
         std::string(Dims2) + Guard + " y[" + Cell + "] = A[" + Index + "];\n}\n";
}

TEST(LinearThreadIndex, IndexedSitesNeedEachGuardAndTheBoundAsStride) {
  const std::string Both = "if (i < nx && j < ny)";
  EXPECT_EQ(readVerdicts(computedGather(Both, "i + nx * j", "B[i + nx * j] - 1")), "rewritten\n");
  EXPECT_EQ(readVerdicts(computedGather(Both, "j * nx + i", "B[j * nx + i] - 1")), "rewritten\n");
  std::string Pitch = readVerdicts(computedGather(Both, "i + pitch * j", "B[i + pitch * j] - 1"));
  EXPECT_NE(Pitch.find("not one-to-one: 'j' is multiplied by 'pitch', not by 'nx'"), std::string::npos) << Pitch;
  std::string NoY = readVerdicts(computedGather("if (i < nx)", "i + nx * j", "B[i + nx * j] - 1"));
  EXPECT_NE(NoY.find("no guard bounds 'j', the y index"), std::string::npos) << NoY;
  // j alone, or i beside the cell: the launch's own numbering of its threads takes them.
  EXPECT_EQ(readVerdicts(computedGather(Both, "i + nx * j", "B[j] - 1")), "rewritten\n");
  EXPECT_EQ(readVerdicts(computedGather(Both, "i + nx * j", "B[i + nx * j] + i")), "rewritten\n");
}

TEST(LinearThreadIndex, IndexedSitesTakeARowPitchAtLeastTheBound) {
  // nx - 1 and nx - 2 are below the pitch nx in int: rows of nx positions.
  EXPECT_EQ(readVerdicts(computedGather("if (i < nx - 1 && j < ny)", "i + nx * j", "B[i + nx * j] - 1")),
            "rewritten\n");
  EXPECT_EQ(readVerdicts(computedGather("if (i >= 1 && i < (nx - 2) && j < ny)", "j * nx + i", "B[j * nx + i] - 1")),
            "rewritten\n");
  // nx + 1 may pass the pitch; nx - ny is not nx less a constant.
  for (const char *Bound : {"nx + 1", "nx - ny"}) {
    std::string Why = readVerdicts(
        computedGather("if (i < " + std::string(Bound) + " && j < ny)", "i + nx * j", "B[i + nx * j] - 1"));
    EXPECT_NE(Why.find("not one-to-one: 'j' is multiplied by 'nx', not by '" + std::string(Bound) + "'"),
              std::string::npos)
        << Why;
  }
}

TEST(LaunchThreads, UnguardedKernelsCoverTheLaunch) {
  SiteSummary G = only("__global__ void g(const int *B, const float *A, float *y) {\n"
                       "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  y[t] = A[B[t]];\n}\n");
  EXPECT_EQ(G.Pattern, "gather");
  EXPECT_TRUE(G.Transformable) << G.Refused;
  EXPECT_TRUE(G.LaunchThreads);
  // A neighbour list's own loop and a condition on other values keep no thread from the read.
  SiteSummary N = only("__global__ void md(const int *nl, const int *cnt, const float *p, float *f, int m, int on) {\n"
                       "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  float s = 0;\n"
                       "  if (on == 0) return;\n"
                       "  for (int j = 0; j < cnt[t]; ++j) s += p[nl[j * m + t]];\n  f[t] = s;\n}\n");
  EXPECT_EQ(N.Pattern, "neighbors");
  EXPECT_TRUE(N.Transformable) << N.Refused;
  EXPECT_TRUE(N.LaunchThreads);
}

TEST(LaunchThreads, AConditionOnThePositionIsNotWidened) {
  for (const char *Cond : {"if (t + 1 < n)", "if (t % 2 == 0)", "if (threadIdx.x < 32)", "if (B[t] >= 0)"}) {
    SiteSummary S = only(std::string("__global__ void g(int n, const int *B, const float *A, float *y) {\n"
                                     "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  ") +
                         Cond + " y[t] = A[B[t]];\n}\n",
                         /*PatternSitesOnly=*/true);
    EXPECT_EQ(S.Pattern, "gather") << Cond;
    EXPECT_FALSE(S.LaunchThreads) << Cond;
    EXPECT_NE(S.Refused.find("no guard"), std::string::npos) << Cond << ": " << S.Refused;
  }
}

TEST(LaunchThreads, ALinearIndexNeedsItsGuards) {
  SiteSummary S = only(gather(Dims2, "", "i + nx * j"));
  EXPECT_FALSE(S.Transformable);
  EXPECT_FALSE(S.LaunchThreads);
  EXPECT_NE(S.Refused.find("no guard bounds 'i'"), std::string::npos) << S.Refused;
}

} // namespace
