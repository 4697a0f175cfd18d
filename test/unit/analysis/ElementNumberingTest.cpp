// Which element index a kernel has for program-wide renumbering: its thread,
// or the group of G lanes a row of a vector CSR kernel (ElementNumbering.h).
#include "AnalysisTestUtil.h"

#include "Analysis/ElementNumbering.h"

#include <gtest/gtest.h>

namespace irregfix::test {
namespace {

struct Summary {
  std::string NotBecause;
  unsigned Lanes = 0;
  bool LanesInX = false;
  std::vector<unsigned> Roles;
};

Summary numberingOf(const std::string &Code) {
  Summary Out;
  EXPECT_TRUE(forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    const KernelInfo Info = analyzeKernel(K, Ctx, /*DeviceOnly=*/nullptr);
    const KernelNumbering N = analyzeNumbering(Info, Ctx, /*Reassociate=*/false);
    Out.NotBecause = N.NotBecause;
    Out.Lanes = N.Lanes;
    Out.LanesInX = N.LanesInX;
    for (const NumberingParam &P : N.Pointers)
      Out.Roles.push_back(P.Role);
  }));
  return Out;
}

// A row of G lanes: `Row` and `Lane` declare row and lane, `Step` the loop's stride,
// `Reduce` the exchange that leaves the sum on lane 0.
std::string laneKernel(const std::string &Row, const std::string &Lane, const std::string &Step,
                       const std::string &Reduce) {
  return "__global__ void k(int n, const int *P, const int *col, const float *val, const float *x, float *y) {\n"
         "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  " + Row + "\n  " + Lane + "\n"
         "  if (row < n) {\n    float s = 0.0f;\n"
         "    for (int k = P[row] + lane; k < P[row + 1]; k += " + Step + ") s += val[k] * x[col[k]];\n"
         "    " + Reduce + "\n    if (lane == 0) y[row] = s;\n  }\n}\n";
}

TEST(LaneRows, AWarpARowNumbersItsRows) {
  const Summary S = numberingOf(laneKernel("int row = t / 32;", "int lane = t & 31;", "32",
                                           "for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);"));
  EXPECT_EQ(S.NotBecause, "");
  EXPECT_EQ(S.Lanes, 32u);
  EXPECT_EQ(S.Roles, (std::vector<unsigned>{kRoleRows, kRoleSegments | kRoleNumbers, kRoleSegments, kRoleElements,
                                            kRoleElements}));
}

TEST(LaneRows, EveryPowerOfTwoUpToAWarp) {
  for (unsigned G : {2u, 4u, 8u, 16u, 32u}) {
    const std::string Gs = std::to_string(G), Half = std::to_string(G / 2);
    unsigned Shift = 0;
    while ((1u << Shift) < G)
      ++Shift;
    const Summary S = numberingOf(laneKernel("int row = t >> " + std::to_string(Shift) + ";",
                                             "int lane = threadIdx.x % " + Gs + ";", Gs,
                                             "for (int o = " + Half + "; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);"));
    EXPECT_EQ(S.NotBecause, "") << G;
    EXPECT_EQ(S.Lanes, G);
  }
}

TEST(LaneRows, OtherGroupsAreNoRows) {
  // 24 lanes: not a power of two, so t / 24 is arithmetic on the thread index.
  EXPECT_NE(numberingOf(laneKernel("int row = t / 24;", "int lane = t % 24;", "24", "")).NotBecause, "");
  // 64 lanes: a group would span two warps.
  EXPECT_NE(numberingOf(laneKernel("int row = t / 64;", "int lane = t % 64;", "64", "")).NotBecause, "");
}

TEST(LaneRows, TheLaneAndTheStepMustMatchTheGroup) {
  const Summary Lane = numberingOf(laneKernel("int row = t / 32;", "int lane = t % 16;", "32", ""));
  EXPECT_NE(Lane.NotBecause.find("its lane 'lane' is of groups of 16 threads, its row 'row' of 32"), std::string::npos)
      << Lane.NotBecause;
  EXPECT_NE(numberingOf(laneKernel("int row = t / 32;", "int lane = t % 32;", "16", "")).NotBecause, "");
}

