#include "Analysis/LocalValues.h"
#include "Analysis/BodyNodes.h"
#include "Analysis/AnalysisBudget.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Parents.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace irregfix {

namespace {

const VarDecl *localOf(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && V->isLocalVarDecl() ? V : nullptr;
}

// The innermost loop around S (within the function), or null.
const Stmt *innermostLoop(const Stmt *S, ASTContext &Ctx) {
  for (const Stmt *P = parentStmt(S, Ctx); P; P = parentStmt(P, Ctx))
    if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<CXXForRangeStmt>(P))
      return P;
  return nullptr;
}

bool within(const Stmt *Inner, const Stmt *Outer, const SourceManager &SM) {
  return !SM.isBeforeInTranslationUnit(Inner->getBeginLoc(), Outer->getBeginLoc()) &&
         !SM.isBeforeInTranslationUnit(Outer->getEndLoc(), Inner->getEndLoc());
}

// The if statement whose then (or else) branch is the assignment's statement,
// or holds it directly in its braces.
const IfStmt *branchOf(const BinaryOperator *A, ASTContext &Ctx, bool *Then) {
  const Stmt *S = A;
  const Stmt *P = parentStmt(S, Ctx);
  if (isa_and_nonnull<CompoundStmt>(P)) {
    S = P;
    P = parentStmt(P, Ctx);
  }
  const auto *If = dyn_cast_or_null<IfStmt>(P);
  if (!If)
    return nullptr;
  if (If->getThen() == S)
    *Then = true;
  else if (If->getElse() == S)
    *Then = false;
  else
    return nullptr;
  return If;
}

// Replayed over the body's recorded nodes (BodyNodes.h).
class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  explicit WriteFinder(std::function<void(const VarDecl *, const BinaryOperator *)> Note) : Note(std::move(Note)) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = localOf(BO->getLHS()))
        Note(V, BO->getOpcode() == BO_Assign ? BO : nullptr);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = localOf(UO->getSubExpr()))
        Note(V, nullptr);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) { // a non-const reference parameter may write it
    const FunctionDecl *F = C->getDirectCallee();
    // A member operator's object is its first argument, not a parameter.
    const unsigned Skip = isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(F) ? 1 : 0;
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      if (const VarDecl *V = localOf(C->getArg(I))) {
        if (I < Skip) {
          Note(V, nullptr); // the object of a member operator (operator= and the like)
          continue;
        }
        QualType T = F && I - Skip < F->getNumParams() ? F->getParamDecl(I - Skip)->getType() : QualType();
        if (!F || (!T.isNull() && T->isReferenceType() && !T.getNonReferenceType().isConstQualified()))
          Note(V, nullptr);
      }
    return true;
  }
  bool VisitVarDecl(VarDecl *D) { // a non-const reference bound to it
    if (D->getType()->isReferenceType() && !D->getType().getNonReferenceType().isConstQualified() && D->hasInit())
      if (const VarDecl *V = localOf(D->getInit()))
        Note(V, nullptr);
    return true;
  }

private:
  std::function<void(const VarDecl *, const BinaryOperator *)> Note;
};

} // namespace

LocalValues::LocalValues(const FunctionDecl *F) {
  if (!F || !F->getBody())
    return;
  WriteFinder Finder([&](const VarDecl *V, const BinaryOperator *A) {
    Writes &W = Of[V];
    if (A)
      W.Assignments.push_back(A);
    else
      W.Other = true;
  });
  replayBody(Finder, F->getBody(), F->getASTContext());
}

const LocalValues &FunctionLocals::of(const FunctionDecl *F) const {
  std::unique_ptr<LocalValues> &Slot = Known[F];
  if (!Slot)
    Slot = std::make_unique<LocalValues>(F);
  return *Slot;
}

bool FunctionLocals::modified(const VarDecl *V) const {
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  return !F || !F->getBody() || of(F).modified(V);
}

std::string FunctionLocals::howChanged(const VarDecl *V) const {
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return "is in no function body the analysis sees";
  return of(F).howChanged(V);
}

