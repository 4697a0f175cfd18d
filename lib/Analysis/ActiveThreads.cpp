#include "Analysis/ActiveThreads.h"
#include "Analysis/Parents.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/LocalValues.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ExprCXX.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>

using namespace clang;

namespace irregfix {

// Which index a guard bounds: the 1-D index, or one dimension's.
using IsIndex = std::function<bool(const Expr *)>;

// `t < n` or `n > t` → n; for `a && b`, either conjunct.
static const Expr *boundFromLess(const Expr *Cond, const IsIndex &T) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LAnd) {
    if (const Expr *N = boundFromLess(BO->getLHS(), T))
      return N;
    return boundFromLess(BO->getRHS(), T);
  }
  if (BO->getOpcode() == BO_LT && T(BO->getLHS()))
    return BO->getRHS();
  if (BO->getOpcode() == BO_GT && T(BO->getRHS()))
    return BO->getLHS();
  return nullptr;
}

// `t >= n` or `n <= t` → n; for `a || b`, either disjunct.
static const Expr *boundFromGreaterEqual(const Expr *Cond, const IsIndex &T) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LOr) {
    if (const Expr *N = boundFromGreaterEqual(BO->getLHS(), T))
      return N;
    return boundFromGreaterEqual(BO->getRHS(), T);
  }
  if (BO->getOpcode() == BO_GE && T(BO->getLHS()))
    return BO->getRHS();
  if (BO->getOpcode() == BO_LE && T(BO->getRHS()))
    return BO->getLHS();
  return nullptr;
}

static bool isReturn(const Stmt *S) {
  if (isa_and_nonnull<ReturnStmt>(S))
    return true;
  const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
  return CS && CS->size() == 1 && isa<ReturnStmt>(CS->body_front());
}

static bool contains(const Stmt *Outer, const Stmt *Inner) {
  if (!Outer)
    return false;
  if (Outer == Inner)
    return true;
  for (const Stmt *Child : Outer->children())
    if (contains(Child, Inner))
      return true;
  return false;
}

static const Expr *findBound(const Stmt *S, ASTContext &Ctx, const IsIndex &W) {
  const Stmt *Child = S;
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = parentsOf(*Child, Ctx);
    if (Parents.empty())
      return nullptr;
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return nullptr; // reached the function
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (contains(If->getThen(), S))
        if (const Expr *N = boundFromLess(If->getCond(), W))
          return N;
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      // The condition of a grid-stride loop bounds its variable in the body.
      if (contains(For->getBody(), S) && For->getCond())
        if (const Expr *N = boundFromLess(For->getCond(), W))
          return N;
    } else if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      for (const Stmt *Sibling : CS->body()) {
        if (Sibling == Child)
          break;
        const auto *If = dyn_cast<IfStmt>(Sibling);
        if (If && !If->getElse() && isReturn(If->getThen()))
          if (const Expr *N = boundFromGreaterEqual(If->getCond(), W))
            return N;
      }
    }
    Child = Parent;
  }
  return nullptr;
}

const Expr *findActiveThreads(const Stmt *S, ASTContext &Ctx, const WriteSet &W) {
  return findBound(S, Ctx, [&W](const Expr *E) { return isGlobalThreadIndex(E, W); });
}

namespace {

// Whether conditions depend on the thread's position (threadIdx, blockIdx),
// directly, through locals or through values loaded at it: `if (t < n)` with
// `t = order[gid]` keeps threads from reading B[t] as surely as a guard does.
class PositionTest {
public:
  explicit PositionTest(const FunctionDecl *Kernel) : Values(Kernel) {}

  bool dependsOnPosition(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *E = dyn_cast<Expr>(S))
      for (const char *Var : {"threadIdx", "blockIdx"})
        if (isBuiltinIndexRead(E, Var, 0))
          return true;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->isLocalVarDecl())
        return localDepends(V);
    if (isa<LambdaExpr>(S))
      return false;
    for (const Stmt *C : S->children())
      if (dependsOnPosition(C))
        return true;
    return false;
  }

