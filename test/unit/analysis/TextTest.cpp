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
