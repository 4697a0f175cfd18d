// irregfix runtime: how a copy split into field pieces (prepare_*_fields) is
// made from the pieces the tool describes: each piece as 4-byte words of the
// source element, validated once, and the pieces as part of the cache key.
// Host-only: test/unit/runtime checks it without a GPU.
#pragma once

#include <irregfix/irregfix.cuh>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// A piece word no field fills: written as zero.
constexpr unsigned short kPadWord = 0xffff;

// What the copy kernels read (passed by value).
struct FieldPlan {
  int pieces = 0;
  long long elem_words = 0;            // the source element, in 4-byte words
  int words[kMaxFieldPieces] = {};     // each piece's 4-byte words: 1, 2 or 4
  // Source word of each piece word, or kPadWord.
  unsigned short src[kMaxFieldPieces][4] = {};
  // The piece is consecutive source words starting at a multiple of its own
  // size, in an element whose size is a multiple of it: one vector load (when
  // the array itself is that aligned; see aligned_for).
  bool vector[kMaxFieldPieces] = {};
};

// The device addresses of the pieces' copies (passed by value).
struct FieldOut {
  void *p[kMaxFieldPieces] = {};
};

// Validates the pieces against an element of esz bytes and makes the plan:
// "" or why they cannot be copied (the launch then runs the original kernel).
std::string make_field_plan(const FieldPiece *pieces, int count, std::size_t esz, FieldPlan *plan);

// The plan for an array at address a: vector loads only where a is aligned to them.
FieldPlan aligned_for(const FieldPlan &plan, std::uintptr_t a);

// Bytes of one copy element of each piece.
inline std::size_t piece_bytes(const FieldPlan &plan, int piece) {
  return static_cast<std::size_t>(plan.words[piece]) * 4;
}

// The pieces as the cache key holds them, and whether a call names the same.
std::vector<unsigned> field_key(const FieldPiece *pieces, int count);
bool same_fields(const std::vector<unsigned> &key, const FieldPiece *pieces, int count);

} // namespace detail
} // namespace irregfix