std::string LocalValues::howChanged(const VarDecl *V) const {
  auto It = Of.find(V);
  if (It == Of.end())
    return "";
  if (It->second.Other)
    return "is stepped, or its address or a reference to it is taken";
  return "is assigned again";
}

std::vector<const Expr *> LocalValues::definitions(const VarDecl *V) const {
  std::vector<const Expr *> Out;
  if (V->hasInit())
    Out.push_back(V->getInit());
  if (auto It = Of.find(V); It != Of.end())
    for (const BinaryOperator *A : It->second.Assignments)
      Out.push_back(A->getRHS());
  return Out;
}

namespace {

// The statement of Block that holds S (S itself when it is one), or null.
const Stmt *statementOf(const Stmt *S, const CompoundStmt *Block, ASTContext &Ctx) {
  for (const Stmt *P = S; P;) {
    const Stmt *Up = parentStmt(P, Ctx);
    if (Up == Block)
      return P;
    P = Up;
  }
  return nullptr;
}

// `if (c) v = e;` or `if (c) { ...; v = e; ... }` with no else: the assignment
// is the then-branch or a statement directly in its braces.
bool oneArmedIfAssigning(const Stmt *Top, const BinaryOperator *A, ASTContext &Ctx) {
  const auto *If = dyn_cast<IfStmt>(Top);
  bool Then = false;
  return If && !If->getElse() && !If->hasInitStorage() && !If->hasVarStorage() && branchOf(A, Ctx, &Then) == If &&
         Then;
}

} // namespace

// The position of statement S among Block's statements (-1: not one of them).
int LocalValues::positionIn(const Stmt *S, const CompoundStmt *Block) const {
  auto [It, New] = Positions.try_emplace(Block);
  if (New) {
    int I = 0;
    for (const Stmt *C : Block->body())
      It->second.try_emplace(C, I++);
  }
  auto P = It->second.find(S);
  return P == It->second.end() ? -1 : P->second;
}

const LocalValues::Sequence &LocalValues::sequenceOf(const VarDecl *V, ASTContext &Ctx) const {
  auto [It, New] = Sequences.try_emplace(V);
  Sequence &Seq = It->second;
  if (!New)
    return Seq;
  auto Of = this->Of.find(V);
  if (Of == this->Of.end() || Of->second.Other)
    return Seq;
  auto Parents = parentsOf(*V, Ctx);
  const auto *Decl = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  const auto *Block = Decl ? dyn_cast_or_null<CompoundStmt>(parentStmt(Decl, Ctx)) : nullptr;
  if (!Block)
    return Seq;
  for (const BinaryOperator *A : Of->second.Assignments) {
    const Stmt *Top = statementOf(A, Block, Ctx);
    if (!Top || (Top != A && !oneArmedIfAssigning(Top, A, Ctx))) {
      Seq.Defs.clear();
      return Seq;
    }
    Seq.Defs.push_back({positionIn(Top, Block), A, Top});
  }
  std::stable_sort(Seq.Defs.begin(), Seq.Defs.end(),
                   [](const Sequence::Def &X, const Sequence::Def &Y) { return X.At < Y.At; });
  for (size_t I = 1; I < Seq.Defs.size(); ++I)
    if (Seq.Defs[I].At == Seq.Defs[I - 1].At) {
      Seq.FirstRepeatedAt = Seq.Defs[I].At;
      break;
    }
  Seq.Block = Block;
  return Seq;
}

