// Which of a fixed set of expressions encloses another, by source range: its
// range within theirs and not the same range. A kernel's reads are asked
// against the reads its sites copy, each once: sorted by where they begin,
// with the furthest end of each stretch kept, every question costs the
// logarithm of the set and the enclosing ones it finds.
#pragma once

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

namespace irregfix {

class EnclosingRanges {
public:
  EnclosingRanges(std::vector<const clang::Expr *> Outer, const clang::SourceManager &SM);

  // Whether Outer's range strictly encloses E's (E is not Outer).
  static bool encloses(const clang::Expr *Outer, const clang::Expr *E, const clang::SourceManager &SM);

  // The position, in the order given, of the first expression of the set that
  // encloses E; -1 when none does.
  int firstEnclosing(const clang::Expr *E) const;
  bool anyEncloses(const clang::Expr *E) const { return firstEnclosing(E) >= 0; }

private:
  bool before(clang::SourceLocation A, clang::SourceLocation B) const;
  void collect(size_t Node, size_t Lo, size_t Hi, size_t Limit, const clang::Expr *E, int &First) const;

  struct Item {
    const clang::Expr *E;
    int Position;
  };
  const clang::SourceManager &SM;
  std::vector<Item> ByBegin;     // ranges with valid ends, by where they begin
  std::vector<size_t> FurthestEnd; // a segment tree over ByBegin: the item that ends last
  std::vector<Item> Unordered;   // ranges with an invalid end, asked one by one
};

} // namespace irregfix