private:
  // A local depends on the position when any value it is given does.
  bool localDepends(const VarDecl *V) {
    if (auto It = Known.find(V); It != Known.end())
      return It->second;
    Known[V] = false; // a local defined from itself (`j = j + 1`) adds nothing
    bool Depends = false;
    for (const Expr *D : Values.definitions(V))
      Depends |= dependsOnPosition(D);
    return Known[V] = Depends;
  }

  LocalValues Values;
  std::map<const VarDecl *, bool> Known;
};

bool jumpsOut(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (jumpsOut(C))
      return true;
  return false;
}

// An `if` inside S whose condition depends on the thread's position and
// whose branches leave (return, break, continue, goto).
bool positionExit(const Stmt *S, PositionTest &P) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *If = dyn_cast<IfStmt>(S); If && (jumpsOut(If->getThen()) || jumpsOut(If->getElse())) &&
                                            P.dependsOnPosition(If->getCond()))
    return true;
  for (const Stmt *C : S->children())
    if (positionExit(C, P))
      return true;
  return false;
}

// Whether a condition on the thread's position decides whether S runs: the
// condition of an if, loop, switch, `?:`, `&&` or `||` around it, or an
// earlier `if (...) return` (break, continue, goto) in a block around it.
bool reachedByCondition(const Stmt *S, ASTContext &Ctx) {
  std::vector<const Stmt *> Conditions, Before;
  const FunctionDecl *Kernel = nullptr;
  const Stmt *Child = S;
  for (int Depth = 0; Depth < 256 && !Kernel; ++Depth) {
    auto Parents = parentsOf(*Child, Ctx);
    if (Parents.empty())
      return true; // where S is cannot be told: as if a condition kept it
    Kernel = Parents[0].get<FunctionDecl>();
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (Kernel || !Parent)
      break;
    if (const auto *If = dyn_cast<IfStmt>(Parent); If && Child != If->getCond())
      Conditions.push_back(If->getCond());
    else if (const auto *For = dyn_cast<ForStmt>(Parent); For && Child != For->getInit())
      Conditions.push_back(For->getCond());
    else if (const auto *While = dyn_cast<WhileStmt>(Parent))
      Conditions.push_back(While->getCond());
    else if (const auto *Do = dyn_cast<DoStmt>(Parent))
      Conditions.push_back(Do->getCond());
    else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent); Switch && Child != Switch->getCond())
      Conditions.push_back(Switch->getCond());
    else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(Parent); CO && Child != CO->getCond())
      Conditions.push_back(CO->getCond());
    else if (const auto *BO = dyn_cast<BinaryOperator>(Parent); BO && BO->isLogicalOp() && Child == BO->getRHS())
      Conditions.push_back(BO->getLHS());
    else if (const auto *CS = dyn_cast<CompoundStmt>(Parent))
      for (const Stmt *Sibling : CS->body()) {
        if (Sibling == Child)
          break;
        Before.push_back(Sibling);
      }
    Child = Parent;
  }
  if (!Kernel)
    return true;
  PositionTest P(Kernel);
  for (const Stmt *C : Conditions)
    if (P.dependsOnPosition(C))
      return true;
  for (const Stmt *B : Before)
    if (positionExit(B, P))
      return true;
  return false;
}

// 'j', or "the y index" where the index is not a name.
std::string indexName(const Expr *Index, char D) {
  if (const VarDecl *V = refToVar(Index))
    return quoted(V);
  return std::string("the ") + D + " index";
}

std::string spelled(const std::vector<const Expr *> &Factors, ASTContext &Ctx) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (size_t I = 0; I < Factors.size(); ++I) {
    OS << (I ? " * " : "");
    Factors[I]->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  }
  return "'" + Out + "'";
}

