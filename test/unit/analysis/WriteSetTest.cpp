#include "AnalysisTestUtil.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

using namespace irregfix;
using namespace irregfix::test;

namespace {

// Names of the parameters the single kernel in Code writes through, and whether
// some write is untraced.
std::pair<std::string, bool> writesOf(const std::string &Code) {
  std::string Names;
  bool Untraced = false;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &) {
    WriteSet W = WriteSet::of(K, /*DeviceOnly=*/nullptr);
    for (const clang::ParmVarDecl *P : K->parameters())
      if (W.writesThrough(ArrayRef(P)))
        Names += (Names.empty() ? "" : ",") + P->getNameAsString();
    Untraced = W.hasUntracedWrite();
  });
  return {Names, Untraced};
}

TEST(WriteSet, DirectStoresAndCompoundAssignments) {
  auto [Names, Untraced] = writesOf("__global__ void k(float *a, float *b, const float *c) { a[0] = c[0]; b[1] += 2; }");
  EXPECT_EQ(Names, "a,b");
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, IncrementsAndDereferences) {
  auto [Names, Untraced] = writesOf("__global__ void k(int *a, int *b, int *c) { a[0]++; *(b + 3) = 1; --*c; }");
  EXPECT_EQ(Names, "a,b,c");
}

TEST(WriteSet, LocalPointerCopies) {
  auto [Names, Untraced] = writesOf("__global__ void k(float *a, float *b) { float *p = b + 4; p[0] = 1; }");
  EXPECT_EQ(Names, "b");
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, AtomicsAndEscapesCountAsWrites) {
  auto [Names, Untraced] =
      writesOf("__device__ void f(float *p) { p[0] = 1; } __global__ void k(float *a, float *b, const float *c) {"
               " atomicAdd(&a[2], 1.0f); f(b + 1); }");
  EXPECT_EQ(Names, "a,b");
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, CalleesAreFollowedThroughTheirBodies) {
  // A callee that only reads its non-const pointer does not make it written.
  auto [Names, Untraced] = writesOf("__device__ float get(float *p, int i) { return p[i]; }\n"
                                    "__device__ void put(float *p, float v) { *p = v; }\n"
                                    "__device__ void twice(float *p, float *q) { put(q, get(p, 0)); }\n"
                                    "__global__ void k(float *a, float *b) { twice(a, b + 2); }");
  EXPECT_EQ(Names, "b");
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, ReferenceParametersMapToTheirArguments) {
  auto [Names, Untraced] = writesOf("__device__ void bump(float &x) { x += 1; }\n"
                                    "__global__ void k(float *a, float *b) { float l = 0; bump(a[3]); bump(l); }");
  EXPECT_EQ(Names, "a");
  EXPECT_FALSE(Untraced);
}

// Stores the analysis cannot name: whoever relies on the write set must assume
// that anything may have been written.
std::string untracedWhy(const std::string &Code) {
  std::string Why = "<traced>";
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &) {
    WriteSet W = WriteSet::of(K, /*DeviceOnly=*/nullptr);
    if (W.hasUntracedWrite())
      Why = W.untracedWhy();
  });
  return Why;
}

TEST(WriteSet, PointersLoadedFromMemoryAreUntraced) {
  EXPECT_EQ(untracedWhy("struct Mat { int n; float *val; };\n"
                        "__global__ void k(Mat *m) { m->val[threadIdx.x] *= 0.5f; }"),
            "stores through 'm->val', a pointer loaded from memory");
  EXPECT_EQ(untracedWhy("__global__ void k(float **vals) { vals[0][threadIdx.x] *= 0.5f; }"),
            "stores through 'vals[0]', a pointer loaded from memory");
  EXPECT_EQ(untracedWhy("__device__ float *g;\n__global__ void k() { g[threadIdx.x] = 0; }"),
            "stores through 'g', a pointer loaded from a __device__ variable");
  // The struct itself is the parameter's array: a store into *m names m.
  EXPECT_EQ(untracedWhy("struct Mat { int n; float *val; };\n__global__ void k(Mat *m) { m->n = 0; }"), "<traced>");
}

TEST(WriteSet, UnseenAndIndirectCallsAreUntraced) {
  EXPECT_EQ(untracedWhy("__device__ void ext(int);\n__global__ void k() { ext(1); }"),
            "it calls 'ext', whose body the analysis cannot see");
  EXPECT_EQ(untracedWhy("__global__ void k(void (*f)(float *), float *a) { f(a); }"), "it makes an indirect call");
  EXPECT_EQ(untracedWhy("struct M { float *p; };\n__device__ void set(M *m) { m->p[0] = 1; }\n"
                        "__global__ void k(M *m) { set(m); }"),
            "it calls 'set', which stores through 'm->p', a pointer loaded from memory");
  EXPECT_EQ(untracedWhy("__device__ int f(int n) { return n ? f(n - 1) : 0; }\n__global__ void k() { f(3); }"),
            "it calls 'f', which calls 'f' recursively");
  EXPECT_EQ(untracedWhy("__global__ void k(float *a) { asm volatile(\"st.global.f32 [%0], 1.0;\" :: \"l\"(a)); }"),
            "it has inline assembly that may store to memory");
  EXPECT_EQ(untracedWhy("__global__ void k() { asm volatile(\"\" ::: \"memory\"); }"), "<traced>");
}