TEST(LaneRows, ExchangesStayInTheGroup) {
  const std::string Row = "int row = t / 8;", Lane = "int lane = t % 8;";
  EXPECT_EQ(numberingOf(laneKernel(Row, Lane, "8", "s += __shfl_xor_sync(0xffffffff, s, 4); "
                                                   "s += __shfl_xor_sync(0xffffffff, s, 2); "
                                                   "s += __shfl_xor_sync(0xffffffff, s, 1);"))
                .NotBecause,
            "");
  const Summary Xor = numberingOf(laneKernel(Row, Lane, "8", "s += __shfl_xor_sync(0xffffffff, s, 8);"));
  EXPECT_NE(Xor.NotBecause.find("across groups of 8"), std::string::npos) << Xor.NotBecause;
  // Down offsets 4, 2, 1 reach 7 lanes from lane 0; another 1 would reach the next row.
  const Summary Down = numberingOf(laneKernel(
      Row, Lane, "8",
      "for (int o = 4; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o); s += __shfl_down_sync(0xffffffff, s, 1);"));
  EXPECT_NE(Down.NotBecause.find("across groups of 8"), std::string::npos) << Down.NotBecause;
  // The exchanged value kept in another variable is not followed.
  const Summary Kept = numberingOf(laneKernel(Row, Lane, "8", "float u = __shfl_down_sync(0xffffffff, s, 4); s += u;"));
  EXPECT_NE(Kept.NotBecause.find("exchange values other than"), std::string::npos) << Kept.NotBecause;
}

// The store on lane 0 may carry the row's guard; a disjunction lets other lanes store.
TEST(LaneRows, LaneZeroMayShareItsConditionWithTheGuard) {
  const auto Kernel = [](const std::string &Store) {
    return "__global__ void k(int n, const int *P, const float *val, float *y) {\n"
           "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  int row = t / 32, lane = t % 32;\n"
           "  float s = 0.0f;\n"
           "  if (row < n) for (int k = P[row] + lane; k < P[row + 1]; k += 32) s += val[k];\n"
           "  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);\n"
           "  if (" + Store + ") y[row] = s;\n}\n";
  };
  EXPECT_EQ(numberingOf(Kernel("row < n && lane == 0")).NotBecause, "");
  EXPECT_EQ(numberingOf(Kernel("(lane == 0) && (row < n)")).NotBecause, "");
  const Summary Or = numberingOf(Kernel("row < n || lane == 0"));
  EXPECT_NE(Or.NotBecause.find("it uses its lane 'lane'"), std::string::npos) << Or.NotBecause;
}

// Lane 0's sum handed to every lane of the group: any lane may store it then.
TEST(LaneRows, ABroadcastFromLaneZeroCleansEveryLane) {
  const auto Kernel = [](unsigned G, const std::string &After) {
    const std::string Gs = std::to_string(G), Half = std::to_string(G / 2);
    return "__global__ void k(int n, const int *P, const float *val, float *y) {\n"
           "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  int row = t / " + Gs + ", lane = t % " + Gs + ";\n"
           "  if (row < n) {\n    float s = 0.0f;\n"
           "    for (int k = P[row] + lane; k < P[row + 1]; k += " + Gs + ") s += val[k];\n"
           "    for (int o = " + Half + "; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);\n"
           "    " + After + "\n  }\n}\n";
  };
  EXPECT_EQ(numberingOf(Kernel(32, "s = __shfl_sync(0xffffffff, s, 0); y[row] = s;")).NotBecause, "");
  EXPECT_EQ(numberingOf(Kernel(8, "s = __shfl_sync(0xffffffff, s, 0, 8); y[row] = s;")).NotBecause, "");
  // Without the width, groups of 8 get the warp's lane 0, another row's sum.
  EXPECT_NE(numberingOf(Kernel(8, "s = __shfl_sync(0xffffffff, s, 0); y[row] = s;")).NotBecause.find("from lane 0 of the group"),
            std::string::npos);
  // From lane 1, or only on some lanes: the others keep sums that run into the next rows.
  EXPECT_NE(numberingOf(Kernel(32, "s = __shfl_sync(0xffffffff, s, 1); y[row] = s;")).NotBecause, "");
  const Summary Some = numberingOf(Kernel(32, "if (n > 4) s = __shfl_sync(0xffffffff, s, 0); y[row] = s;"));
  EXPECT_NE(Some.NotBecause.find("its lanes each store their own 's' into 'y[row]'"), std::string::npos)
      << "[" << Some.NotBecause << "]";
  // A down exchange after the broadcast needs lane 0 again.
  EXPECT_NE(numberingOf(Kernel(32, "s = __shfl_sync(0xffffffff, s, 0); s += __shfl_down_sync(0xffffffff, s, 16); "
                                   "y[row] = s;"))
                .NotBecause,
            "");
}

