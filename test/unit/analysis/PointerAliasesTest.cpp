// Local pointers into an array the launch names (Analysis/PointerAliases.h):
// which array, at which offsets, or why such a pointer is not followed.
#include "AnalysisTestUtil.h"

#include "Analysis/PointerAliases.h"

#include "clang/AST/ParentMapContext.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

struct Into {
  std::string Array, Offsets, Why;
  MemorySpace Space = MemorySpace::Device;
  std::string Within; // the array it points into at an offset not followed
};

// pointerInto for the base of the first subscript of a local named `p` in the kernel.
Into intoOf(const std::string &Code) {
  Into Out;
  Out.Why = "(no read through p)";
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    WriteSet W = WriteSet::of(K, nullptr);
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      const clang::Expr *Base = nullptr;
      bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *AS) {
        if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts()))
          if (!Base && DR->getDecl()->getName() == "p")
            Base = AS->getBase();
        return true;
      }
    } F;
    F.TraverseStmt(K->getBody());
    if (!F.Base)
      return;
    PointerInto P = pointerInto(F.Base, W);
    Out.Array = P.Array ? P.Array.spelling() : "";
    Out.Offsets.clear();
    for (const clang::Expr *O : P.Offsets) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      O->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
      Out.Offsets += (Out.Offsets.empty() ? "" : ", ") + S;
    }
    Out.Why = P.Why;
    Out.Space = P.Space;
    Out.Within = P.Within ? P.Within.spelling() : "";
  });
  return Out;
}

TEST(PointerAliases, AnOffsetFromAParameter) {
  Into I = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *const p = idx + 4 * t;
      if (t < n) out[t] = x[p[1]];
    })");
  EXPECT_EQ(I.Array, "idx");
  EXPECT_EQ(I.Offsets, "4 * t");
  EXPECT_EQ(I.Why, "");
}

TEST(PointerAliases, AnAddressAndAPointerIntoAPointer) {
  Into I = intoOf(R"(
    struct Mesh { const int *corner; };
    __global__ void k(Mesh m, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *q = &m.corner[2 * t];
      const int *p = q + 1;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(I.Array, "m.corner");
  EXPECT_EQ(I.Offsets, "1, 2 * t");
}

TEST(PointerAliases, TheThreadsOwnMemory) {
  // A local array, a member array of a local struct through a pointer to it,
  // either of two local arrays.
  for (const char *Init : {"own + 1", "q->arr", "flip ? own : g.arr"}) {
    Into I = intoOf(std::string(R"(
      struct Group { int arr[8]; };
      __global__ void k(const float *x, float *out, int n, int flip) {
        int t = blockIdx.x * blockDim.x + threadIdx.x;
        int own[8];
        Group g;
        const Group *q = &g;
        const int *p = )") + Init + R"(;
        if (t < n) out[t] = x[p[t & 7]];
      })");
    EXPECT_EQ(I.Space, MemorySpace::ThreadLocal) << Init;
    EXPECT_EQ(I.Array, "") << Init;
  }
}

TEST(PointerAliases, KernelArgumentsAndDeviceMemory) {
  const std::string Kernel = R"(
    struct Table { int arr[8]; const int *dev; };
    __global__ void k(Table s, const int *idx, const float *x, float *out, int n, int flip) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      int own[8];
      const int *p = INIT;
      if (t < n) out[t] = x[p[t & 7]];
    })";
  auto With = [&](const std::string &Init) {
    std::string Code = Kernel;
    Code.replace(Code.find("INIT"), 4, Init);
    return intoOf(Code);
  };
  EXPECT_EQ(With("s.arr").Space, MemorySpace::KernelParameter);
  EXPECT_EQ(With("&s.arr[2]").Space, MemorySpace::KernelParameter);
  // A pointer field of the struct points into device memory; so does a parameter array.
  EXPECT_EQ(With("s.dev + 1").Space, MemorySpace::Device);
  EXPECT_EQ(With("s.dev + 1").Array, "s.dev");
  EXPECT_EQ(With("idx + t").Space, MemorySpace::Device);
  // Arms in different memory: neither.
  EXPECT_EQ(With("flip ? own : idx").Space, MemorySpace::Device);
}

TEST(PointerAliases, ChangedPointersAreNotFollowed) {
  Into Assigned = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n, int flip) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = idx + t;
      if (flip) p = idx;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Assigned.Array, "");
  EXPECT_EQ(Assigned.Why, "a local pointer that is assigned again (its offset is not followed)");
  EXPECT_EQ(Assigned.Within, "idx");
  Into Stepped = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = idx + t;
      ++p;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Stepped.Why,
            "a local pointer that is stepped, or its address or a reference to it is taken (its offset is not followed)");
  EXPECT_EQ(Stepped.Within, "idx");
  Into Escaped = intoOf(R"(
    __device__ void move(const int **q) { ++*q; }
    __global__ void k(const int *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = idx + t;
      move(&p);
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Escaped.Within, "");
  EXPECT_EQ(Escaped.Why, "a local pointer that is stepped, or its address or a reference to it is taken");
}