// Straight-line definitions in V's own block: each assignment is a statement of
// that block or the one assignment of a one-armed if there.
LocalValue LocalValues::inSequence(const VarDecl *V, const Stmt *Use, ASTContext &Ctx) const {
  LocalValue L;
  auto Fail = [&] {
    L = LocalValue();
    L.Why = "local " + quoted(V) + " is assigned in the kernel";
    return L;
  };
  const Sequence &Seq = sequenceOf(V, Ctx);
  const Stmt *UseTop = Seq.Block ? statementOf(Use, Seq.Block, Ctx) : nullptr;
  if (!UseTop)
    return Fail();
  const int UseAt = positionIn(UseTop, Seq.Block);
  if (Seq.FirstRepeatedAt < UseAt)
    return Fail(); // two assignments in one statement before the use
  auto Before = std::lower_bound(Seq.Defs.begin(), Seq.Defs.end(), UseAt,
                                 [](const Sequence::Def &D, int At) { return D.At < At; });
  // Assignments in the statement of the use: the value before the statement,
  // or read inside it, only in its right-hand side or the if's condition,
  // which see the value before it.
  const SourceManager &SM = Ctx.getSourceManager();
  for (auto D = Before; D != Seq.Defs.end() && D->At == UseAt; ++D) {
    if (Use == D->Top)
      continue;
    const auto *If = dyn_cast<IfStmt>(D->Top);
    if (!within(Use, D->A->getRHS(), SM) && !(If && within(Use, If->getCond(), SM)))
      return Fail();
  }
  if (Before == Seq.Defs.begin()) {
    if (!V->hasInit())
      return Fail();
    L.K = LocalValue::Single;
    L.Value = V->getInit();
    return L;
  }
  const Sequence::Def &Last = *std::prev(Before);
  if (Last.Top == Last.A) {
    L.K = LocalValue::Single;
    L.Value = Last.A->getRHS();
    return L;
  }
  L.K = LocalValue::Select;
  L.Cond = cast<IfStmt>(Last.Top)->getCond();
  L.Then = Last.A->getRHS();
  L.ElseBefore = Last.Top;
  return L;
}

LocalValue LocalValues::at(const VarDecl *V, const Stmt *Use, ASTContext &Ctx) const {
  checkAnalysisBudget();
  LocalValue L;
  auto It = Of.find(V);
  if (It == Of.end()) {
    if (V->hasInit()) {
      L.K = LocalValue::Single;
      L.Value = V->getInit();
    } else {
      L.Why = "local " + quoted(V) + " is never given a value";
    }
    return L;
  }
  const Writes &W = It->second;
  if (W.Other) {
    L.Why = "local " + quoted(V) + " is modified in the kernel";
    return L;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // The value set inside a loop is that iteration's: used inside the loop only.
  auto SameIteration = [&](const Stmt *Def) {
    const Stmt *Loop = innermostLoop(Def, Ctx);
    return !Loop || within(Use, Loop, SM);
  };
  const bool Initialised = V->hasInit() && !isa<ImplicitValueInitExpr>(V->getInit()) &&
                           !(isa<CXXConstructExpr>(V->getInit()) &&
                             cast<CXXConstructExpr>(V->getInit())->getConstructor()->isDefaultConstructor());
  if (W.Assignments.size() == 1 && !Initialised) {
    const BinaryOperator *A = W.Assignments.front();
    if (!SameIteration(A) || SM.isBeforeInTranslationUnit(Use->getBeginLoc(), A->getBeginLoc())) {
      L.Why = "local " + quoted(V) + " is assigned elsewhere than where it is read";
      return L;
    }
    L.K = LocalValue::Single;
    L.Value = A->getRHS();
    return L;
  }
  if (W.Assignments.size() == 2) {
    bool ThenA = false, ThenB = false;
    const IfStmt *IA = branchOf(W.Assignments[0], Ctx, &ThenA);
    const IfStmt *IB = branchOf(W.Assignments[1], Ctx, &ThenB);
    if (IA && IA == IB && ThenA != ThenB && SameIteration(IA) &&
        !SM.isBeforeInTranslationUnit(Use->getBeginLoc(), IA->getEndLoc())) {
      L.K = LocalValue::Select;
      L.Cond = IA->getCond();
      L.Then = (ThenA ? W.Assignments[0] : W.Assignments[1])->getRHS();
      L.Else = (ThenA ? W.Assignments[1] : W.Assignments[0])->getRHS();
      return L;
    }
  }
  return inSequence(V, Use, Ctx);
}

} // namespace irregfix
