// irregfix runtime: field pieces as words of the source element. See field_plan.h.
#include "field_plan.h"

namespace irregfix {
namespace detail {

std::string make_field_plan(const FieldPiece *pieces, int count, std::size_t esz, FieldPlan *plan) {
  if (count <= 0 || count > kMaxFieldPieces || !pieces)
    return "bad field pieces: " + std::to_string(count) + " pieces";
  if (esz == 0 || esz % 4 != 0 || esz / 4 >= kPadWord)
    return "bad field pieces: element of " + std::to_string(esz) + " bytes";
  FieldPlan p;
  p.pieces = count;
  p.elem_words = static_cast<long long>(esz / 4);
  for (int q = 0; q < count; ++q) {
    const FieldPiece &piece = pieces[q];
    if (piece.size != 4 && piece.size != 8 && piece.size != 16)
      return "bad field pieces: a piece of " + std::to_string(piece.size) + " bytes";
    if (piece.count <= 0 || piece.count > kMaxPieceFields)
      return "bad field pieces: a piece of " + std::to_string(piece.count) + " fields";
    const int words = static_cast<int>(piece.size / 4);
    p.words[q] = words;
    for (int w = 0; w < 4; ++w)
      p.src[q][w] = kPadWord;
    for (int f = 0; f < piece.count; ++f) {
      const FieldCopy &c = piece.fields[f];
      if ((c.size != 4 && c.size != 8) || c.from % c.size != 0 || c.to % c.size != 0 ||
          c.from + c.size > esz || c.to + c.size > piece.size)
        return "bad field pieces: a field of " + std::to_string(c.size) + " bytes at " + std::to_string(c.from) +
               " to " + std::to_string(c.to);
      for (unsigned w = 0; w < c.size / 4; ++w) {
        unsigned short &slot = p.src[q][c.to / 4 + w];
        if (slot != kPadWord)
          return "bad field pieces: two fields overlap in a piece";
        slot = static_cast<unsigned short>(c.from / 4 + w);
      }
    }
    bool consecutive = words > 1 && p.src[q][0] != kPadWord && p.src[q][0] % words == 0 &&
                       p.elem_words % words == 0;
    for (int w = 1; consecutive && w < words; ++w)
      consecutive = p.src[q][w] == p.src[q][0] + w;
    p.vector[q] = consecutive;
  }
  *plan = p;
  return "";
}

FieldPlan aligned_for(const FieldPlan &plan, std::uintptr_t a) {
  FieldPlan p = plan;
  for (int q = 0; q < p.pieces; ++q)
    p.vector[q] = p.vector[q] && a % piece_bytes(p, q) == 0;
  return p;
}

std::vector<unsigned> field_key(const FieldPiece *pieces, int count) {
  std::vector<unsigned> key;
  for (int q = 0; q < count; ++q) {
    key.push_back(pieces[q].size);
    key.push_back(static_cast<unsigned>(pieces[q].count));
    for (int f = 0; f < pieces[q].count && f < kMaxPieceFields; ++f) {
      key.push_back(pieces[q].fields[f].from);
      key.push_back(pieces[q].fields[f].to);
      key.push_back(pieces[q].fields[f].size);
    }
  }
  return key;
}

bool same_fields(const std::vector<unsigned> &key, const FieldPiece *pieces, int count) {
  std::size_t at = 0;
  auto next = [&](unsigned v) { return at < key.size() && key[at++] == v; };
  for (int q = 0; q < count; ++q) {
    if (!next(pieces[q].size) || !next(static_cast<unsigned>(pieces[q].count)))
      return false;
    for (int f = 0; f < pieces[q].count && f < kMaxPieceFields; ++f)
      if (!next(pieces[q].fields[f].from) || !next(pieces[q].fields[f].to) || !next(pieces[q].fields[f].size))
        return false;
  }
  return at == key.size();
}

} // namespace detail
} // namespace irregfix
