// Which fields a site reads and how its copy groups them (FieldUse.h).
#include "AnalysisTestUtil.h"

#include "Analysis/FieldUse.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

// "{x,y}16 {k}4" for the pieces of the kernel's first site, or "whole: <why>".
std::string piecesOf(const std::string &Code) {
  std::string Out = "no site";
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    KernelInfo Info = analyzeKernel(K, Ctx, /*DeviceOnly=*/nullptr);
    if (Info.Sites.empty() || Info.Sites[0].Arrays.empty())
      return;
    const FieldSplit &F = Info.Sites[0].Arrays[0].Fields;
    if (!F.split()) {
      Out = "whole: " + F.WholeBecause;
      return;
    }
    Out.clear();
    for (const FieldPiece &P : F.Pieces) {
      std::string Names;
      for (const PieceField &PF : P.Fields)
        Names += (Names.empty() ? "" : ",") + PF.Field->getNameAsString() + "@" + std::to_string(PF.PieceOffset);
      Out += (Out.empty() ? "{" : " {") + Names + "}" + std::to_string(P.Size);
    }
  });
  return Out;
}

std::string neighbours(const std::string &Struct, const std::string &Body) {
  return Struct + "\n__global__ void k(int n, int m, const int *nb, const S *a, float *out) {\n"
                  "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  if (t >= n) return;\n  float r = 0;\n"
                  "  for (int j = 0; j < m; ++j) {\n    int q = nb[j * n + t];\n    " +
         Body + "\n  }\n  out[t] = r;\n}\n";
}

TEST(FieldUse, FieldsGroupInOffsetOrder) {
  EXPECT_EQ(piecesOf(neighbours("struct S { float x, y, z, m, vx, vy, vz; int kind; };",
                                "r += a[q].kind + a[q].m * a[q].x + a[q].y + a[q].z;")),
            "{x@0,y@4,z@8,m@12}16 {kind@0}4");
}

TEST(FieldUse, EightByteFieldsKeepTheirAlignment) {
  EXPECT_EQ(piecesOf(neighbours("struct S { float a; float b; double c; double d; double e; };",
                                "r += a[q].a + a[q].c + a[q].e;")),
            "{a@0,c@8}16 {e@0}8");
}

TEST(FieldUse, LocalReadOnlyThroughFields) {
  EXPECT_EQ(piecesOf(neighbours("struct S { float x, y, z, m; };", "S s = a[q]; r += s.x * s.m;")), "{x@0,m@4}8");
  EXPECT_EQ(piecesOf(neighbours("struct S { float x, y, z, m; };", "S s = a[q]; S u = s; r += u.x;")),
            "whole: the local 's' is used whole");
  EXPECT_EQ(piecesOf(neighbours("struct S { float x, y, z, m; };", "S s = a[q]; s.x = 1; r += s.x;")),
            "whole: the local 's': field 'x' is used other than read as a value");
}

TEST(FieldUse, UnsplittableStructures) {
  EXPECT_EQ(piecesOf(neighbours("struct S { short h; float x, y, z; };", "r += a[q].h;")),
            "whole: field 'h' is not a 4- or 8-byte scalar");
  EXPECT_EQ(piecesOf(neighbours("struct B { float x; }; struct S : B { float y, z, w; };", "r += a[q].y;")),
            "whole: 'S' has base classes");
  EXPECT_EQ(piecesOf(neighbours("struct S { float x, y; };", "r += a[q].x + a[q].y;")),
            "whole: its pieces would take as many bytes as the element (8)");
}

TEST(FieldUse, GroupingPacksUpTo16Bytes) {
  // Five 4-byte fields: four in 16 bytes, the fifth alone.
  std::vector<PieceField> F;
  for (unsigned I = 0; I < 5; ++I)
    F.push_back({nullptr, 4 * I, 4, 0});
  std::vector<FieldPiece> P = groupIntoPieces(F);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Size, 16u);
  EXPECT_EQ(P[1].Size, 4u);
  // 4, 8, 4 bytes: the 8-byte field at 8, the last one after it (16 bytes).
  P = groupIntoPieces({{nullptr, 0, 4, 0}, {nullptr, 8, 8, 0}, {nullptr, 16, 4, 0}});
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Fields[1].PieceOffset, 8u);
  EXPECT_EQ(P[0].Size, 16u);
  EXPECT_EQ(P[1].Size, 4u);
}

} // namespace
