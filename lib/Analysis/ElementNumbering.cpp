#include "Analysis/ElementNumbering.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Calls.h"
#include "Analysis/Parents.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <set>

using namespace clang;

namespace irregfix {

bool KernelNumbering::hasElements() const {
  for (const NumberingParam &P : Pointers)
    if (P.Role & kRoleElements)
      return true;
  return false;
}

namespace {

// What the kernel's body holds, in one walk.
struct BodyFacts : RecursiveASTVisitor<BodyFacts> {
  std::vector<const ArraySubscriptExpr *> Subscripts;
  std::vector<const DeclRefExpr *> Refs;
  std::vector<const VarDecl *> Locals;
  std::vector<const CallExpr *> Calls;
  std::vector<const BinaryOperator *> Comparisons;
  std::vector<const ForStmt *> Loops;
  std::vector<const Expr *> LaneReads; // every `threadIdx.x`
  std::string Refused;

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    Subscripts.push_back(E);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Refs.push_back(E);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>() && Refused.empty())
      Refused = "it uses shared memory";
    if (!isa<ParmVarDecl>(V))
      Locals.push_back(V);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    Calls.push_back(C);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isComparisonOp())
      Comparisons.push_back(B);
    return true;
  }
  bool VisitForStmt(ForStmt *F) {
    Loops.push_back(F);
    return true;
  }
  // threadIdx.x as CUDA's headers declare it (a property read) or as a member.
  bool VisitPseudoObjectExpr(PseudoObjectExpr *E) {
    if (isBuiltinIndexRead(E, "threadIdx", 'x'))
      LaneReads.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (isBuiltinIndexRead(E, "threadIdx", 'x'))
      LaneReads.push_back(E);
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *) {
    if (Refused.empty())
      Refused = "it uses inline assembly";
    return true;
  }
};

class Numbering {
public:
  Numbering(const KernelInfo &Info, ASTContext &Ctx, bool Reassociate)
      : Info(Info), Ctx(Ctx), K(Info.Kernel), Reassociate(Reassociate) {}