TEST(PointerAliases, ALocalPointerAssignedLaterIsFollowedToItsMemory) {
  // Given a value once, after its declaration: the array, at an offset not followed.
  Into Once = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p;
      p = idx + 2 * t;
      if (t < n) out[t] = x[p[1]];
    })");
  EXPECT_EQ(Once.Array, "");
  EXPECT_EQ(Once.Within, "idx");
  EXPECT_EQ(Once.Why, "a local pointer declared without a value (its offset is not followed)");
  // Both branches give it the thread's own memory.
  Into Own = intoOf(R"(
    __global__ void k(const float *x, float *out, int n, int odd) {
      int a[4] = {0, 1, 2, 3}, b[4] = {3, 2, 1, 0};
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p;
      if (odd) p = a; else p = b + 1;
      if (t < n) out[t] = x[p[t & 1]];
    })");
  EXPECT_EQ(Own.Space, MemorySpace::ThreadLocal);
  EXPECT_EQ(Own.Within, "");
  // The branches differ: both values are named.
  Into Mixed = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n, int odd) {
      int a[4] = {0, 1, 2, 3};
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p;
      if (odd) p = a; else p = idx + t;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Mixed.Space, MemorySpace::Device);
  EXPECT_EQ(Mixed.Within, "");
  EXPECT_EQ(Mixed.Why, "a local pointer declared without a value, given 'a' and 'idx + t', which point into "
                       "different memory");
}

TEST(PointerAliases, EitherOfTwoPointers) {
  Into Same = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n, int odd) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = odd ? idx + t : idx + (n - 1 - t);
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Same.Within, "idx");
  EXPECT_EQ(Same.Why, "either of two pointers (its offset is not followed)");
  Into Two = intoOf(R"(
    __global__ void k(const int *idx, const int *jdx, const float *x, float *out, int n, int odd) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = odd ? idx + t : jdx + t;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Two.Within, "");
  EXPECT_EQ(Two.Why, "either of two pointers, given 'idx + t' and 'jdx + t', which point into different memory");
}

TEST(PointerAliases, APoolTheThreadHoldsIsItsOwnMemory) {
  // A method that hands out part of its object's own array: the object's space.
  Into I = intoOf(R"(
    struct Pool {
      int used;
      int words[64];
      __device__ int *take(int n) {
        if (used + n > 64) return 0;
        used += n;
        return words + used - n;
      }
    };
    __global__ void k(const float *x, float *out, int n) {
      Pool pool;
      pool.used = 0;
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      int *p = pool.take(4);
      p[0] = t;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(I.Space, MemorySpace::ThreadLocal);
}

TEST(PointerAliases, HowAPointerChanges) {
  forEachKernel(R"(
    __global__ void k(const int *a, const int *b, int *out, int n) {
      const int *p;
      const int *q = a;
      p = b;
      p = p + 1;
      q += 2;
      ++a;
      out[0] = p[0] + q[0] + a[0];
    })",
                [&](const clang::FunctionDecl *K, clang::ASTContext &) {
                  const auto *A = K->getParamDecl(0);
                  const PointerChanges OfA = pointerChanges(A);
                  EXPECT_TRUE(OfA.onlyStepped());
                  const PointerChanges OfB = pointerChanges(K->getParamDecl(1));
                  EXPECT_FALSE(OfB.Stepped);
                  EXPECT_TRUE(OfB.Assigned.empty());
                });
}

TEST(PointerAliases, AnotherElementTypeIsNotFollowed) {
  Into I = intoOf(R"(
    __global__ void k(const short *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = (const int *)idx + t;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(I.Array, "");
  EXPECT_EQ(I.Why, "a local pointer whose elements' type is not that of 'idx'");
}

TEST(PointerAliases, ThePointerOfNoArrayIsNone) {
  Into I = intoOf(R"(
    __global__ void k(const float *x, float *out, int n) {
      __shared__ int list[64];
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = list + threadIdx.x;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(I.Array, "");
  EXPECT_EQ(I.Why, "");
}

} // namespace
