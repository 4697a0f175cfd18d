#include "Analysis/CooperativeRows.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Calls.h"
#include "Analysis/KernelWalk.h"
#include "Analysis/RowShapes.h"
#include "Analysis/StoreTargets.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

#include <map>

using namespace clang;

namespace irregfix {

namespace {

using Accumulator = RowAccumulator;

// Whether L lies in Outer's text.
bool within(SourceLocation L, const Stmt *Outer, const SourceManager &SM) {
  const SourceRange R = Outer->getSourceRange();
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) && !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}
bool within(const Stmt *Inner, const Stmt *Outer, const SourceManager &SM) {
  return within(Inner->getBeginLoc(), Outer, SM);
}
bool within(const VarDecl *V, const Stmt *Outer, const SourceManager &SM) {
  return within(V->getLocation(), Outer, SM);
}

// Functions whose calls do something beyond computing a value.
bool hasSideEffects(llvm::StringRef Name) {
  static const char *const Names[] = {"printf", "vprintf", "malloc", "free", "memset", "memcpy", "__assertfail"};
  return Name.starts_with("atomic") || llvm::is_contained(Names, Name);
}

// Why the code of one part of the kernel (the loop, or the code before it, and
// the functions each calls) would do something else run by several lanes.
class Judge : public KernelJudge {
public:
  enum Part { Loop, Prefix };
  Judge(Part Where, const ForStmt *Site, const SourceManager &SM) : Where(Where), Site(Site), SM(SM) {}

  std::string statement(const Stmt *S, const WalkPlace &At) override {
    const Expr *W = writtenLvalue(S);
    if (!W)
      return "";
    const VarDecl *V = lvalueVariable(W);
    const bool Local = V && !V->getType()->isReferenceType() && (V->isLocalVarDecl() || isa<ParmVarDecl>(V));
    if (!Local)
      return here(At) + " stores to memory (" + spelled(W) + ")";
    // In the loop, the kernel's own variables declared outside it are its
    // accumulators, judged once the walk is done.
    if (Where == Loop && !At.Callee && !within(V, Site, SM))
      Carried.push_back({V, S});
    return "";
  }

  std::string call(const CallExpr *C, CallKind Kind, const FunctionDecl *F, const WalkPlace &At,
                   bool &Follow) override {
    if (Kind == CallKind::Indirect || Kind == CallKind::Unseen)
      return here(At) + " calls what the analysis cannot see: " + unfollowable(Kind, F);
    if (hasSideEffects(F->getName()))
      return here(At) + " calls " + quoted(F) + ", which has side effects";
    if (Kind == CallKind::Defined) {
      Follow = true;
      return "";
    }
    for (const Expr *A : C->arguments()) {
      const QualType T = A->IgnoreParenImpCasts()->getType();
      if (T->isPointerType() && !T->getPointeeType().isConstQualified())
        return here(At) + " calls " + quoted(F) + " with a pointer it may write through";
    }
    return "";
  }

  // Each write of the loop to a variable declared outside it, with the write.
  std::vector<std::pair<const VarDecl *, const Stmt *>> Carried;

private:
  std::string here(const WalkPlace &At) const {
    if (At.Callee)
      return Where == Loop ? "a function the loop calls" : "a function the code before the loop calls";
    return Where == Loop ? "the loop" : "the code before the loop";
  }

  Part Where;
  const ForStmt *Site;
  const SourceManager &SM;
};

// A break, return or goto that leaves the loop (continue only ends an iteration).
std::string exits(const Stmt *S, bool Nested) {
  if (!S || isa<LambdaExpr>(S))
    return "";
  if (isa<BreakStmt>(S) && !Nested)
    return "the loop contains 'break'";
  if (isa<ReturnStmt>(S))
    return "the loop contains 'return'";
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    return "the loop contains 'goto'";
  const bool Inner = Nested || isa<ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S);
  for (const Stmt *C : S->children())
    if (std::string Why = exits(C, Inner); !Why.empty())
      return Why;
  return "";
}

// Whether S holds a statement of one of the kinds Ts.
template <class... Ts> bool contains(const Stmt *S) {
  if (!S)
    return false;
  if (isa<Ts...>(S))
    return true;
  return llvm::any_of(S->children(), [](const Stmt *C) { return contains<Ts...>(C); });
}