  KernelNumbering run() {
    Out.Kernel = K;
    for (const ParmVarDecl *P : K->parameters())
      if (P->getType()->isPointerType()) {
        NumberingParam NP;
        NP.Param = P;
        QualType T = P->getType()->getPointeeType();
        // (A template's parameter types may be dependent: no size asked of them.)
        if (!T->isIncompleteType() && !T->isFunctionType() && !T->isDependentType() && !T->isUndeducedType() &&
            T->isConstantSizeType())
          NP.Bytes = static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
        Index[P] = Out.Pointers.size();
        Out.Pointers.push_back(NP);
      }
    if (Info.Template || K->isTemplateInstantiation() || K->getDescribedFunctionTemplate())
      return refuse("it is a template");
    if (!K->hasBody())
      return refuse("its body is not in this file");
    Facts.TraverseStmt(K->getBody());
    if (reduction())
      return Out;
    if (!Facts.Refused.empty())
      return refuse(Facts.Refused);
    if (!threadIndex() || !cooperation() || !countGuard() || !rows() || !laneUses() || !exchanges())
      return Out;
    numbers();
    if (!Out.NotBecause.empty())
      return Out;
    if (!uses() || !roles())
      return Out;
    graph();
    return Out;
  }

private:
  KernelNumbering refuse(std::string Why) {
    if (Out.NotBecause.empty())
      Out.NotBecause = std::move(Why);
    return Out;
  }
  bool fail(std::string Why) {
    refuse(std::move(Why));
    return false;
  }
  std::string text(const Stmt *S) const { return spelledText(S, Ctx, 60); }
  const ParmVarDecl *pointerParam(const Expr *E) const {
    const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
    const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    return P && Index.count(P) ? P : nullptr;
  }
  NumberingParam &param(const ParmVarDecl *P) { return Out.Pointers[Index.at(P)]; }
  // The node E is an operand of, above parentheses and implicit casts.
  const Stmt *user(const Expr *E) const {
    const Stmt *Cur = E;
    for (int Depth = 0; Depth < 16; ++Depth) {
      const Stmt *P = parentStmt(Cur, Ctx);
      if (!P || !(isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) || isa<CStyleCastExpr>(P) ||
                  isa<CXXStaticCastExpr>(P) || isa<CXXFunctionalCastExpr>(P)))
        return P;
      Cur = P;
    }
    return nullptr;
  }
  const Expr *operandBelow(const Stmt *User, const Expr *E) const {
    // The child of User that holds E.
    const Stmt *Cur = E;
    for (int Depth = 0; Depth < 16 && Cur; ++Depth) {
      const Stmt *P = parentStmt(Cur, Ctx);
      if (P == User)
        return dyn_cast<Expr>(Cur);
      Cur = P;
    }
    return nullptr;
  }

  // A reduction over the elements: `for (i = <thread index>; i < n; i +=
  // <grid stride>) acc += f(a[i], b[i], ...)`, the arrays read nowhere else.
  // Another numbering hands each thread other elements: its partial sum, and
  // so the sum of the partials, is another grouping of the same terms. Exact
  // for integers whose partials go straight to a matching atomic; otherwise
  // only with --reassociate, which also takes the kernel to combine its
  // threads' partials by sums (through shared memory, a second kernel). True
  // when the kernel has this shape (Out says whether it qualifies).
  bool reduction() {
    const VarDecl *I = nullptr;
    const ForStmt *Loop = nullptr;
    for (const VarDecl *V : Facts.Locals)
      if (const ForStmt *F = Info.Writes.gridStrideLoop(V); F && V->getInit() && V->getType()->isIntegerType() &&
                                                           isGlobalThreadIndexArithmetic(V->getInit(), Info.Writes.locals()))
        I = V, Loop = F;
    if (!I)
      return false;
    Out.Reduction = true;
    const auto *C = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
    const auto *DR = C ? dyn_cast<DeclRefExpr>(strip(C->getRHS())) : nullptr;
    const auto *N = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    if (!C || C->getOpcode() != BO_LT || refToVar(C->getLHS()) != I || !N || !N->getType()->isIntegerType()) {
      refuse("its grid-stride loop is not bounded by `" + I->getNameAsString() + " < n` for a parameter n");
      return true;
    }
    Out.Count = N;
    // Every use of i: the loop's control, or the index of an array read in a sum.
    std::set<const ParmVarDecl *> Elements;
    std::set<const ArraySubscriptExpr *> Reads;
    for (const DeclRefExpr *R : Facts.Refs) {
      if (R->getDecl() != I || strip(C->getLHS()) == R)
        continue;
      const Stmt *U = user(R);
      if (const auto *Step = dyn_cast_or_null<CompoundAssignOperator>(U); Step && Step == strip(Loop->getInc()))
        continue;
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(U);
      const ParmVarDecl *P = AS && operandBelow(AS, R) == AS->getIdx() ? pointerParam(AS->getBase()) : nullptr;
      if (!P || !isPlainRead(AS, Ctx)) {
        refuse("it uses its element index '" + I->getNameAsString() + "' in '" + text(U ? U : R) + "'");
        return true;
      }
      Elements.insert(P);
      Reads.insert(AS);
    }
    for (const ArraySubscriptExpr *AS : Facts.Subscripts)
      if (const ParmVarDecl *P = pointerParam(AS->getBase()); P && Elements.count(P) && !Reads.count(AS)) {
        refuse("it reads '" + P->getNameAsString() + "' at '" + text(AS->getIdx()) + "' too");
        return true;
      }
    std::set<const VarDecl *> Sums;
    bool Floating = false;
    for (const ArraySubscriptExpr *AS : Reads) {
      const VarDecl *Acc = accumulator(AS, Loop);
      if (!Acc) {
        refuse("it uses '" + text(AS) + "' other than in a sum over its elements");
        return true;
      }
      Sums.insert(Acc);
      Floating = Floating || !Acc->getType()->isIntegerType();
    }
    bool Exact = !Floating;
    for (const DeclRefExpr *R : Facts.Refs)
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && Sums.count(V) && !inside(R, Loop))
        Exact = Exact && toAtomicAdd(R);
    // Without --reassociate a sum another grouping changes reads its elements
    // through the order instead: the same terms, summed by the same threads.
    Out.ThroughOrder = !Exact && !Reassociate;
    Out.Reassociates = !Exact && Reassociate;
    if (Out.ThroughOrder) {
      Out.ElementReads.assign(Reads.begin(), Reads.end());
      Out.RegroupedBecause = Floating ? "its floating-point sum over the elements would be regrouped by another "
                                        "numbering (--reassociate allows it)"
                                      : "its threads' partial sums are combined in a way the tool does not follow "
                                        "(--reassociate takes them for sums)";
    }
    for (NumberingParam &NP : Out.Pointers) {
      if (Elements.count(NP.Param)) {
        NP.Role = kRoleElements;
        if (NP.Bytes == 0)
          return refuse("'" + NP.Param->getNameAsString() + "' points to elements of unknown size"), true;
        continue;
      }
      for (const DeclRefExpr *R : Facts.Refs)
        if (R->getDecl() == NP.Param)
          NP.Role = kRoleOther;
    }
    return true;
  }
  // The local that `acc += e` (or -=, |=, &=, ^=), declared outside Loop, sums
  // a read into, through arithmetic and casts only.
  const VarDecl *accumulator(const Expr *Read, const ForStmt *Loop) const {
    const Stmt *Cur = Read;
    for (int Depth = 0; Depth < 16; ++Depth) {
      const Stmt *P = parentStmt(Cur, Ctx);
      if (!P)
        return nullptr;
      if (const auto *CA = dyn_cast<CompoundAssignOperator>(P)) {
        const BinaryOperatorKind Op = CA->getOpcode();
        const VarDecl *Acc = refToVar(CA->getLHS());
        if (CA->getRHS() != Cur || !Acc || isa<ParmVarDecl>(Acc) || inside(Acc, Loop) ||
            !(Op == BO_AddAssign || Op == BO_SubAssign || Op == BO_OrAssign || Op == BO_AndAssign ||
              Op == BO_XorAssign))
          return nullptr;
        return Acc;
      }
      // The element's value in arithmetic or a comparison: still one term.
      if (const auto *B = dyn_cast<BinaryOperator>(P); B && (B->isAssignmentOp() || B->getOpcode() == BO_Comma))
        return nullptr;
      if (const auto *U = dyn_cast<UnaryOperator>(P); U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf ||
                                                            U->getOpcode() == UO_Deref))
        return nullptr;
      if (!isa<BinaryOperator>(P) && !isa<UnaryOperator>(P) && !isa<ParenExpr>(P) && !isa<ImplicitCastExpr>(P) &&
          !isa<CStyleCastExpr>(P) && !isa<CXXStaticCastExpr>(P) && !isa<CXXFunctionalCastExpr>(P))
        return nullptr;
      Cur = P;
    }
    return nullptr;
  }
  bool inside(const Stmt *S, const Stmt *Outer) const {
    for (const Stmt *Cur = S; Cur; Cur = parentStmt(Cur, Ctx))
      if (Cur == Outer)
        return true;
    return false;
  }
  // Whether V is declared in Outer (its declaration statement there).
  bool inside(const VarDecl *V, const Stmt *Outer) const {
    auto Parents = parentsOf(*V, Ctx);
    const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    return DS && inside(DS, Outer);
  }
  // `atomicAdd(p, acc)`: an integer partial added straight to the total.
  bool toAtomicAdd(const DeclRefExpr *R) const {
    const auto *Call = dyn_cast_or_null<CallExpr>(user(R));
    const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    return F && F->getName() == "atomicAdd" && Call->getNumArgs() == 2 && strip(Call->getArg(1)) == R;
  }

  // t: the one local initialised with the global thread index and never
  // written, or the group index `row = t / G` of a lane group (lanes());
  // threadIdx and blockIdx read nowhere else.
  bool threadIndex() {
    const VarDecl *Global = nullptr;
    for (const VarDecl *V : Facts.Locals)
      if (V->getInit() && V->getType()->isIntegerType() && isGlobalThreadIndexArithmetic(V->getInit(), Info.Writes.locals()) &&
          !Info.Writes.writesScalar(V)) {
        if (Global)
          return fail("it computes its thread index twice");
        Global = V;
      }
    if (!lanes(Global))
      return false;
    if (!T)
      return fail("its thread index is no local initialised with blockIdx.x * blockDim.x + threadIdx.x and "
                  "never written");
    unsigned Builtins = 0, Counted = 0;
    for (const DeclRefExpr *R : Facts.Refs)
      if (R->getDecl()->getName() == "threadIdx" || R->getDecl()->getName() == "blockIdx")
        ++Builtins;
    std::set<const VarDecl *> Indices(LaneVars.begin(), LaneVars.end());
    Indices.insert(T);
    if (Thread)
      Indices.insert(Thread);
    std::vector<const Stmt *> Allowed;
    for (const VarDecl *V : Indices)
      Allowed.push_back(V->getInit());
    // In a block's rows threadIdx.x is the lane wherever it is read (laneUses() checks how).
    if (Out.LanesInX)
      for (const Expr *E : Facts.LaneReads)
        if (!inIndexDefinition(E))
          Allowed.push_back(E);
    for (const Stmt *S : Allowed) {
      BodyFacts Init;
      Init.TraverseStmt(const_cast<Stmt *>(S));
      for (const DeclRefExpr *R : Init.Refs)
        if (R->getDecl()->getName() == "threadIdx" || R->getDecl()->getName() == "blockIdx")
          ++Counted;
    }
    if (Builtins != Counted)
      return fail("it reads threadIdx or blockIdx besides its thread index");
    Numbers.insert(T);
    return true;
  }

  // The integer constant E is, or 0 (none, not positive, or wider than 32 bits).
  uint64_t constant(const Expr *E) const {
    std::optional<llvm::APSInt> V = strip(E)->getIntegerConstantExpr(Ctx);
    return V && V->isStrictlyPositive() && V->getActiveBits() <= 32 ? V->getZExtValue() : 0;
  }
  // G when it is a lane group's size (a power of two from 2 to 32), else 0.
  static unsigned groupSize(uint64_t G) {
    return G >= 2 && G <= 32 && (G & (G - 1)) == 0 ? static_cast<unsigned>(G) : 0;
  }
  // Whether E is the global thread index: the arithmetic, or Global.
  bool isThread(const Expr *E, const VarDecl *Global) const {
    const VarDecl *V = refToVar(strip(E));
    return (Global && V == Global) || (!V && isGlobalThreadIndexArithmetic(strip(E), Info.Writes.locals()));
  }
  // G when E is `x / G` or `x >> s` (G = 2^s, 2 to 32) for the global thread index x.
  unsigned groupOf(const Expr *E, const VarDecl *Global) const {
    const auto *B = dyn_cast<BinaryOperator>(strip(E));
    if (!B || !isThread(B->getLHS(), Global))
      return 0;
    const uint64_t C = constant(B->getRHS());
    return groupSize(B->getOpcode() == BO_Div ? C : B->getOpcode() == BO_Shr && C > 0 && C <= 5 ? 1u << C : 0);
  }
  // G when E is `x % G` or `x & (G - 1)` for the global thread index x or
  // threadIdx.x (the same lane when the launch's blocks are a multiple of G
  // threads, which DomainLaunches proves at each launch).
  unsigned laneOf(const Expr *E, const VarDecl *Global) const {
    const auto *B = dyn_cast<BinaryOperator>(strip(E));
    if (!B || !(isThread(B->getLHS(), Global) || isBuiltinIndexRead(strip(B->getLHS()), "threadIdx", 'x')))
      return 0;
    const uint64_t C = constant(B->getRHS());
    return groupSize(B->getOpcode() == BO_Rem ? C : B->getOpcode() == BO_And ? C + 1 : 0);
  }

  // A group of G lanes an element: `row = t / G` (or `t >> s`) is the
  // element index, `lane = t % G` (or `t & (G - 1)`, `threadIdx.x % G`) the
  // lane. The group's G consecutive threads lie in one warp (blocks of a
  // multiple of G threads, proven at the launches); its lanes do the same
  // work on the row whatever its number, as long as the lane only starts the
  // row's strided loop or picks the lane that stores (laneUses), and values
  // cross lanes only within the group (exchanges). Without a row local, t is
  // the element index.
  bool lanes(const VarDecl *Global) {
    for (const VarDecl *V : Facts.Locals)
      if (V->getInit() && V->getType()->isIntegerType() && !Info.Writes.writesScalar(V))
        if (const unsigned G = groupOf(V->getInit(), Global)) {
          if (T)
            return fail("it computes its row of lanes twice");
          T = V, Thread = Global, Out.Lanes = G;
        }
    if (!T) {
      if (!blockLanes())
        return false;
      if (!T)
        T = Global;
      return true;
    }
    for (const VarDecl *V : Facts.Locals)
      if (V->getInit() && V->getType()->isIntegerType() && !Info.Writes.writesScalar(V))
        if (const unsigned G = laneOf(V->getInit(), Thread)) {
          if (G != Out.Lanes)
            return fail("its lane '" + V->getNameAsString() + "' is of groups of " + std::to_string(G) +
                        " threads, its row '" + T->getNameAsString() + "' of " + std::to_string(Out.Lanes));
          LaneVars.insert(V);
        }
    // The global index goes only into the row and the lanes.
    if (Thread)
      for (const DeclRefExpr *R : Facts.Refs) {
        if (R->getDecl() != Thread || inside(R, T->getInit()))
          continue;
        bool Lane = false;
        for (const VarDecl *L : LaneVars)
          Lane = Lane || inside(R, L->getInit());
        if (!Lane)
          return fail("it uses its thread index '" + Thread->getNameAsString() + "' besides its row '" +
                      T->getNameAsString() + "' and lane ('" + text(user(R) ? user(R) : R) + "')");
      }
    return true;
  }
  // `blockIdx.x * blockDim.y + threadIdx.y` (factors and terms in either order).
  static bool isBlockRow(const Expr *E) {
    const auto *Add = dyn_cast<BinaryOperator>(strip(E));
    if (!Add || Add->getOpcode() != BO_Add)
      return false;
    const Expr *L = strip(Add->getLHS()), *R = strip(Add->getRHS());
    if (isBuiltinIndexRead(L, "threadIdx", 'y'))
      std::swap(L, R);
    const auto *Mul = dyn_cast<BinaryOperator>(L);
    if (!Mul || Mul->getOpcode() != BO_Mul || !isBuiltinIndexRead(R, "threadIdx", 'y'))
      return false;
    const Expr *A = strip(Mul->getLHS()), *B = strip(Mul->getRHS());
    return (isBuiltinIndexRead(A, "blockIdx", 'x') && isBuiltinIndexRead(B, "blockDim", 'y')) ||
           (isBuiltinIndexRead(B, "blockIdx", 'x') && isBuiltinIndexRead(A, "blockDim", 'y'));
  }
  // G when E is `threadIdx.x % G` or `threadIdx.x & (G - 1)`, else 0.
  unsigned maskedLaneX(const Expr *E) const {
    const auto *B = dyn_cast<BinaryOperator>(strip(E));
    if (!B || !isBuiltinIndexRead(strip(B->getLHS()), "threadIdx", 'x'))
      return 0;
    const uint64_t C = constant(B->getRHS());
    return groupSize(B->getOpcode() == BO_Rem ? C : B->getOpcode() == BO_And ? C + 1 : 0);
  }
  // Whether E is a lane: a lane local, or (a block's rows) threadIdx.x itself.
  bool isLane(const Expr *E) const {
    E = strip(E);
    if (const VarDecl *V = refToVar(E))
      return LaneVars.count(V) > 0;
    return Out.LanesInX && llvm::is_contained(Facts.LaneReads, E);
  }
  // A block's rows of threads in x, a row each: `row = blockIdx.x *
  // blockDim.y + threadIdx.y` is the element index and threadIdx.x the lane
  // (or a local holding it, `threadIdx.x % G`). G is the constant its loops
  // from `P[row] + lane` stride by; each launch's blocks must be G threads in
  // x (DomainLaunches), so that a row's G lanes are an aligned G of a warp's
  // lanes whichever row they take. No such row: T stays null.
  bool blockLanes() {
    for (const VarDecl *V : Facts.Locals)
      if (V->getInit() && V->getType()->isIntegerType() && !Info.Writes.writesScalar(V) && isBlockRow(V->getInit())) {
        if (T)
          return fail("it computes its row of lanes twice");
        T = V;
      }
    if (!T)
      return true;
    Out.LanesInX = true;
    std::map<const VarDecl *, unsigned> Masked; // lane locals `threadIdx.x % G`, G checked below
    for (const VarDecl *V : Facts.Locals)
      if (V->getInit() && V->getType()->isIntegerType() && !Info.Writes.writesScalar(V)) {
        if (isBuiltinIndexRead(strip(V->getInit()), "threadIdx", 'x'))
          LaneVars.insert(V);
        else if (const unsigned G = maskedLaneX(V->getInit()))
          LaneVars.insert(V), Masked[V] = G;
      }
    for (const ForStmt *F : Facts.Loops) {
      const Expr *First = loopStart(F);
      const auto *Plus = First ? dyn_cast<BinaryOperator>(strip(First)) : nullptr;
      if (!Plus || Plus->getOpcode() != BO_Add || !(isLane(Plus->getLHS()) || isLane(Plus->getRHS())))
        continue;
      const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(F->getInc() ? strip(F->getInc()) : nullptr);
      const unsigned G = Inc && Inc->getOpcode() == BO_AddAssign ? groupSize(constant(Inc->getRHS())) : 0;
      const Stmt *Step = F->getInc() ? static_cast<const Stmt *>(F->getInc()) : F;
      if (!G)
        return fail("its lanes (threadIdx.x) stride their loop ('" + text(Step) +
                    "') by other than a constant power of two up to 32");
      if (Out.Lanes > 1 && G != Out.Lanes)
        return fail("its lanes stride one loop by " + std::to_string(Out.Lanes) + " and another by " +
                    std::to_string(G));
      Out.Lanes = G;
    }
    if (Out.Lanes == 1)
      return fail("its row '" + T->getNameAsString() + "' is shared by the lanes threadIdx.x, and no loop from " +
                  "a lane strides by a constant count of lanes");
    for (const auto &[V, G] : Masked)
      if (G != Out.Lanes)
        return fail("its lane '" + V->getNameAsString() + "' is of groups of " + std::to_string(G) +
                    " threads, its lanes' loop strides by " + std::to_string(Out.Lanes));
    return true;
  }
  // Whether E is in the definition of the row or of a lane local.
  bool inIndexDefinition(const Expr *E) const {
    if (T && T->getInit() && inside(E, T->getInit()))
      return true;
    for (const VarDecl *L : LaneVars)
      if (inside(E, L->getInit()))
        return true;
    return false;
  }
  // A lane in `L == 0` (or `0 == L`), the condition of an if.
  bool isLaneZero(const Expr *E) const {
    const auto *B = dyn_cast<BinaryOperator>(strip(E));
    if (!B || B->getOpcode() != BO_EQ)
      return false;
    return (isLane(B->getLHS()) && isIntLiteral(B->getRHS(), 0)) ||
           (isLane(B->getRHS()) && isIntLiteral(B->getLHS(), 0));
  }
  // Whether a condition holds only on lane 0: `lane == 0`, or a conjunction
  // with it (`row < n && lane == 0`).
  bool onlyLaneZero(const Expr *Cond) const {
    const auto *B = dyn_cast<BinaryOperator>(strip(Cond));
    if (B && B->getOpcode() == BO_LAnd)
      return onlyLaneZero(B->getLHS()) || onlyLaneZero(B->getRHS());
    return isLaneZero(Cond);
  }
  // Whether S runs only on lane 0: inside the then-branch of `if (lane == 0)`.
  bool onLaneZero(const Stmt *S) const {
    for (const Stmt *Cur = S, *P = parentStmt(S, Ctx); P; Cur = P, P = parentStmt(P, Ctx))
      if (const auto *If = dyn_cast<IfStmt>(P); If && If->getThen() == Cur && onlyLaneZero(If->getCond()))
        return true;
    return false;
  }
  // The lane starts its row's strided loop (rows(): LaneStarts) or picks
  // the lane that stores; any other use would make a lane's work depend on
  // what it computes with its lane.
  bool laneUses() {
    for (const DeclRefExpr *R : Facts.Refs) {
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      if (V && LaneVars.count(V) && !LaneStarts.count(R) && !picksLaneZero(R))
        return laneMisused(V->getNameAsString(), R);
    }
    // threadIdx.x itself, in a block's rows.
    if (Out.LanesInX)
      for (const Expr *E : Facts.LaneReads)
        if (!LaneStarts.count(E) && !inIndexDefinition(E) && !picksLaneZero(E))
          return laneMisused("threadIdx.x", E);
    return true;
  }
  // `lane == 0`, alone or a conjunct, as an if's condition.
  bool picksLaneZero(const Expr *Lane) const {
    const auto *B = dyn_cast_or_null<BinaryOperator>(user(Lane));
    const Stmt *Top = B, *P = B ? parentStmt(B, Ctx) : nullptr;
    while (P && (isa<ParenExpr>(P) || (isa<BinaryOperator>(P) && cast<BinaryOperator>(P)->getOpcode() == BO_LAnd)))
      Top = P, P = parentStmt(P, Ctx);
    const auto *If = dyn_cast_or_null<IfStmt>(P);
    return B && isLaneZero(B) && If && If->getCond() == Top;
  }
  bool laneMisused(const std::string &Name, const Expr *Lane) {
    const Stmt *U = user(Lane);
    return fail("it uses its lane '" + Name + "' in '" + text(U ? U : Lane) +
                "', not to start its row's strided loop or to pick lane 0");
  }

  // Lanes exchange values only as `s += __shfl_down_sync(mask, s, o)` or
  // `s += __shfl_xor_sync(mask, s, o)` within their group: xor offsets below
  // G, and down offsets that reach at most G - 1 lanes on, in all, from lane
  // 0 (`for (o = C; o > 0; o >>= 1)` reaches 2C - 1), run once each. Then
  // each lane's s is its group's own after an xor exchange, and lane 0's
  // after a down exchange: what the other lanes hold from then on is read
  // only under `if (lane == 0)`, or after `s = __shfl_sync(mask, s, 0, G)`
  // hands every lane lane 0's s (run once, after the last down exchange).
  // `__syncwarp` orders nothing else.
  bool exchanges() {
    // Each down-exchanged value's first and last exchange, every one, and its last broadcast.
    std::map<const VarDecl *, const CallExpr *> Down, LastDown, LastBroadcast;
    std::map<const VarDecl *, std::vector<const CallExpr *>> Downs;
    uint64_t Reach = 0;
    for (const CallExpr *C : Facts.Calls) {
      const FunctionDecl *F = C->getDirectCallee();
      const llvm::StringRef Name = F ? F->getName() : "";
      if (!F || !cooperativeCall(F) || Name.starts_with("atomic") || Name == "__syncwarp")
        continue;
      const bool IsDown = Name == "__shfl_down_sync", IsXor = Name == "__shfl_xor_sync";
      const std::string Shape = "its lanes exchange values other than by `s += __shfl_down_sync(mask, s, o)` or "
                                "`__shfl_xor_sync` within a group ('" + text(C) + "')";
      if (Name == "__shfl_sync") {
        if (!broadcast(C, LastBroadcast))
          return fail("its lanes exchange values other than by `s = __shfl_sync(mask, s, 0, " +
                      std::to_string(Out.Lanes) + ")` from lane 0 of the group ('" + text(C) + "')");
        continue;
      }
      if (!IsDown && !IsXor)
        return fail("its threads cooperate ('" + Name.str() + "')");
      if (C->getNumArgs() < 3)
        return fail(Shape);
      const VarDecl *S = refToVar(strip(C->getArg(1)));
      const auto *Sum = dyn_cast_or_null<CompoundAssignOperator>(user(C));
      if (!S || isa<ParmVarDecl>(S) || !Sum || Sum->getOpcode() != BO_AddAssign || refToVar(Sum->getLHS()) != S ||
          operandBelow(Sum, C) != Sum->getRHS())
        return fail(Shape);
      // The offset: a constant, or the variable of its loop `for (o = C; o > 0; o >>= 1 or o /= 2)`.
      const ForStmt *Loop = nullptr;
      uint64_t First = constant(C->getArg(2)), Span = First;
      if (!First) {
        Loop = halvingLoop(C->getArg(2));
        First = Loop ? constant(loopStart(Loop)) : 0;
        Span = 2 * First - 1;
      }
      if (!First)
        return fail(Shape);
      if (First >= Out.Lanes)
        return fail("its lanes exchange '" + S->getNameAsString() + "' across groups of " +
                    std::to_string(Out.Lanes) + " ('" + text(C) + "')");
      for (const Stmt *P = parentStmt(C, Ctx); P; P = parentStmt(P, Ctx))
        if ((isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P)) && P != Loop && IsDown)
          return fail("it exchanges '" + S->getNameAsString() + "' between lanes inside a loop ('" + text(C) + "')");
      if (IsDown) {
        Reach += Span;
        if (Reach >= Out.Lanes)
          return fail("its lanes exchange '" + S->getNameAsString() + "' across groups of " +
                      std::to_string(Out.Lanes) + " ('" + text(C) + "')");
        Down.emplace(S, C);
        LastDown[S] = C;
        Downs[S].push_back(C);
        Exchanged.insert(Sum);
      }
    }
    // After a down exchange, only lane 0's value is its group's own. The
    // exchange runs once, in no loop but its own: a reference ending before
    // it in the source reads s before it (one in the same macro expansion
    // counts as after).
    const SourceManager &SM = Ctx.getSourceManager();
    const auto Before = [&](const Stmt *A, const Stmt *B) {
      return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A->getEndLoc()), SM.getExpansionLoc(B->getBeginLoc()));
    };
    for (const auto &[S, C] : Down) {
      auto Bcast = LastBroadcast.find(S);
      const CallExpr *Whole = Bcast != LastBroadcast.end() && Before(LastDown[S], Bcast->second) &&
                                      runsAfterEach(Bcast->second, Downs[S])
                                  ? Bcast->second
                                  : nullptr;
      for (const DeclRefExpr *R : Facts.Refs) {
        if (R->getDecl() != S || Before(R, C) || (Whole && Before(Whole, R)))
          continue;
        const auto *Assign = dyn_cast_or_null<BinaryOperator>(user(R));
        const bool Exchange = inExchange(R);
        if (!Exchange && !(Assign && Exchanged.count(Assign) && strip(Assign->getLHS()) == R) && !onLaneZero(R)) {
          if (Assign && Assign->getOpcode() == BO_Assign && isa<ArraySubscriptExpr>(strip(Assign->getLHS())) &&
              operandBelow(Assign, R) == Assign->getRHS())
            return fail("its lanes each store their own '" + S->getNameAsString() + "' into '" +
                        text(Assign->getLHS()) + "' after exchanging it down: only lane 0's is the row's sum, and "
                        "which lane's store lands is not defined ('" + text(Assign) + "')");
          return fail("it reads '" + S->getNameAsString() + "' after exchanging it down its lanes, other than on "
                      "lane 0 ('" + text(user(R) ? user(R) : R) + "')");
        }
      }
    }
    return true;
  }
  // Whether the statement holding C runs whenever each of Calls does: only
  // blocks and ifs that hold all of them lie around it.
  bool runsAfterEach(const CallExpr *C, const std::vector<const CallExpr *> &Calls) const {
    const Stmt *Body = K->getBody();
    const Stmt *Assign = user(C); // `s = __shfl_sync(...)`, a statement of its own
    const Stmt *P = Assign ? parentStmt(Assign, Ctx) : nullptr;
    if (!P || isa<Expr>(P))
      return false;
    for (; P && P != Body; P = parentStmt(P, Ctx)) {
      if (isa<CompoundStmt>(P))
        continue;
      const auto *If = dyn_cast<IfStmt>(P);
      if (!If)
        return false;
      for (const CallExpr *D : Calls)
        if (!inside(D, If))
          return false;
    }
    return P == Body;
  }
  // `s = __shfl_sync(mask, s, 0, G)` (the width left out when G is 32), in no
  // loop: every lane of the group gets lane 0's s.
  bool broadcast(const CallExpr *C, std::map<const VarDecl *, const CallExpr *> &Last) {
    if (C->getNumArgs() < 3)
      return false;
    const VarDecl *S = refToVar(strip(C->getArg(1)));
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(user(C));
    std::optional<llvm::APSInt> Source = strip(C->getArg(2))->getIntegerConstantExpr(Ctx);
    const bool Width = C->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(C->getArg(3));
    if (!S || isa<ParmVarDecl>(S) || !Assign || Assign->getOpcode() != BO_Assign || refToVar(Assign->getLHS()) != S ||
        operandBelow(Assign, C) != Assign->getRHS() || !Source || *Source != 0 ||
        (Width ? constant(C->getArg(3)) != Out.Lanes : Out.Lanes != 32))
      return false;
    for (const Stmt *P = parentStmt(C, Ctx); P; P = parentStmt(P, Ctx))
      if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P))
        return false;
    Exchanged.insert(Assign);
    Last[S] = C;
    return true;
  }
  // Whether R is the value argument of an accepted exchange.
  bool inExchange(const DeclRefExpr *R) const {
    for (const Stmt *P = parentStmt(R, Ctx); P; P = parentStmt(P, Ctx)) {
      if (const auto *A = dyn_cast<BinaryOperator>(P); A && A->isAssignmentOp())
        return Exchanged.count(A) && operandBelow(A, R) == A->getRHS();
      if (!isa<Expr>(P))
        return false;
    }
    return false;
  }
  // The loop `for (o = C; o > 0; o >>= 1)` (or `o /= 2`) whose variable E is, or null.
  const ForStmt *halvingLoop(const Expr *E) const {
    const VarDecl *O = refToVar(strip(E));
    for (const Stmt *P = O ? parentStmt(E, Ctx) : nullptr; P; P = parentStmt(P, Ctx)) {
      const auto *F = dyn_cast<ForStmt>(P);
      if (!F)
        continue;
      const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
      const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(F->getInc() ? strip(F->getInc()) : nullptr);
      const Expr *Start = loopStart(F);
      if (!Start || !Cond || !Inc || refToVar(strip(Cond->getLHS())) != O || refToVar(strip(Inc->getLHS())) != O)
        return nullptr;
      const bool Halves = (Inc->getOpcode() == BO_ShrAssign && isIntLiteral(Inc->getRHS(), 1)) ||
                          (Inc->getOpcode() == BO_DivAssign && isIntLiteral(Inc->getRHS(), 2));
      const bool Positive = (Cond->getOpcode() == BO_GT && isIntLiteral(Cond->getRHS(), 0)) ||
                            (Cond->getOpcode() == BO_GE && isIntLiteral(Cond->getRHS(), 1));
      // The body reads o only as this offset.
      bool Other = false;
      for (const DeclRefExpr *R : Facts.Refs)
        Other = Other || (R->getDecl() == O && R != strip(E) && inside(R, F->getBody()));
      return Halves && Positive && !Other && inside(E, F->getBody()) ? F : nullptr;
    }
    return nullptr;
  }
  // What `for (int o = C; ...)` or `for (o = C; ...)` starts its variable at.
  const Expr *loopStart(const ForStmt *F) const {
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
        return V->getInit();
    if (const auto *A = dyn_cast_or_null<BinaryOperator>(F->getInit()); A && A->getOpcode() == BO_Assign)
      return A->getRHS();
    return nullptr;
  }

  // No barrier, warp operation or floating-point atomic; calls of other
  // functions only on values that are no element numbers (checked in uses()).
  bool cooperation() {
    for (const CallExpr *C : Facts.Calls) {
      const FunctionDecl *F = C->getDirectCallee();
      if (!F)
        return fail("it calls through a function pointer");
      llvm::StringRef Name = F->getName();
      if (Name.starts_with("atomic")) { // integer atomics count or claim slots: any order gives the same
        if (C->getNumArgs() == 0)
          return fail("an atomic without arguments");
        QualType Target = C->getArg(0)->getType();
        if (Target->isPointerType() && !Target->getPointeeType()->isIntegerType())
          return fail("a floating-point atomic: its result depends on the order its threads run in");
      } else if (cooperativeCall(F) && Out.Lanes == 1) {
        return fail("its threads cooperate ('" + Name.str() + "')");
      }
    }
    return true;
  }

  // n: every order comparison of t is with one integer parameter.
  bool countGuard() {
    for (const BinaryOperator *B : Facts.Comparisons) {
      if (B->isEqualityOp())
        continue;
      const Expr *L = strip(B->getLHS()), *R = strip(B->getRHS());
      const bool LT = refToVar(L) == T, RT = refToVar(R) == T;
      if (!LT && !RT)
        continue;
      const Expr *Other = LT ? R : L;
      const auto *DR = dyn_cast<DeclRefExpr>(Other);
      const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
      if (!P || !P->getType()->isIntegerType() || (Out.Count && Out.Count != P))
        return fail("it compares its thread index by order with '" + text(B) + "'");
      Out.Count = P;
      Guards.insert(B);
    }
    return true;
  }

  // `t + 1` or `1 + t`.
  bool isNextT(const Expr *E) const {
    const auto *B = dyn_cast<BinaryOperator>(strip(E));
    if (!B || B->getOpcode() != BO_Add)
      return false;
    return (refToVar(strip(B->getLHS())) == T && isIntLiteral(B->getRHS(), 1)) ||
           (refToVar(strip(B->getRHS())) == T && isIntLiteral(B->getLHS(), 1));
  }
  // The row starts P when E is P[t] (End false), P[t + 1] (End true), or a
  // local holding one of them.
  const ParmVarDecl *rowBound(const Expr *E, bool &End) const {
    E = strip(E);
    if (const VarDecl *V = refToVar(E)) {
      auto It = Bounds.find(V);
      if (It == Bounds.end())
        return nullptr;
      End = It->second.second;
      return It->second.first;
    }
    const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
    const ParmVarDecl *P = AS ? pointerParam(AS->getBase()) : nullptr;
    if (!P || !RowArrays.count(P))
      return nullptr;
    End = isNextT(AS->getIdx());
    return P;
  }
  // Whether E is a load of a row's segment, or a local defined by those only.
  bool fromSegments(const Expr *E) const {
    std::set<const ParmVarDecl *> From;
    if (!loadSources(E, From) || From.empty())
      return false;
    for (const ParmVarDecl *P : From)
      if (!SegmentArrays.count(P))
        return false;
    return true;
  }
  // The loop variable k of `for (k = P[t]; k < P[t + 1]; ++k)`, with the
  // row bounds and the references to k the loop's control makes, or null. In
  // a group of G lanes, also `for (k = P[t] + lane; k < P[t + 1]; k += G)`
  // (Lane: the lane's reference).
  const VarDecl *rowLoop(const ForStmt *F, std::vector<const Expr *> &Control, std::vector<const Expr *> &KRefs,
                         const Expr *&Lane) const {
    const VarDecl *K = nullptr;
    const Expr *First = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
      K = dyn_cast<VarDecl>(DS->getSingleDecl());
      First = K ? K->getInit() : nullptr;
    } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(F->getInit()); A && A->getOpcode() == BO_Assign) {
      K = refToVar(A->getLHS());
      First = A->getRHS();
    }
    Lane = nullptr;
    if (const auto *Plus = First && Out.Lanes > 1 ? dyn_cast<BinaryOperator>(strip(First)) : nullptr;
        Plus && Plus->getOpcode() == BO_Add) {
      const Expr *L = strip(Plus->getLHS()), *R = strip(Plus->getRHS());
      if (isLane(R))
        First = L, Lane = R;
      else if (isLane(L))
        First = R, Lane = L;
    }
    bool StartIsEnd = true, EndIsEnd = false;
    const ParmVarDecl *P = K && First ? rowBound(First, StartIsEnd) : nullptr;
    const auto *C = dyn_cast_or_null<BinaryOperator>(F->getCond());
    if (!P || StartIsEnd || !K->getType()->isIntegerType() || !C || C->getOpcode() != BO_LT ||
        refToVar(C->getLHS()) != K || rowBound(C->getRHS(), EndIsEnd) != P || !EndIsEnd)
      return nullptr;
    // The step: 1, or G from a lane's start.
    const uint64_t Step = Lane ? Out.Lanes : 1;
    const Expr *Inc = F->getInc() ? strip(F->getInc()) : nullptr;
    const Expr *Stepped = nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementOp() && Step == 1)
      Stepped = U->getSubExpr();
    else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
             CA && CA->getOpcode() == BO_AddAssign && constant(CA->getRHS()) == Step)
      Stepped = CA->getLHS();
    if (!Stepped || refToVar(Stepped) != K)
      return nullptr;
    if (const auto *A = dyn_cast_or_null<BinaryOperator>(F->getInit()); A && A->getOpcode() == BO_Assign)
      KRefs.push_back(strip(A->getLHS()));
    Control.push_back(strip(First));
    Control.push_back(strip(C->getRHS()));
    KRefs.push_back(strip(C->getLHS()));
    KRefs.push_back(strip(Stepped));
    return K;
  }

  // Rows (CSR): arrays read at [t] and [t + 1] hold the starts of the rows'
  // segments; each may be read only to bound loops `for (k = P[t]; k < P[t +
  // 1]; ++k)` (directly or through locals), and k only indexes the arrays
  // the rows' segments are stored in. A renumbering moves each row's segment
  // whole, in its order, and rewrites the starts: the loop reads the same
  // values in the same order.
  bool rows() {
    for (const ArraySubscriptExpr *AS : Facts.Subscripts)
      if (const ParmVarDecl *P = pointerParam(AS->getBase()); P && isNextT(AS->getIdx()))
        RowArrays.insert(P);
    if (RowArrays.empty())
      return true;
    for (const ArraySubscriptExpr *AS : Facts.Subscripts)
      if (const ParmVarDecl *P = pointerParam(AS->getBase());
          P && RowArrays.count(P) && refToVar(strip(AS->getIdx())) != T && !isNextT(AS->getIdx()))
        return fail("it reads row starts '" + P->getNameAsString() + "' at '" + text(AS->getIdx()) + "'");
    std::set<const Expr *> BoundInits;
    for (const VarDecl *V : Facts.Locals) {
      bool End = false;
      if (V->getInit() && V->getType()->isIntegerType() && !Info.Writes.writesScalar(V))
        if (const ParmVarDecl *P = rowBound(V->getInit(), End); P && !refToVar(strip(V->getInit()))) {
          Bounds[V] = {P, End};
          BoundInits.insert(strip(V->getInit()));
        }
    }
    std::vector<const Expr *> Control, KRefs;
    for (const ForStmt *F : Facts.Loops) {
      const Expr *Lane = nullptr;
      if (const VarDecl *K = rowLoop(F, Control, KRefs, Lane)) {
        bool End = false;
        Positions[K] = rowBound(Control.back(), End);
        if (Lane)
          LaneStarts.insert(Lane);
      }
    }
    const std::set<const Expr *> Controls(Control.begin(), Control.end()), KControls(KRefs.begin(), KRefs.end());
    for (const ArraySubscriptExpr *AS : Facts.Subscripts)
      if (const ParmVarDecl *P = pointerParam(AS->getBase()); P && RowArrays.count(P) && !Controls.count(AS) &&
                                                              !BoundInits.count(AS))
        return fail("it uses row start '" + text(AS) + "' other than to bound a loop over the row" + laneLoop());
    for (const DeclRefExpr *R : Facts.Refs) {
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      if (V && Bounds.count(V) && !Controls.count(R))
        return fail("it uses row bound '" + V->getNameAsString() + "' other than to bound a loop over the row" +
                    laneLoop());
      auto It = V ? Positions.find(V) : Positions.end();
      if (It == Positions.end() || KControls.count(R))
        continue;
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(user(R));
      const ParmVarDecl *A = AS && operandBelow(AS, R) == AS->getIdx() ? pointerParam(AS->getBase()) : nullptr;
      if (!A)
        return fail("it computes with '" + V->getNameAsString() + "', a position in a row ('" +
                    text(user(R) ? user(R) : R) + "')");
      auto [S, New] = SegmentOf.emplace(A, It->second);
      if (!New && S->second != It->second)
        return fail("it reads '" + A->getNameAsString() + "' along the rows of two arrays of row starts");
      SegmentArrays.insert(A);
    }
    return true;
  }
  // In a group of lanes, the loop a row's bounds may bound.
  std::string laneLoop() const {
    if (Out.Lanes == 1)
      return "";
    const std::string G = std::to_string(Out.Lanes);
    return " (its lanes' loop is `for (k = P[row] + lane; k < P[row + 1]; k += " + G + ")` in groups of " + G + ")";
  }
  // Whether AS reads a row's segment at its loop's position.
  bool atPosition(const ArraySubscriptExpr *AS) const {
    const VarDecl *V = refToVar(AS->getIdx());
    return V && Positions.count(V);
  }

  bool isNumber(const Expr *E) const {
    E = strip(E);
    if (const VarDecl *V = refToVar(E))
      return Numbers.count(V);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      if (const ParmVarDecl *P = pointerParam(AS->getBase()))
        return NumberArrays.count(P);
    return false;
  }
  // Whether an array is read by t in this kernel (then it is one of the domain's).
  bool indexedByT(const ParmVarDecl *P) const { return IndexedByT.count(P); }
  // A load P[...] or a local whose every definition is one: the arrays it comes from.
  bool loadSources(const Expr *E, std::set<const ParmVarDecl *> &From) const {
    E = strip(E);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const ParmVarDecl *P = pointerParam(AS->getBase());
      if (P)
        From.insert(P);
      return P != nullptr;
    }
    const VarDecl *V = refToVar(E);
    if (!V || isa<ParmVarDecl>(V) || !V->getType()->isIntegerType() || !V->getInit())
      return false;
    if (Info.Writes.writesScalar(V))
      return false; // a local assigned later is not followed
    return loadSources(V->getInit(), From);
  }
  // Marks E (a load or a local defined by loads) as element numbers.
  bool markNumber(const Expr *E) {
    std::set<const ParmVarDecl *> From;
    if (!loadSources(E, From))
      return false;
    bool Changed = false;
    for (const ParmVarDecl *P : From)
      Changed |= NumberArrays.insert(P).second;
    if (const VarDecl *V = refToVar(strip(E)))
      Changed |= Numbers.insert(V).second;
    return Changed;
  }

  // The element numbers: t, values loaded from an array of numbers, and loads
  // that index an array t indexes or are compared with a number.
  void numbers() {
    for (const ArraySubscriptExpr *AS : Facts.Subscripts)
      if (const ParmVarDecl *P = pointerParam(AS->getBase());
          P && !RowArrays.count(P) && refToVar(strip(AS->getIdx())) == T)
        IndexedByT.insert(P);
    bool Changed = true;
    for (int Round = 0; Changed && Round < 16; ++Round) {
      Changed = false;
      for (const VarDecl *V : Facts.Locals)
        if (!Numbers.count(V) && V->getInit() && isNumber(V->getInit()) && !Info.Writes.writesScalar(V))
          Changed |= Numbers.insert(V).second;
      for (const ArraySubscriptExpr *AS : Facts.Subscripts) {
        const ParmVarDecl *P = pointerParam(AS->getBase());
        if (P && indexedByT(P) && !isNumber(AS->getIdx()))
          Changed |= markNumber(AS->getIdx());
        // A value of a row's segment that indexes an array (`x[col[k]]`)
        // numbers that array's elements: the two are renumbered together.
        if (P && !SegmentArrays.count(P) && !isNumber(AS->getIdx()) && fromSegments(AS->getIdx()))
          Changed |= markNumber(AS->getIdx());
      }
      for (const BinaryOperator *B : Facts.Comparisons)
        if (B->isEqualityOp()) {
          if (isNumber(B->getLHS()) && !isNumber(B->getRHS()))
            Changed |= markNumber(B->getRHS());
          else if (isNumber(B->getRHS()) && !isNumber(B->getLHS()))
            Changed |= markNumber(B->getLHS());
        }
      // A number stored in an array: the array holds numbers.
      for (const ArraySubscriptExpr *AS : Facts.Subscripts) {
        const ParmVarDecl *P = pointerParam(AS->getBase());
        const auto *A = dyn_cast_or_null<BinaryOperator>(user(AS));
        if (P && A && A->getOpcode() == BO_Assign && operandBelow(A, AS) == A->getLHS() && isNumber(A->getRHS()))
          Changed |= NumberArrays.insert(P).second;
      }
    }
  }

  // `c * n + t` or `t + c * n` (n the count), c no number.
  bool isColumnIndex(const Expr *E) const {
    const auto *B = dyn_cast<BinaryOperator>(strip(E));
    if (!B || B->getOpcode() != BO_Add || !Out.Count)
      return false;
    const Expr *L = strip(B->getLHS()), *R = strip(B->getRHS());
    const Expr *Column = refToVar(L) == T ? R : refToVar(R) == T ? L : nullptr;
    const auto *M = Column ? dyn_cast<BinaryOperator>(Column) : nullptr;
    if (!M || M->getOpcode() != BO_Mul)
      return false;
    const Expr *ML = strip(M->getLHS()), *MR = strip(M->getRHS());
    const Expr *C = refToVar(ML) == Out.Count ? MR : refToVar(MR) == Out.Count ? ML : nullptr;
    return C && !mentionsNumber(C);
  }
  // Whether S's value may carry an element number: a load counts as its value
  // (a number only from an array of numbers), not by its index.
  bool mentionsNumber(const Stmt *S) const {
    if (const auto *E = dyn_cast<Expr>(S))
      if (isNumber(E))
        return true;
    if (isa<ArraySubscriptExpr>(S))
      return false;
    for (const Stmt *C : S->children())
      if (C && mentionsNumber(C))
        return true;
    return false;
  }

  // Where an element number E may go: an index (checked with the arrays), an
  // equality with another number, the guard, a number's definition, a store
  // into an array of numbers.
  bool numberUse(const Expr *E) {
    const Stmt *U = user(E);
    if (!U)
      return true;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(U))
      return operandBelow(AS, E) == AS->getIdx() || fail("it uses element number '" + text(E) + "' as a pointer");
    if (const auto *B = dyn_cast<BinaryOperator>(U)) {
      if (Guards.count(B))
        return true;
      if (B->isEqualityOp())
        return (isNumber(B->getLHS()) && isNumber(B->getRHS())) ||
               fail("it compares element number '" + text(E) + "' with a value that is none ('" + text(B) + "')");
      if (B->getOpcode() == BO_Assign && operandBelow(B, E) == B->getRHS()) {
        const Expr *L = strip(B->getLHS());
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
          if (const ParmVarDecl *P = pointerParam(AS->getBase()); P && NumberArrays.count(P))
            return true;
        if (const VarDecl *V = refToVar(L); V && Numbers.count(V))
          return true;
      }
      if (isNextT(B))
        if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(user(B));
            AS && operandBelow(AS, B) == AS->getIdx() && RowArrays.count(pointerParam(AS->getBase())))
          return true; // the end of row t
      if (B->getOpcode() == BO_Add && Out.Count) {
        // t in a column index c * n + t
        const Stmt *UU = user(B);
        if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(UU); AS && isColumnIndex(B))
          return true;
      }
      return fail("it computes with element number '" + text(E) + "' ('" + text(B) + "')");
    }
    if (const auto *V = dyn_cast<DeclStmt>(U)) {
      for (const Decl *D : V->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit() && strip(VD->getInit()) == strip(E))
          return Numbers.count(VD) || fail("it keeps element number '" + text(E) + "' in '" + VD->getNameAsString() +
                                           "', which it uses otherwise");
    }
    return fail("it uses element number '" + text(E) + "' in '" + text(U) + "'");
  }

  bool uses() {
    // Every reference to a number local (the declaration's own init aside).
    for (const DeclRefExpr *R : Facts.Refs) {
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      if (V && Numbers.count(V) && !numberUse(R))
        return false;
    }
    // Every load of an array of numbers is a number where it goes; every store
    // into one stores a number.
    for (const ArraySubscriptExpr *AS : Facts.Subscripts) {
      const ParmVarDecl *P = pointerParam(AS->getBase());
      if (!P || !NumberArrays.count(P))
        continue;
      const Stmt *U = user(AS);
      if (const auto *B = dyn_cast_or_null<BinaryOperator>(U); B && B->isAssignmentOp() && operandBelow(B, AS) == B->getLHS()) {
        if (B->getOpcode() != BO_Assign || !isNumber(B->getRHS()))
          return fail("it stores '" + text(B->getRHS()) + "', no element number, into '" + P->getNameAsString() +
                      "', which holds element numbers");
        continue;
      }
      if (!numberUse(AS))
        return false;
    }
    // Calls take no element numbers and no pointers of the kernel (atomics
    // aside, on their target).
    for (const CallExpr *C : Facts.Calls) {
      const FunctionDecl *F = C->getDirectCallee();
      const bool Atomic = F && F->getName().starts_with("atomic");
      for (unsigned I = 0; I < C->getNumArgs(); ++I) {
        const Expr *A = C->getArg(I);
        if (mentionsNumber(A) && !(Atomic && I == 0))
          return fail("it passes element number '" + text(A) + "' to '" + (F ? F->getNameAsString() : "?") + "'");
      }
    }
    return true;
  }

  // Each pointer: indexed by element number, by other values, or both (refused).
  bool roles() {
    std::set<const ParmVarDecl *> ByNumber, ByOther;
    for (const ArraySubscriptExpr *AS : Facts.Subscripts) {
      const ParmVarDecl *P = pointerParam(AS->getBase());
      if (!P)
        continue;
      const Expr *I = AS->getIdx();
      if (writes(AS))
        param(P).Written = true;
      if (RowArrays.count(P) || (SegmentArrays.count(P) && atPosition(AS)))
        continue; // checked by rows()
      if (isNumber(I) || isColumnIndex(I))
        ByNumber.insert(P);
      else if (mentionsNumber(I))
        return fail("it indexes '" + P->getNameAsString() + "' by '" + text(I) + "'");
      else
        ByOther.insert(P);
    }
    // A pointer used other than by subscript: an atomic's target, or refused.
    for (const DeclRefExpr *R : Facts.Refs) {
      const auto *P = dyn_cast<ParmVarDecl>(R->getDecl());
      if (!P || !Index.count(P))
        continue;
      const Stmt *U = user(R);
      if (isa_and_nonnull<ArraySubscriptExpr>(U) && operandBelow(U, R) == cast<ArraySubscriptExpr>(U)->getBase())
        continue;
      const auto *C = dyn_cast_or_null<CallExpr>(U);
      const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
      if (F && F->getName().starts_with("atomic") && C->getNumArgs() > 0 && strip(C->getArg(0)) == R) {
        ByOther.insert(P);
        param(P).Written = true;
        continue;
      }
      return fail("it uses '" + P->getNameAsString() + "' other than by subscript ('" + text(U ? U : R) + "')");
    }
    for (NumberingParam &NP : Out.Pointers) {
      const bool N = ByNumber.count(NP.Param), O = ByOther.count(NP.Param);
      if (N && O)
        return fail("it indexes '" + NP.Param->getNameAsString() + "' both by element number and otherwise");
      NP.Role = (N ? unsigned(kRoleElements) : 0u) | (NumberArrays.count(NP.Param) ? unsigned(kRoleNumbers) : 0u);
      if (RowArrays.count(NP.Param)) {
        if (NP.Role || O)
          return fail("it reads row starts '" + NP.Param->getNameAsString() + "' otherwise too");
        if (NP.Written)
          return fail("it writes the row starts in '" + NP.Param->getNameAsString() + "'");
        if (NP.Bytes != 4 && NP.Bytes != 8)
          return fail("row starts '" + NP.Param->getNameAsString() + "' of " + std::to_string(NP.Bytes) + " bytes");
        NP.Role = kRoleRows;
      } else if (SegmentArrays.count(NP.Param)) {
        if ((NP.Role & kRoleElements) || O)
          return fail("it reads '" + NP.Param->getNameAsString() + "' both along a row and otherwise");
        NP.Role |= kRoleSegments;
        if (NP.Bytes == 0)
          return fail("'" + NP.Param->getNameAsString() + "' points to values of unknown size");
      }
      if (!NP.Role && (O || NP.Written))
        NP.Role = kRoleOther;
      if ((NP.Role & kRoleNumbers) && NP.Bytes != 4 && NP.Bytes != 8)
        return fail("'" + NP.Param->getNameAsString() + "' holds element numbers of " + std::to_string(NP.Bytes) +
                    " bytes");
      if ((NP.Role & (kRoleElements | kRoleNumbers)) && NP.Bytes == 0)
        return fail("'" + NP.Param->getNameAsString() + "' points to elements of unknown size");
    }
    if (Out.hasElements() && !Out.Count)
      return fail("no guard bounds its thread index by a parameter");
    return true;
  }
  bool writes(const ArraySubscriptExpr *AS) const {
    const Stmt *Cur = AS;
    for (int Depth = 0; Depth < 8; ++Depth) {
      const Stmt *P = parentStmt(Cur, Ctx);
      if (!P)
        return false;
      if (const auto *B = dyn_cast<BinaryOperator>(P))
        return B->isAssignmentOp() && B->getLHS() == Cur;
      if (const auto *U = dyn_cast<UnaryOperator>(P))
        return U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf;
      if (isa<CXXOperatorCallExpr>(P)) // a member operator= of the element
        return true;
      if (!isa<ParenExpr>(P) && !isa<ImplicitCastExpr>(P) && !isa<MemberExpr>(P))
        return false;
      Cur = P;
    }
    return false;
  }

  // The kernel's neighbour list NB[j*n + t] with its counts, from its site;
  // or its rows: the segment array of numbers its loops read, and their starts.
  void graph() {
    for (const auto &[S, P] : SegmentOf)
      if (param(S).Role == (kRoleSegments | kRoleNumbers)) {
        Out.Graph = static_cast<int>(Index.at(S));
        Out.GraphRows = static_cast<int>(Index.at(P));
        return;
      }
    for (const Site &S : Info.Sites) {
      if (S.Pattern != kPatternNeighbors || S.Callee || S.NeighborRowMajor || !S.Offsets || S.Offsets.isField())
        continue;
      const ParmVarDecl *NB = S.Offsets.param();
      if (!Index.count(NB) || param(NB).Role != (kRoleElements | kRoleNumbers))
        continue;
      if (!S.NeighborStride || refToVar(strip(S.NeighborStride)) != Out.Count)
        continue;
      Out.Graph = static_cast<int>(Index.at(NB));
      if (S.NeighborCounts && !S.NeighborCounts.isField() && Index.count(S.NeighborCounts.param()))
        Out.GraphCounts = static_cast<int>(Index.at(S.NeighborCounts.param()));
      return;
    }
  }

  const KernelInfo &Info;
  ASTContext &Ctx;
  const FunctionDecl *K;
  const bool Reassociate;
  KernelNumbering Out;
  BodyFacts Facts;
  std::map<const ParmVarDecl *, size_t> Index;
  const VarDecl *T = nullptr;
  // A group of lanes a row (Out.Lanes > 1): T is `Thread / G`, LaneVars the
  // lane within the group; LaneStarts the lanes' references that start a
  // row's strided loop, Exchanged the accepted `s += __shfl_..._sync(...)`
  // and `s = __shfl_sync(...)`.
  const VarDecl *Thread = nullptr;
  std::set<const VarDecl *> LaneVars;
  std::set<const Expr *> LaneStarts;
  std::set<const BinaryOperator *> Exchanged;
  std::set<const VarDecl *> Numbers;
  std::set<const ParmVarDecl *> NumberArrays;
  std::set<const ParmVarDecl *> IndexedByT; // arrays the kernel reads at a[t]
  std::set<const BinaryOperator *> Guards;
  // Rows (CSR): the arrays of row starts, read at [t] and [t + 1]; the loop
  // variables running over a row's segment, and the arrays they index (each
  // with its row starts), moved with their rows.
  std::set<const ParmVarDecl *> RowArrays, SegmentArrays;
  std::map<const ParmVarDecl *, const ParmVarDecl *> SegmentOf;
  std::map<const VarDecl *, const ParmVarDecl *> Positions;
  std::map<const VarDecl *, std::pair<const ParmVarDecl *, bool>> Bounds; // a row's start (false) or end (true)
};

} // namespace

KernelNumbering analyzeNumbering(const KernelInfo &Info, ASTContext &Ctx, bool Reassociate) {
  return Numbering(Info, Ctx, Reassociate).run();
}

} // namespace irregfix
