// Field pieces as the copy kernels read them (field_plan.h): words, vector
// loads only where the layout allows them, the pieces rejected with a reason,
// and the cache key telling pieces apart.
#include "field_plan.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

TEST(FieldPlan, PiecesBecomeWordsOfTheElement) {
  // {x, y, z, mass} at 0 and {kind} at 28 of a 32-byte element.
  const FieldPiece pieces[2] = {{16, 4, {{0, 0, 4}, {4, 4, 4}, {8, 8, 4}, {12, 12, 4}}}, {4, 1, {{28, 0, 4}}}};
  FieldPlan p;
  ASSERT_EQ(make_field_plan(pieces, 2, 32, &p), "");
  EXPECT_EQ(p.pieces, 2);
  EXPECT_EQ(p.elem_words, 8);
  EXPECT_EQ(p.words[0], 4);
  EXPECT_EQ(p.words[1], 1);
  EXPECT_TRUE(p.vector[0]);
  EXPECT_FALSE(p.vector[1]) << "one word is one load already";
  EXPECT_EQ(p.src[1][0], 7);
  EXPECT_TRUE(aligned_for(p, 256).vector[0]);
  EXPECT_FALSE(aligned_for(p, 8).vector[0]) << "an array not 16-byte aligned";
}

TEST(FieldPlan, EightByteFieldsAndPadding) {
  // A double at 0 and one at 16, in one 16-byte piece; a float alone in 8 bytes.
  const FieldPiece pieces[2] = {{16, 2, {{0, 0, 8}, {16, 8, 8}}}, {8, 1, {{8, 0, 4}}}};
  FieldPlan p;
  ASSERT_EQ(make_field_plan(pieces, 2, 40, &p), "");
  EXPECT_FALSE(p.vector[0]) << "the doubles are not next to each other";
  EXPECT_EQ(p.src[0][0], 0);
  EXPECT_EQ(p.src[0][1], 1);
  EXPECT_EQ(p.src[0][2], 4);
  EXPECT_EQ(p.src[0][3], 5);
  EXPECT_EQ(p.src[1][1], kPadWord) << "the piece's second word is zero";
  // Consecutive, but the element's size is not a multiple of the piece's.
  const FieldPiece run[1] = {{16, 2, {{0, 0, 8}, {8, 8, 8}}}};
  ASSERT_EQ(make_field_plan(run, 1, 40, &p), "");
  EXPECT_FALSE(p.vector[0]);
  ASSERT_EQ(make_field_plan(run, 1, 48, &p), "");
  EXPECT_TRUE(p.vector[0]);
}

TEST(FieldPlan, BadPiecesAreRefused) {
  FieldPlan p;
  const FieldPiece ok[1] = {{8, 2, {{0, 0, 4}, {4, 4, 4}}}};
  EXPECT_EQ(make_field_plan(ok, 0, 16, &p), "bad field pieces: 0 pieces");
  EXPECT_EQ(make_field_plan(ok, 1, 6, &p), "bad field pieces: element of 6 bytes");
  const FieldPiece twelve[1] = {{12, 1, {{0, 0, 4}}}};
  EXPECT_EQ(make_field_plan(twelve, 1, 16, &p), "bad field pieces: a piece of 12 bytes");
  const FieldPiece outside[1] = {{8, 1, {{16, 0, 4}}}};
  EXPECT_EQ(make_field_plan(outside, 1, 16, &p), "bad field pieces: a field of 4 bytes at 16 to 0");
  const FieldPiece misaligned[1] = {{16, 1, {{4, 0, 8}}}};
  EXPECT_EQ(make_field_plan(misaligned, 1, 16, &p), "bad field pieces: a field of 8 bytes at 4 to 0");
  const FieldPiece overlap[1] = {{8, 2, {{0, 0, 4}, {8, 0, 4}}}};
  EXPECT_EQ(make_field_plan(overlap, 1, 16, &p), "bad field pieces: two fields overlap in a piece");
}

TEST(FieldPlan, KeyTellsPiecesApart) {
  const FieldPiece a[1] = {{8, 2, {{0, 0, 4}, {4, 4, 4}}}};
  const FieldPiece b[1] = {{8, 2, {{0, 0, 4}, {8, 4, 4}}}};
  const std::vector<unsigned> key = field_key(a, 1);
  EXPECT_TRUE(same_fields(key, a, 1));
  EXPECT_FALSE(same_fields(key, b, 1));
  EXPECT_FALSE(same_fields(key, a, 0)) << "a whole copy is another key";
  EXPECT_TRUE(same_fields(field_key(nullptr, 0), nullptr, 0));
}

} // namespace