// What reads blockDim or gridDim: the variant runs another grid.
class GridReads : public KernelJudge {
public:
  explicit GridReads(const Expr *ThreadInit) : ThreadInit(ThreadInit) {}
  bool enters(const Stmt *S) override { return S != ThreadInit; }
  std::string statement(const Stmt *S, const WalkPlace &) override {
    if (const auto *R = dyn_cast<DeclRefExpr>(S))
      if (R->getDecl()->getName() == "blockDim" || R->getDecl()->getName() == "gridDim")
        return "it reads '" + R->getDecl()->getNameAsString() + "' other than in its thread index";
    return "";
  }
  std::string call(const CallExpr *, CallKind Kind, const FunctionDecl *, const WalkPlace &, bool &Follow) override {
    Follow = Kind == CallKind::Defined;
    return "";
  }

private:
  const Expr *ThreadInit;
};

// The scalar types an accumulator may have.
bool integral(QualType T) { return T->isIntegerType() && !T->isEnumeralType(); }
bool floating(QualType T) { return T->isRealFloatingType(); }

bool sameType(QualType A, QualType B) {
  return A.getCanonicalType().getUnqualifiedType() == B.getCanonicalType().getUnqualifiedType();
}

class Analysis {
public:
  Analysis(const KernelInfo &Info, ASTContext &Ctx, bool Reassociate, CooperativeRows &R)
      : Info(Info), Ctx(Ctx), SM(Ctx.getSourceManager()), Reassociate(Reassociate), R(R) {}

  std::string run() {
    if (!Info.Perm.Permutable)
      return "its threads may depend on one another: " + Info.Perm.NotBecause;
    const Site *S = nullptr;
    for (unsigned I = 0; I < Info.Sites.size(); ++I)
      if (Info.Sites[I].transformable()) {
        S = &Info.Sites[I];
        R.SiteIndex = I;
      }
    if (!S || S->Pattern != kPatternRange || !S->Loop)
      return "its site is not a one-level range loop";
    if (Info.Hoist.Hoistable)
      return "its loop is hoisted (--hoist)";
    const ForStmt *For = R.Loop = S->Loop;
    Thread = Info.Perm.ThreadVar;
    GridReads Grid(Thread->getInit());
    if (std::string Why = walkKernel(Info.Kernel, Grid, SM); !Why.empty())
      return Why;
    if (std::string Why = header(*S); !Why.empty())
      return Why;
    if (contains<GotoStmt, IndirectGotoStmt>(Info.Kernel->getBody()))
      return "the kernel contains 'goto'";
    if (std::string Why = enclosing(For); !Why.empty())
      return Why;
    if (std::string Why = exits(For->getBody(), false); !Why.empty())
      return Why;
    Judge InLoop(Judge::Loop, For, SM), Before(Judge::Prefix, For, SM);
    if (std::string Why = walkCode({For->getBody()}, InLoop, SM); !Why.empty())
      return Why;
    if (std::string Why = walkCode(Prefix, Before, SM); !Why.empty())
      return Why;
    if (std::string Why = accumulators(InLoop.Carried); !Why.empty())
      return Why;
    storedAtThread();
    return "";
  }

private:
  // `for (k = start; k < end; ++k)` (or `k != end`): k not written in the body
  // and, declared outside the loop, not used after it.
  std::string header(const Site &S) {
    const ForStmt *For = R.Loop;
    std::optional<rowshape::LoopHead> Head = rowshape::loopHead(For);
    if (!Head || !rowshape::isIncrementOf(For->getInc(), Head->Var) || !rowshape::upperBound(For, Head->Var))
      return "its loop's header is not 'k = start; k < end; ++k'";
    LoopVar = Head->Var;
    if (writtenInside(Head->Var, For->getBody()))
      return "the loop's body writes its variable";
    if (!Head->Declared && countRefs(Head->Var, Info.Kernel->getBody()) != countRefs(Head->Var, For))
      return "the loop's variable " + quoted(Head->Var) + " is used outside the loop";
    return "";
  }