TEST(WriteSet, DeviceVariablesAreNamedAsSymbols) {
  std::string Symbols;
  bool Untraced = true;
  forEachKernel("__device__ int flag; __device__ float table[64]; __device__ int unused;\n"
                "__global__ void k(const float *a) { flag = 1; table[threadIdx.x] = a[0]; atomicAdd(&flag, 1); }",
                [&](const clang::FunctionDecl *K, clang::ASTContext &) {
                  WriteSet W = WriteSet::of(K, /*DeviceOnly=*/nullptr);
                  for (const clang::VarDecl *V : W.writtenSymbols())
                    Symbols += (Symbols.empty() ? "" : ",") + V->getNameAsString();
                  Untraced = W.hasUntracedWrite();
                });
  EXPECT_TRUE(Symbols == "flag,table" || Symbols == "table,flag") << Symbols;
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, MethodsOfLocalObjectsAndLambdas) {
  // A method storing into its local object writes nothing in device memory; a
  // lambda writing a captured parameter writes that parameter.
  auto [Names, Untraced] = writesOf("struct Acc { float s = 0; __device__ void add(float v) { s += v; } };\n"
                                    "__global__ void k(const float *a, float *out) {\n"
                                    "  Acc acc; acc.add(a[0]);\n"
                                    "  auto put = [=](int i, float v) { out[i] = v; }; put(0, acc.s); }");
  EXPECT_EQ(Names, "out");
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, ReassignedPointerMakesWritesUntraced) {
  auto [Names, Untraced] = writesOf("__global__ void k(float *a, float *b, int c) { float *p = a; if (c) p = b; p[0] = 1; }");
  EXPECT_TRUE(Untraced);
}

TEST(WriteSet, SharedAndLocalArraysAreNotSources) {
  auto [Names, Untraced] =
      writesOf("__global__ void k(const float *a) { __shared__ float s[32]; float l[4]; s[threadIdx.x] = a[0]; l[1] = 2; }");
  EXPECT_EQ(Names, "");
  EXPECT_FALSE(Untraced);
}

} // namespace

TEST(WriteSet, StructFieldsAreArraysOfTheirOwn) {
  std::string Names;
  bool Untraced = true;
  forEachKernel("struct G { const int *a; float *b; float *c; };\n"
                "__global__ void k(G g) { g.b[0] = g.a[1]; float *p = g.c; p[2] = 1; }",
                [&](const clang::FunctionDecl *K, clang::ASTContext &) {
                  WriteSet W = WriteSet::of(K, /*DeviceOnly=*/nullptr);
                  for (const ArrayRef &A : W.writtenArrays())
                    Names += (Names.empty() ? "" : ",") + A.spelling();
                  Untraced = W.hasUntracedWrite();
                });
  EXPECT_EQ(Names, "g.b,g.c");
  EXPECT_FALSE(Untraced);
}


// An array member of the struct a pointer parameter points to is an array of
// its own for reads (`u->a`), written whenever the struct is (`t->n = 2`
// writes `t->a`), and so is a two-dimensional one (`u->b`, the flat array of
// its scalars); a member of a struct by value and one of a pointer the kernel
// assigns are none.
TEST(WriteSet, ArraysInsideAPointedStructAreWrittenWithIt) {
  std::vector<std::string> Named;
  std::set<std::string> Written;
  forEachKernel("struct T { int n; int a[8]; float b[8][2]; };\n"
                "__global__ void k(T *t, const T *u, T v, const T *w, int *o) {\n"
                "  t->n = 2; o[0] = u->a[1] + t->a[2] + (int)u->b[3][1] + v.a[4];\n"
                "  w += 1; o[1] = w->a[5];\n"
                "}",
                [&](const clang::FunctionDecl *K, clang::ASTContext &) {
                  WriteSet W = WriteSet::of(K, /*DeviceOnly=*/nullptr);
                  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
                    if (!S)
                      return;
                    if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(S); ME && ME->getType()->isArrayType()) {
                      const ArrayRef A = WriteSet::exactPointer(ME, W);
                      Named.push_back(A ? A.spelling() + (W.writesThrough(A) ? " written" : "") : "none");
                    }
                    for (const clang::Stmt *C : S->children())
                      Walk(C);
                  };
                  Walk(K->getBody());
                  for (const ArrayRef &A : W.writtenArrays())
                    Written.insert(A.spelling());
                });
  EXPECT_EQ(Named, (std::vector<std::string>{"u->a", "t->a written", "u->b", "none", "none"}));
  EXPECT_EQ(Written, (std::set<std::string>{"o", "t"}));
}