// The row pitch P where j steps by P and the x index's bound is P less a
// non-negative constant (`i < nx - 1`, j multiplied by nx): then every i
// below the bound is below P too, and i + P * j is one to one. Null where that
// is not certain: a bound above P (`nx + 1`), another name, arithmetic in an
// unsigned type (`nx - 1` wraps past nx when nx is 0).
const Expr *pitchAtLeastBound(const Expr *Bound, const std::vector<const Expr *> &Stride, ASTContext &Ctx,
                              const WriteSet &W) {
  auto Signed = [](const Expr *E) { return E->getType()->isSignedIntegerType(); };
  const Expr *E = Bound;
  for (;;) { // through parentheses and conversions that keep every value
    if (!Signed(E))
      return nullptr;
    if (const auto *P = dyn_cast<ParenExpr>(E)) {
      E = P->getSubExpr();
      continue;
    }
    const auto *C = dyn_cast<ImplicitCastExpr>(E);
    if (C && C->getCastKind() == CK_IntegralCast && Signed(C->getSubExpr()) &&
        Ctx.getIntWidth(C->getSubExpr()->getType()) <= Ctx.getIntWidth(C->getType())) {
      E = C->getSubExpr();
      continue;
    }
    break;
  }
  const auto *Less = dyn_cast<BinaryOperator>(E);
  if (!Less || Less->getOpcode() != BO_Sub)
    return nullptr;
  Expr::EvalResult K;
  if (!Less->getRHS()->EvaluateAsInt(K, Ctx) || K.Val.getInt().isNegative())
    return nullptr;
  return sameFactors(productFactors(Less->getLHS(), W), Stride, Ctx) ? Less->getLHS() : nullptr;
}

ActiveThreadCount linearCount(const LinearThreadIndex &L, const Stmt *Anchor, ASTContext &Ctx, const WriteSet &W,
                              bool AcceptPitch) {
  ActiveThreadCount C;
  auto Refuse = [&](std::string Why) {
    C.RefusedBecause = std::move(Why);
    return C;
  };
  if (!L.Dims[0].Index || !L.Dims[1].Index)
    return Refuse("the linear thread index does not number x and y (i + nx * j)");
  std::vector<const Expr *> Below; // the bounds of the dimensions before, multiplied
  for (unsigned D = 0; D < 3; ++D) {
    const LinearThreadIndex::Term &T = L.Dims[D];
    if (!T.Index)
      continue;
    const char Dim = "xyz"[D];
    const Expr *N = findBound(Anchor, Ctx, [&](const Expr *E) { return isDimensionThreadIndex(E, Dim, W); });
    if (!N)
      return Refuse("no guard bounds " + indexName(T.Index, Dim) + ", the " + Dim +
                    " index of the linear thread index (each index needs one: if (i < nx && j < ny))");
    if (!isLaunchEvaluable(N, W))
      return Refuse("the guard bound of " + indexName(T.Index, Dim) + " is not computable from the kernel's arguments");
    // One-to-one: each index steps by the product of the bounds before it,
    // or j by a row pitch at least the x bound (then the rows' positions past
    // it are no thread's, and n counts P per row).
    if (!sameFactors(T.Stride, Below, Ctx)) {
      if (D == 0)
        return Refuse("the linear thread index multiplies " + indexName(T.Index, Dim) + " by " +
                      spelled(T.Stride, Ctx) + "; its x index must step by 1");
      const Expr *Pitch = D == 1 && AcceptPitch ? pitchAtLeastBound(C.Extents[0], T.Stride, Ctx, W) : nullptr;
      if (!Pitch)
        return Refuse("the linear thread index is not one-to-one: " + indexName(T.Index, Dim) + " is multiplied by " +
                      spelled(T.Stride, Ctx) + ", not by " + spelled(Below, Ctx) +
                      (D == 1 ? ", the bound of its x index" : ", the bounds of its x and y indices"));
      C.Extents[0] = Pitch;
      Below = productFactors(Pitch, W);
    }
    C.Extents.push_back(N);
    for (const Expr *F : productFactors(N, W))
      Below.push_back(F);
  }
  return C;
}

} // namespace

ActiveThreadCount countActiveThreads(const Expr *ThreadIndex, const Stmt *Anchor, ASTContext &Ctx,
                                     const WriteSet &W, bool AcceptPitch) {
  if (ThreadIndex)
    if (auto L = asLinearThreadIndex(ThreadIndex, W))
      return linearCount(*L, Anchor, Ctx, W, AcceptPitch);
  ActiveThreadCount C;
  if (const Expr *N = findActiveThreads(Anchor, Ctx, W)) {
    if (isGuardBoundEvaluable(N, W))
      C.Bound = N;
    else
      C.RefusedBecause = "the guard bound is not computable from the kernel's arguments";
    return C;
  }
  // Nothing bounds the index: every launched thread is active, unless a
  // condition the tool cannot read as a bound keeps some from the site.
  if (reachedByCondition(Anchor, Ctx))
    C.RefusedBecause = "no guard 'if (t < n)' or 'if (t >= n) return' bounds the thread index";
  else
    C.Launch = true;
  return C;
}