// A block's row of threads in x a row: `Row` declares m, `Lane` the lane
// (empty: threadIdx.x read where it is used), `Step` the loop's stride,
// `Store` the condition of the store.
std::string blockRowKernel(const std::string &Row, const std::string &Lane, const std::string &Step,
                           const std::string &Store = "lane == 0") {
  const std::string L = Lane.empty() ? "threadIdx.x" : "lane";
  std::string Cond = Store;
  for (size_t At = Cond.find("lane"); At != std::string::npos; At = Cond.find("lane", At + L.size()))
    Cond.replace(At, 4, L);
  return "__global__ void k(int n, const int *P, const int *col, const float *val, const float *x, float *y) {\n"
         "  " + Row + "\n  " + Lane + "\n"
         "  if (m < n) {\n    float s = 0.0f;\n"
         "    for (int k = P[m] + " + L + "; k < P[m + 1]; k += " + Step + ") s += val[k] * x[col[k]];\n"
         "    for (int o = " + Step + " / 2; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o, " + Step + ");\n"
         "    if (" + Cond + ") y[m] = s;\n  }\n}\n";
}

TEST(LaneRows, ABlocksRowOfThreadsInXIsARow) {
  for (unsigned G : {2u, 4u, 8u, 16u, 32u}) {
    const Summary S = numberingOf(blockRowKernel("int m = blockIdx.x * blockDim.y + threadIdx.y;", "", std::to_string(G)));
    EXPECT_EQ(S.NotBecause, "") << G;
    EXPECT_EQ(S.Lanes, G);
    EXPECT_TRUE(S.LanesInX);
    EXPECT_EQ(S.Roles, (std::vector<unsigned>{kRoleRows, kRoleSegments | kRoleNumbers, kRoleSegments, kRoleElements,
                                              kRoleElements}));
  }
  // The terms and factors in either order, the lane in a local.
  const Summary Local = numberingOf(
      blockRowKernel("const int m = threadIdx.y + blockDim.y * blockIdx.x;", "const unsigned lane = threadIdx.x;", "4"));
  EXPECT_EQ(Local.NotBecause, "");
  EXPECT_EQ(Local.Lanes, 4u);
}

TEST(LaneRows, ABlocksRowNeedsItsOwnDimensions) {
  // blockDim.x is the lanes' count, not the rows' a block.
  EXPECT_NE(numberingOf(blockRowKernel("int m = blockIdx.x * blockDim.x + threadIdx.y;", "", "4")).NotBecause, "");
  // The stride must be the constant the exchanges are checked against.
  const Summary Dim = numberingOf(blockRowKernel("int m = blockIdx.x * blockDim.y + threadIdx.y;", "", "blockDim.x"));
  EXPECT_NE(Dim.NotBecause.find("by other than a constant power of two up to 32"), std::string::npos) << Dim.NotBecause;
  const Summary Mask = numberingOf(
      blockRowKernel("int m = blockIdx.x * blockDim.y + threadIdx.y;", "int lane = threadIdx.x & 7;", "4"));
  EXPECT_NE(Mask.NotBecause.find("its lane 'lane' is of groups of 8 threads, its lanes' loop strides by 4"),
            std::string::npos)
      << Mask.NotBecause;
}

TEST(LaneRows, ABlocksRowStoresFromLaneZeroOnly) {
  const std::string Row = "int m = blockIdx.x * blockDim.y + threadIdx.y;";
  EXPECT_EQ(numberingOf(blockRowKernel(Row, "", "8", "m < n && lane == 0")).NotBecause, "");
  const Summary Every = numberingOf(blockRowKernel(Row, "", "8", "m < n"));
  EXPECT_NE(Every.NotBecause.find("its lanes each store their own 's' into 'y[m]'"), std::string::npos)
      << Every.NotBecause;
  const Summary Lane1 = numberingOf(blockRowKernel(Row, "", "8", "lane == 1"));
  EXPECT_NE(Lane1.NotBecause.find("it uses its lane 'threadIdx.x'"), std::string::npos) << Lane1.NotBecause;
}

TEST(LaneRows, AThreadARowIsUnchanged) {
  const Summary S = numberingOf(
      "__global__ void k(int n, const int *P, const int *col, const float *val, const float *x, float *y) {\n"
      "  int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (row < n) { float s = 0.0f;\n"
      "    for (int k = P[row]; k < P[row + 1]; ++k) s += val[k] * x[col[k]];\n    y[row] = s; }\n}\n");
  EXPECT_EQ(S.NotBecause, "");
  EXPECT_EQ(S.Lanes, 1u);
}

} // namespace
} // namespace irregfix::test
