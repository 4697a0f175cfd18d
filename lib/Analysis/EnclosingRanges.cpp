#include "Analysis/EnclosingRanges.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace irregfix {

bool EnclosingRanges::encloses(const Expr *Outer, const Expr *E, const SourceManager &SM) {
  return E != Outer && !SM.isBeforeInTranslationUnit(E->getBeginLoc(), Outer->getBeginLoc()) &&
         !SM.isBeforeInTranslationUnit(Outer->getEndLoc(), E->getEndLoc()) &&
         (E->getBeginLoc() != Outer->getBeginLoc() || E->getEndLoc() != Outer->getEndLoc());
}

bool EnclosingRanges::before(SourceLocation A, SourceLocation B) const {
  return SM.isBeforeInTranslationUnit(A, B);
}

EnclosingRanges::EnclosingRanges(std::vector<const Expr *> Outer, const SourceManager &SM) : SM(SM) {
  for (size_t I = 0; I < Outer.size(); ++I) {
    const Item It{Outer[I], static_cast<int>(I)};
    if (Outer[I]->getBeginLoc().isValid() && Outer[I]->getEndLoc().isValid())
      ByBegin.push_back(It);
    else
      Unordered.push_back(It);
  }
  std::stable_sort(ByBegin.begin(), ByBegin.end(),
                   [&](const Item &A, const Item &B) { return before(A.E->getBeginLoc(), B.E->getBeginLoc()); });
  // Node 1 covers [0, n); node k's children 2k and 2k+1 its halves.
  FurthestEnd.assign(4 * std::max<size_t>(ByBegin.size(), 1), 0);
  std::function<void(size_t, size_t, size_t)> Build = [&](size_t Node, size_t Lo, size_t Hi) {
    if (Hi - Lo == 1) {
      FurthestEnd[Node] = Lo;
      return;
    }
    const size_t Mid = (Lo + Hi) / 2;
    Build(2 * Node, Lo, Mid);
    Build(2 * Node + 1, Mid, Hi);
    const size_t L = FurthestEnd[2 * Node], R = FurthestEnd[2 * Node + 1];
    FurthestEnd[Node] = before(ByBegin[L].E->getEndLoc(), ByBegin[R].E->getEndLoc()) ? R : L;
  };
  if (!ByBegin.empty())
    Build(1, 0, ByBegin.size());
}

// The enclosing items among ByBegin[Lo, Hi) ∩ [0, Limit): only stretches whose
// furthest end reaches E's end can hold one.
void EnclosingRanges::collect(size_t Node, size_t Lo, size_t Hi, size_t Limit, const Expr *E, int &First) const {
  if (Lo >= Limit || before(ByBegin[FurthestEnd[Node]].E->getEndLoc(), E->getEndLoc()))
    return;
  if (Hi - Lo == 1) {
    const Item &It = ByBegin[Lo];
    if (encloses(It.E, E, SM) && (First < 0 || It.Position < First))
      First = It.Position;
    return;
  }
  const size_t Mid = (Lo + Hi) / 2;
  collect(2 * Node, Lo, Mid, Limit, E, First);
  collect(2 * Node + 1, Mid, Hi, Limit, E, First);
}

int EnclosingRanges::firstEnclosing(const Expr *E) const {
  int First = -1;
  for (const Item &It : Unordered)
    if (encloses(It.E, E, SM) && (First < 0 || It.Position < First))
      First = It.Position;
  if (ByBegin.empty())
    return First;
  // The items that begin no later than E.
  const size_t Limit =
      std::upper_bound(ByBegin.begin(), ByBegin.end(), E->getBeginLoc(),
                       [&](SourceLocation L, const Item &It) { return before(L, It.E->getBeginLoc()); }) -
      ByBegin.begin();
  collect(1, 0, ByBegin.size(), Limit, E, First);
  return First;
}

} // namespace irregfix