bool isLaunchEvaluable(const Expr *N, const WriteSet &W) {
  N = N->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(N) || isa<CharacterLiteral>(N))
    return true;
  if (const auto *C = dyn_cast<CastExpr>(N))
    return isLaunchEvaluable(C->getSubExpr(), W);
  if (const auto *DR = dyn_cast<DeclRefExpr>(N)) {
    const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
    if (P)
      return !P->getType()->isReferenceType() && !W.writesScalar(P);
    // Enumerators and constexpr constants are fine too.
    if (isa<EnumConstantDecl>(DR->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    return V && V->isConstexpr() && !V->isLocalVarDecl(); // in scope at the launch too
  }
  if (const auto *ME = dyn_cast<MemberExpr>(N))
    return !ME->isArrow() && isLaunchEvaluable(ME->getBase(), W);
  if (const auto *BO = dyn_cast<BinaryOperator>(N))
    return !BO->isAssignmentOp() && !BO->isCommaOp() && isLaunchEvaluable(BO->getLHS(), W) &&
           isLaunchEvaluable(BO->getRHS(), W);
  if (const auto *UO = dyn_cast<UnaryOperator>(N))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           isLaunchEvaluable(UO->getSubExpr(), W);
  return false;
}

namespace {

// Every use of V in its function only reads it: under an lvalue-to-rvalue cast.
bool onlyRead(const VarDecl *V, const Stmt *S, const Stmt *Parent) {
  if (!S)
    return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V) {
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
    return Cast && Cast->getCastKind() == CK_LValueToRValue;
  }
  for (const Stmt *Child : S->children())
    if (!onlyRead(V, Child, S))
      return false;
  return true;
}

// A local whose value is its initialiser wherever the kernel reads it.
const Expr *heldValue(const DeclRefExpr *DR) {
  const auto *V = dyn_cast<VarDecl>(DR->getDecl());
  if (!V || !V->isLocalVarDecl() || V->isStaticLocal() || !V->hasInit() || V->getType().isVolatileQualified() ||
      !V->getType()->isIntegerType() || DR->getBeginLoc().isMacroID() || V->getInit()->getBeginLoc().isMacroID() ||
      V->getInit()->getEndLoc().isMacroID())
    return nullptr;
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->getBody() || !onlyRead(V, F->getBody(), nullptr))
    return nullptr;
  return V->getInit();
}

bool guardEvaluable(const Expr *N, const WriteSet &W, int Depth) {
  if (Depth > 16)
    return false;
  N = N->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(N))
    if (const Expr *Init = heldValue(DR))
      return guardEvaluable(Init, W, Depth + 1);
  if (const auto *C = dyn_cast<CastExpr>(N))
    return guardEvaluable(C->getSubExpr(), W, Depth);
  if (const auto *BO = dyn_cast<BinaryOperator>(N))
    return !BO->isAssignmentOp() && !BO->isCommaOp() && guardEvaluable(BO->getLHS(), W, Depth) &&
           guardEvaluable(BO->getRHS(), W, Depth);
  if (const auto *CO = dyn_cast<ConditionalOperator>(N))
    return guardEvaluable(CO->getCond(), W, Depth) && guardEvaluable(CO->getTrueExpr(), W, Depth) &&
           guardEvaluable(CO->getFalseExpr(), W, Depth);
  if (const auto *UO = dyn_cast<UnaryOperator>(N))
    if (UO->getOpcode() == UO_LNot)
      return guardEvaluable(UO->getSubExpr(), W, Depth);
  return isLaunchEvaluable(N, W);
}

void collectHeldLocals(const Stmt *S, std::vector<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && heldValue(DR)) {
    Out.push_back(DR);
    return;
  }
  for (const Stmt *Child : S->children())
    collectHeldLocals(Child, Out);
}

} // namespace

bool isGuardBoundEvaluable(const Expr *N, const WriteSet &W) { return guardEvaluable(N, W, 0); }

std::vector<const DeclRefExpr *> guardBoundLocals(const Expr *N) {
  std::vector<const DeclRefExpr *> Out;
  collectHeldLocals(N, Out);
  return Out;
}

} // namespace irregfix