  // Climbs from the loop to the kernel's body: the code before the loop, and
  // the blocks around it.
  std::string enclosing(const Stmt *Loop) {
    const Stmt *Child = Loop;
    const Stmt *Body = Info.Kernel->getBody();
    while (Child != Body) {
      const Stmt *P = parentStmt(Child, Ctx);
      if (!P)
        return "the loop's place in the kernel cannot be followed";
      if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
        R.Enclosing.push_back({CS, Child});
        for (const Stmt *Before : CS->body()) {
          if (Before == Child)
            break;
          Prefix.push_back(Before);
        }
      } else if (const auto *If = dyn_cast<IfStmt>(P)) {
        if (If->getElse())
          return "the loop is in an 'if' with an 'else' branch";
        if (If->isConsteval() || If->getInit() || If->getConditionVariable())
          return "the loop is in an 'if' that declares or initialises";
        Prefix.push_back(If->getCond());
      } else if (isa<AttributedStmt>(P)) { // `#pragma unroll` before the loop
      } else if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P)) {
        return "the loop is nested in another loop";
      } else if (isa<SwitchStmt, SwitchCase>(P)) {
        return "the loop is inside a 'switch'";
      } else {
        return std::string("the loop is inside a statement of kind ") + P->getStmtClassName();
      }
      Child = P;
    }
    return "";
  }

  // Whether an update's value is dropped: it is a statement of its own.
  bool statementLevel(const Stmt *S) {
    const Stmt *P = parentStmt(S, Ctx);
    while (isa_and_nonnull<ExprWithCleanups>(P))
      S = P, P = parentStmt(P, Ctx);
    if (isa_and_nonnull<CompoundStmt, LabelStmt, SwitchCase>(P))
      return true;
    if (const auto *If = dyn_cast_or_null<IfStmt>(P))
      return S == If->getThen() || S == If->getElse();
    if (const auto *For = dyn_cast_or_null<ForStmt>(P))
      return S == For->getBody() || S == For->getInc();
    if (const auto *W = dyn_cast_or_null<WhileStmt>(P))
      return S == W->getBody();
    if (const auto *D = dyn_cast_or_null<DoStmt>(P))
      return S == D->getBody();
    return false;
  }

  // A value the loop does not change: constants and variables it does not
  // write, nothing read from memory, no call.
  bool loopInvariant(const Expr *E) {
    bool Invariant = true;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || !Invariant)
        return;
      if (isa<ArraySubscriptExpr, CallExpr, MemberExpr, LambdaExpr>(S) ||
          (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->getOpcode() == UO_Deref) ||
          (isa<BinaryOperator>(S) && cast<BinaryOperator>(S)->isAssignmentOp()) ||
          (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->isIncrementDecrementOp())) {
        Invariant = false;
        return;
      }
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
        if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
          if (within(V, R.Loop, SM) || writtenInside(V, R.Loop->getBody()))
            Invariant = false;
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(E);
    return Invariant;
  }

  // `if (e < v) v = e;` (or <=, >, >=, either side): the if, when W is its
  // only statement; Op is then Min or Max.
  const IfStmt *conditionalExtreme(const VarDecl *V, const BinaryOperator *W, Accumulator::Combine &Op) {
    const Stmt *P = parentStmt(W, Ctx);
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P); CS && CS->size() == 1)
      P = parentStmt(CS, Ctx);
    const auto *If = dyn_cast_or_null<IfStmt>(P);
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable() || !within(W, If->getThen(), SM))
      return nullptr;
    const auto *Cond = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
    if (!Cond || !Cond->isRelationalOp())
      return nullptr;
    const bool VOnLeft = refToVar(Cond->getLHS()) == V;
    const Expr *Other = VOnLeft ? Cond->getRHS() : Cond->getLHS();
    if ((!VOnLeft && refToVar(Cond->getRHS()) != V) || countRefs(V, W->getRHS()) ||
        !sameExpression(Other, W->getRHS(), Ctx) ||
        !sameType(strip(W->getRHS())->getType(), V->getType()))
      return nullptr;
    // e < v (v > e) keeps the least.
    const bool Less = Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_LE;
    Op = Less != VOnLeft ? Accumulator::Min : Accumulator::Max;
    return If;
  }

  // How the write W (a statement of the loop) updates V, or why it is no
  // accumulator's update. Sets the statement that is the update.
  std::string classify(const VarDecl *V, const Stmt *W, Accumulator &A, const Stmt *&Update) {
    const QualType T = V->getType();
    const bool Int = integral(T) && !T->isBooleanType(), Bool = T->isBooleanType(), Float = floating(T);
    const std::string No = quoted(V) + " is carried from one iteration to the next and is not an accumulator";
    Update = W;
    auto Is = [&](Accumulator::Combine Op, bool Reassociated = false) {
      A.Op = Op;
      A.Reassociated = Reassociated;
      return std::string();
    };
    if (isa<UnaryOperator>(W)) { // v++, v--
      if (!Int)
        return No + " (++ and -- count only in integers)";
      return Is(Accumulator::Sum);
    }
    if (const auto *C = dyn_cast<CompoundAssignOperator>(W)) {
      if (countRefs(V, C->getRHS()))
        return No + " (its update reads it)";
      const bool IntOp = integral(C->getComputationResultType()) && (Int || Bool);
      switch (C->getOpcode()) {
      case BO_AddAssign:
      case BO_SubAssign:
        if (Float && floating(C->getComputationResultType()))
          return Is(Accumulator::Sum, true);
        return IntOp && Int ? Is(Accumulator::Sum) : No + " (a sum of another type)";
      case BO_MulAssign:
        return IntOp && Int ? Is(Accumulator::Product) : No + " (only integer products are exact in any order)";
      case BO_AndAssign:
        return IntOp ? Is(Accumulator::BitAnd) : No;
      case BO_OrAssign:
        return IntOp ? Is(Accumulator::BitOr) : No;
      case BO_XorAssign:
        return IntOp && Int ? Is(Accumulator::BitXor) : No;
      default:
        return No + " (" + C->getOpcodeStr().str() + " depends on the order)";
      }
    }
    const auto *B = dyn_cast<BinaryOperator>(W);
    if (!B || B->getOpcode() != BO_Assign)
      return No;
    Accumulator::Combine Extreme;
    if (const IfStmt *If = conditionalExtreme(V, B, Extreme)) {
      Update = If;
      return (Int || Bool) ? Is(Extreme) : Float ? Is(Extreme, true) : No;
    }
    const Expr *Value = B->getRHS()->IgnoreParenImpCasts();
    if (const auto *Op = dyn_cast<BinaryOperator>(Value)) {
      const bool Left = refToVar(Op->getLHS()) == V, Right = refToVar(Op->getRHS()) == V;
      const Expr *Other = Left ? Op->getRHS() : Op->getLHS();
      if ((Left || Right) && !countRefs(V, Other)) {
        const bool IntOp = integral(Op->getType()) && !Op->getType()->isBooleanType();
        switch (Op->getOpcode()) {
        case BO_Add:
          if (Float && floating(Op->getType()))
            return Is(Accumulator::Sum, true);
          return IntOp && Int ? Is(Accumulator::Sum) : No + " (a sum of another type)";
        case BO_Sub:
          if (!Left)
            return No + " (v = e - v changes sign every iteration)";
          if (Float && floating(Op->getType()))
            return Is(Accumulator::Sum, true);
          return IntOp && Int ? Is(Accumulator::Sum) : No + " (a sum of another type)";
        case BO_Mul:
          return IntOp && Int ? Is(Accumulator::Product) : No + " (only integer products are exact in any order)";
        case BO_And:
          return IntOp ? Is(Accumulator::BitAnd) : No;
        case BO_Or:
          return IntOp ? Is(Accumulator::BitOr) : No;
        case BO_Xor:
          return IntOp && Int ? Is(Accumulator::BitXor) : No;
        case BO_LAnd:
          return Bool ? Is(Accumulator::LogicalAnd) : No + " (a logical flag must be a bool)";
        case BO_LOr:
          return Bool ? Is(Accumulator::LogicalOr) : No + " (a logical flag must be a bool)";
        default:
          return No + " (" + Op->getOpcodeStr().str() + " depends on the order)";
        }
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(Value); Call && Call->getNumArgs() == 2 && Call->getDirectCallee()) {
      const llvm::StringRef Name = Call->getDirectCallee()->getName();
      const bool Least = Name == "min" || Name == "fminf" || Name == "fmin";
      const bool Most = Name == "max" || Name == "fmaxf" || Name == "fmax";
      const bool Left = refToVar(Call->getArg(0)) == V, Right = refToVar(Call->getArg(1)) == V;
      if ((Least || Most) && (Left || Right) && !countRefs(V, Call->getArg(Left ? 1 : 0))) {
        if (!sameType(Call->getType(), T))
          return No + " (its " + Name.str() + " is of another type)";
        const auto Op = Least ? Accumulator::Min : Accumulator::Max;
        return (Int || Bool) ? Is(Op) : Float ? Is(Op, true) : No;
      }
    }
    if (!countRefs(V, Value) && loopInvariant(Value)) {
      A.FlagValue = Value;
      return Is(Accumulator::Flag);
    }
    return No;
  }

  // Every variable the loop carries must be an accumulator.
  std::string accumulators(const std::vector<std::pair<const VarDecl *, const Stmt *>> &Carried) {
    std::map<const VarDecl *, size_t> Index;
    for (auto [V, W] : Carried) {
      if (V->getType().isVolatileQualified() || !(integral(V->getType()) || floating(V->getType())))
        return quoted(V) + " is carried from one iteration to the next and is not a scalar accumulator";
      Accumulator A;
      A.Var = V;
      const Stmt *Update = nullptr;
      if (std::string Why = classify(V, W, A, Update); !Why.empty())
        return Why;
      if (!statementLevel(Update))
        return "the value of an update of " + quoted(V) + " is used";
      auto [It, New] = Index.try_emplace(V, R.Accumulators.size());
      if (New) {
        R.Accumulators.push_back(A);
      } else {
        Accumulator &Seen = R.Accumulators[It->second];
        if (Seen.Op != A.Op || (A.Op == Accumulator::Flag && !sameExpression(Seen.FlagValue, A.FlagValue, Ctx)))
          return quoted(V) + " is updated by different operators in the loop";
      }
      Accumulator &Acc = R.Accumulators[It->second];
      Acc.Updates.push_back(Update);
      refsTo(V, Update, Acc.Refs);
    }
    for (Accumulator &A : R.Accumulators) {
      if (countRefs(A.Var, R.Loop->getBody()) != A.Refs.size())
        return quoted(A.Var) + " is read in the loop other than by its own updates";
      if (escapes(A.Var, Info.Kernel->getBody()))
        return quoted(A.Var) + " has its address taken or a reference bound to it";
      A.StartsFromValue = A.Op == Accumulator::Min || A.Op == Accumulator::Max || A.Op == Accumulator::BitAnd ||
                          A.Op == Accumulator::BitOr || A.Op == Accumulator::LogicalAnd ||
                          A.Op == Accumulator::LogicalOr;
      if (A.Reassociated && !Reassociate) {
        R.InOrder = true;
        if (NotInOrder.empty())
          NotInOrder = A.Op == Accumulator::Sum
                           ? "floating-point sum: several lanes would reorder it (--reassociate allows it)"
                           : "floating-point min/max: several lanes may keep another of equal values "
                             "(--reassociate allows it)";
      }
    }
    if (R.InOrder) { // every lane adds the row's elements in order: worth it only for loads to share
      stagedReads(R.Loop->getBody());
      if (R.Staged.empty())
        return NotInOrder + "; and the loop makes no read at its variable that the lanes could load together";
    } else {
      for (const Accumulator &A : R.Accumulators)
        R.Reassociates |= A.Reassociated;
    }
    llvm::sort(R.Accumulators, [&](const Accumulator &A, const Accumulator &B) {
      return SM.isBeforeInTranslationUnit(A.Var->getLocation(), B.Var->getLocation());
    });
    return "";
  }

  // A read the lanes may load together: a pointer parameter's element at the
  // loop's variable or at another such read, of an arithmetic type that
  // crosses lanes in one shuffle.
  bool stageable(const ArraySubscriptExpr *E) {
    const QualType T = E->getType();
    if (T.isVolatileQualified() || !(T->isIntegerType() || T->isRealFloatingType()) || T->isEnumeralType() ||
        Ctx.getTypeSize(T) > 64)
      return false;
    const auto *Base = dyn_cast_or_null<ParmVarDecl>(refToVar(E->getBase()->IgnoreParenImpCasts()));
    if (!Base || !Base->getType()->isPointerType())
      return false;
    const Expr *Idx = E->getIdx()->IgnoreParenImpCasts();
    if (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Idx))
      return stageable(Inner);
    return refToVar(Idx) == LoopVar;
  }

  // The reads every iteration makes, outermost first: not in a branch, the
  // right of && or ||, another loop, or after a statement that may `continue`.
  void stagedReads(const Stmt *S) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<ArraySubscriptExpr>(S); E && stageable(E)) {
      auto Same = llvm::find_if(R.Staged, [&](const ArraySubscriptExpr *Seen) {
        return Seen == E || sameExpression(Seen, E, Ctx);
      });
      const unsigned At = static_cast<unsigned>(Same - R.Staged.begin());
      if (Same == R.Staged.end())
        R.Staged.push_back(E);
      if (llvm::none_of(R.StagedUses, [&](const auto &U) { return U.first == E; }))
        R.StagedUses.push_back({E, At});
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S))
      return stagedReads(If->getCond());
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(S))
      return stagedReads(C->getCond());
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isLogicalOp())
      return stagedReads(B->getLHS());
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf)
      return;
    if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      return stagedReads(Sw->getCond());
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr, StmtExpr>(S))
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Part : CS->body()) {
        stagedReads(Part);
        if (contains<ContinueStmt>(Part))
          return;
      }
      return;
    }
    for (const Stmt *C : S->children())
      stagedReads(C);
  }

  // Whether V may be changed other than by name.
  bool escapes(const VarDecl *V, const Stmt *S) {
    if (!S)
      return false;
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf && lvalueVariable(U->getSubExpr()) == V)
      return true;
    if (const auto *D = dyn_cast<DeclStmt>(S))
      for (const Decl *Dc : D->decls())
        if (const auto *Ref = dyn_cast<VarDecl>(Dc);
            Ref && Ref->getType()->isReferenceType() && Ref->getInit() && lvalueVariable(Ref->getInit()) == V)
          return true;
    return llvm::any_of(S->children(), [&](const Stmt *C) { return escapes(V, C); });
  }

  // The arrays the kernel writes, if each only at its thread index.
  void storedAtThread() {
    const WriteSet &W = Info.Writes;
    auto No = [&](std::string Why) {
      R.StoredAtThread.clear();
      R.NoReferenceBecause = std::move(Why);
    };
    if (W.hasUntracedWrite())
      return No("it may write memory the analysis cannot name");
    if (!W.writtenSymbols().empty())
      return No("it writes a __device__ variable");
    for (const ArrayRef &A : W.writtenArrays()) {
      if (A.isField() || A.param()->getFunctionScopeIndex() >= Info.Kernel->getNumParams() ||
          Info.Kernel->getParamDecl(A.param()->getFunctionScopeIndex()) != A.param())
        return No("it writes " + A.quoted() + ", which is not a pointer parameter");
      unsigned AtThread = 0;
      std::function<void(const Stmt *)> Count = [&](const Stmt *S) {
        if (!S)
          return;
        if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(S))
          if (refToVar(Sub->getBase()) == A.param() && refToVar(Sub->getIdx()) == Thread)
            ++AtThread;
        for (const Stmt *C : S->children())
          Count(C);
      };
      Count(Info.Kernel->getBody());
      if (AtThread != countRefs(A.param(), Info.Kernel->getBody()))
        return No("it uses " + A.quoted() + " other than at its thread index");
      R.StoredAtThread.push_back(A);
    }
    llvm::sort(R.StoredAtThread, [](const ArrayRef &A, const ArrayRef &B) {
      return A.param()->getFunctionScopeIndex() < B.param()->getFunctionScopeIndex();
    });
  }

  const KernelInfo &Info;
  ASTContext &Ctx;
  const SourceManager &SM;
  bool Reassociate;
  CooperativeRows &R;
  const VarDecl *Thread = nullptr;
  const VarDecl *LoopVar = nullptr;
  std::string NotInOrder; // why the lanes may not combine parts (an in-order variant may still qualify)
  std::vector<const Stmt *> Prefix; // statements and conditions run before the loop
};

} // namespace

CooperativeRows analyzeCooperativeRows(const KernelInfo &Info, ASTContext &Ctx, bool Reassociate) {
  CooperativeRows R;
  std::string Why = Analysis(Info, Ctx, Reassociate, R).run();
  R.Qualifies = Why.empty();
  R.NotBecause = Why;
  if (!R.Qualifies) {
    R.Accumulators.clear();
    R.Enclosing.clear();
    R.StoredAtThread.clear();
    R.Staged.clear();
    R.StagedUses.clear();
    R.InOrder = false;
  }
  return R;
}

} // namespace irregfix
