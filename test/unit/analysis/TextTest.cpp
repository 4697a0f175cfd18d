#include "Analysis/DeviceOnlyCode.h"
#include "Frontend/LaunchBrackets.h"
#include "Frontend/UnifiedDiff.h"

#include <gtest/gtest.h>

using irregfix::unifiedDiff;

TEST(UnifiedDiff, EqualTextsGiveNothing) { EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "x", "x"), ""); }

TEST(UnifiedDiff, InsertionHunkWithContext) {
  std::string D = unifiedDiff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nnew\n5\n6\n7\n8\n", "f", "f");
  EXPECT_EQ(D, "--- f\n+++ f\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n");
}

TEST(UnifiedDiff, ReplacementAndSeparateHunks) {
  std::string Before, After;
  for (int I = 1; I <= 20; ++I) {
    Before += std::to_string(I) + "\n";
    After += (I == 2 ? std::string("two") : I == 18 ? std::string("eighteen") : std::to_string(I)) + "\n";
  }
  std::string D = unifiedDiff(Before, After, "f", "f");
  EXPECT_NE(D.find("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"), std::string::npos) << D;
  EXPECT_NE(D.find("@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n"), std::string::npos) << D;
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  std::string D = unifiedDiff("a\nb", "a\nc", "f", "f");
  EXPECT_NE(D.find("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"), std::string::npos) << D;
}

// Launches written with split brackets, as nvcc accepts them, are parsed joined.
using irregfix::joinLaunchBrackets;

TEST(LaunchBrackets, SplitLaunchIsJoinedKeepingOffsets) {
  const std::string Text = "void f() { k << < g, b >> > (x); }\n";
  std::optional<std::string> J = joinLaunchBrackets(Text);
  ASSERT_TRUE(J);
  EXPECT_EQ(*J, "void f() { k <<<  g, b >>>  (x); }\n");
  EXPECT_EQ(J->size(), Text.size());
}

TEST(LaunchBrackets, MixedSpellingsAndNewlines) {
  EXPECT_EQ(joinLaunchBrackets("k<<<g, b>> >(x);"), std::optional<std::string>("k<<<g, b>>> (x);"));
  EXPECT_EQ(joinLaunchBrackets("k<<\n<g, f(a, b)>>\t>(x);"), std::optional<std::string>("k<<<\ng, f(a, b)>>>\t(x);"));
}

TEST(LaunchBrackets, OtherTextIsLeftAlone) {
  EXPECT_FALSE(joinLaunchBrackets("k<<<g, b>>>(x);"));
  EXPECT_FALSE(joinLaunchBrackets("friend std::ostream &operator<< <>(std::ostream &, const B<T> &);"));
  EXPECT_FALSE(joinLaunchBrackets("std::vector<std::vector<std::vector<int>> > v;"));
  EXPECT_FALSE(joinLaunchBrackets("// k << < g, b >> > (x);\nconst char *s = \"k << < g, b >> > (x)\";"));
  EXPECT_FALSE(joinLaunchBrackets("a << < b; c >> > (d);")); // not one launch: a ';' between
}

// What device-only code does, from its tokens (Analysis/DeviceOnlyCode.h).
namespace {
irregfix::DeviceOnlyCode::Effects deviceEffects(const char *Text) {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CUDA = true;
  return irregfix::DeviceOnlyCode::effectsOf(Text, LO);
}
} // namespace

TEST(DeviceOnlyEffects, LocalsAndReadsStoreNothing) {
  auto E = deviceEffects("real_t v0 = __ldg(values + i1);\nfor (int i = 0; i < n; ++i) s += v0;\n"
                         "int a[4] = {0}; float *q = p; t.x = 1;");
  EXPECT_FALSE(E.Stores) << E.What;
  EXPECT_EQ(E.Declared, (std::set<std::string>{"v0", "i", "a", "q"}));
  EXPECT_EQ(E.Assigned, (std::set<std::string>{"i", "s", "t"}));
  EXPECT_EQ(E.Calls, (std::set<std::string>{"__ldg"}));
}

TEST(DeviceOnlyEffects, StoresThroughMemory) {
  for (const char *Text : {"a[i] += 1;", "*p = 1;", "p->x = 2;", "g.buf[t]++;", "atomicAdd(&a[i], 1.0f);",
                           "asm volatile(\"st.global.f32 [%0], %1;\" :: \"l\"(p), \"f\"(v));", "--q[0];",
                           "__stcg(p, v);"}) {
    auto E = deviceEffects(Text);
    EXPECT_TRUE(E.Stores) << Text;
  }
}

TEST(DeviceOnlyEffects, TemplateCallsAndDirectives) {
  auto E = deviceEffects("#define STORE(p) (*(p) = 0)\nx += __shfl_xor<32>(x, 1);\n#if 1\n#endif");
  EXPECT_FALSE(E.Stores) << E.What;
  EXPECT_EQ(E.Calls, (std::set<std::string>{"__shfl_xor"}));
  EXPECT_EQ(E.Assigned, (std::set<std::string>{"x"}));
}
