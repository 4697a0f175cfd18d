#include "Analysis/IndirectReads.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Calls.h"
#include "Analysis/Parents.h"
#include "Analysis/PointerAliases.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <functional>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

// `++k`, `k++`, `k += 1`, `k = k + 1`.
bool stepsByOne(const Stmt *Inc, const VarDecl *K) {
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    return UO->isIncrementOp() && refToVar(UO->getSubExpr()) == K;
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    return CA->getOpcode() == BO_AddAssign && refToVar(CA->getLHS()) == K && isIntLiteral(CA->getRHS(), 1);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc); BO && BO->getOpcode() == BO_Assign &&
                                                               refToVar(BO->getLHS()) == K)
    if (const auto *Add = dyn_cast<BinaryOperator>(strip(BO->getRHS())); Add && Add->getOpcode() == BO_Add)
      return (refToVar(Add->getLHS()) == K && isIntLiteral(Add->getRHS(), 1)) ||
             (refToVar(Add->getRHS()) == K && isIntLiteral(Add->getLHS(), 1));
  return false;
}

// E in `k += E`, `k = k + E` or `k = E + k` where E does not name k, or null.
const Expr *stepOf(const Stmt *Inc, const VarDecl *K) {
  const Expr *Step = nullptr;
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
      CA && CA->getOpcode() == BO_AddAssign && refToVar(CA->getLHS()) == K)
    Step = CA->getRHS();
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
           BO && BO->getOpcode() == BO_Assign && refToVar(BO->getLHS()) == K)
    if (const auto *Add = dyn_cast<BinaryOperator>(strip(BO->getRHS())); Add && Add->getOpcode() == BO_Add)
      Step = refToVar(Add->getLHS()) == K ? Add->getRHS() : refToVar(Add->getRHS()) == K ? Add->getLHS() : nullptr;
  std::function<bool(const Stmt *)> Names = [&](const Stmt *S) {
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S); DR && DR->getDecl() == K)
      return true;
    return S && llvm::any_of(S->children(), Names);
  };
  return Step && !Names(Step) ? Step : nullptr;
}

// Whether a read is only read: an rvalue use, or __ldg's argument, or bound to
// a const reference. (Subscripts: isPlainRead; the other reads by their parents.)
bool onlyRead(const Expr *Read, ASTContext &Ctx) {
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Read->IgnoreParens()))
    return isPlainRead(AS, Ctx);
  if (isa<CallExpr>(Read->IgnoreParens()))
    return true; // __ldg
  auto Parents = parentsOf(*Read, Ctx);
  const auto *P = Parents.empty() ? nullptr : Parents[0].get<ImplicitCastExpr>();
  return P && P->getCastKind() == CK_LValueToRValue;
}

// Whether an index plainly loads nothing: literals and the thread's builtin
// position under arithmetic, no name, call or read, shallow enough that its
// form is built whole. Its form could not make the read indirect; most reads
// of long straight-line kernels index so (`A[(q - 1) * N + t]`), and building
// their forms was most of the walk's cost.
bool plainlyLoadFree(const Stmt *S, int Depth = 0) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E || Depth > 32)
    return false;
  if (isAnyBuiltinIndexRead(E))
    return true;
  if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<CallExpr>(E) || isa<ArraySubscriptExpr>(E) ||
      isa<PseudoObjectExpr>(E) || isa<OpaqueValueExpr>(E) || isa<LambdaExpr>(E) || isa<StmtExpr>(E))
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() != UO_Minus && U->getOpcode() != UO_Plus &&
                                                  U->getOpcode() != UO_Not && U->getOpcode() != UO_LNot)
    return false;
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && (B->isAssignmentOp() || B->getOpcode() == BO_Comma))
    return false;
  for (const Stmt *C : E->children())
    if (!plainlyLoadFree(C, Depth + 1))
      return false;
  return true;
}

class Walker {
public:
  Walker(const FunctionDecl *Kernel, const WriteSet &Writes, ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly)
      : Kernel(Kernel), Writes(Writes), Ctx(Ctx), DeviceOnly(DeviceOnly), Forms(Kernel, Writes, Ctx),
        Classifier(Ctx.getSourceManager()) {}

  void run() {
    walk(Kernel->getBody(), Kernel, Forms);
    // Device functions the kernel calls: their own reads, once each.
    for (size_t I = 0; I < Callees.size(); ++I) {
      const FunctionDecl *F = Callees[I];
      const WriteSet CalleeWrites = WriteSet::of(F, DeviceOnly);
      FormBuilder CalleeForms(F, CalleeWrites, Ctx);
      CalleeForms.setLoadedParams(LoadedParams);
      Loops.clear();
      LoopVars.clear();
      InWrites = &CalleeWrites;
      walk(F->getBody(), F, CalleeForms);
    }
    InWrites = &Writes;
  }

  std::vector<IndirectRead> Out;

private:
  void walk(const Stmt *S, const FunctionDecl *In, FormBuilder &B) {
    if (!S)
      return;
    const bool IsLoop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S);
    if (IsLoop) {
      LoopShape L = loopShape(S);
      L.BoundsLoad = boundsLoad(L, B);
      enterLoop(L);
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      ++InLambda;
      walk(L->getBody(), In, B);
      --InLambda;
      if (IsLoop)
        leaveLoop();
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S))
      visit(E, In, B);
    for (const Stmt *C : S->children())
      walk(C, In, B);
    if (IsLoop)
      leaveLoop();
  }

  void enterLoop(const LoopShape &L) {
    Loops.push_back(L);
    if (L.Var)
      LoopVars.push_back(L.Var);
  }
  void leaveLoop() {
    if (Loops.back().Var)
      LoopVars.pop_back();
    Loops.pop_back();
  }

  // The builder is told the loops in scope only where it builds a form: most
  // expressions visited are no read.
  void visit(const Expr *E, const FunctionDecl *In, FormBuilder &B) {
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = nullptr;
      if (Classifier.classify(C, &Callee) == CallKind::Defined && Callee->getDefinition() &&
          !Callee->hasAttr<CUDAGlobalAttr>()) {
        const FunctionDecl *Def = Callee->getDefinition();
        noteLoadedArguments(C, Def, B);
        if (Seen.insert(Def).second)
          Callees.push_back(Def);
      }
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E); AS && isRowOfMember(AS))
      return visitRow(AS, In, B);
    MemoryRead M;
    if (!asMemoryRead(E, &M) || !M.Index || Done.count(M.Read) || storedTo(M.Read) ||
        startsFollowedPointer(M.Read, *InWrites, Ctx))
      return;
    // p[i].f and its element p[i]: one read.
    if (M.Field)
      if (const auto *ME = dyn_cast<MemberExpr>(M.Read->IgnoreParens()))
        Done.insert(ME->getBase()->IgnoreParens());
    ArrayRef Array = WriteSet::exactPointer(M.Base, *InWrites);
    PointerInto Into;
    if (!Array)
      Into = pointerInto(M.Base, *InWrites);
    if ((!Into.Array || Into.Offsets.empty()) && plainlyLoadFree(M.Index) &&
        llvm::all_of(M.Rows, [](const RowSubscript &Row) { return plainlyLoadFree(Row.Index); }))
      return;
    B.setLoopVars(LoopVars);
    FormRef Index = B.indexOf(M);
    if (Into.Array) {
      Array = Into.Array; // `p[c]` with `p = &A[B[t]]`: A at B[t] + c
      for (const Expr *Offset : Into.Offsets)
        Index = B.sum(Offset, Index);
    }
    if (!Index->dependsOnLoad() && !usesLoadBoundLoop(*Index))
      return;
    Done.insert(M.Read);
    IndirectRead R;
    R.Mem = M;
    R.Index = Index;
    R.Array = Array;
    R.Offsets = Into.Offsets;
    R.Loops = Loops;
    R.In = In;
    R.Plain = onlyRead(M.Read, Ctx);
    R.InLambda = InLambda > 0;
    Out.push_back(std::move(R));
  }

  // A row of a member of several dimensions taken as a pointer
  // (`*(p->m[B[t]] + 2)`, `int *r = p->m[B[t]]`) at a loaded subscript: no
  // load itself, but the reads through it are reported here, as a read of the
  // row (no array a copy is made of: IndexedSites.h says why). A row that
  // another subscript reads into is that read's (asMemoryRead).
  void visitRow(const ArraySubscriptExpr *Row, const FunctionDecl *In, FormBuilder &B) {
    DynTypedNode N = DynTypedNode::create(*Row);
    const Expr *Child = Row;
    for (auto Parents = parentsOf(N, Ctx); !Parents.empty(); Parents = parentsOf(N, Ctx)) {
      const auto *P = Parents[0].get<Expr>();
      if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P); AS && AS->getBase() == Child)
        return;
      if (!P || !(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P)))
        break;
      Child = P;
      N = Parents[0];
    }
    const Expr *Index = Row;
    std::vector<const Expr *> Subscripts;
    while (const auto *AS = dyn_cast<ArraySubscriptExpr>(Index->IgnoreParenImpCasts())) {
      Subscripts.push_back(AS->getIdx());
      Index = AS->getBase();
    }
    if (Done.count(Row) || llvm::all_of(Subscripts, [](const Expr *S) { return plainlyLoadFree(S); }))
      return;
    B.setLoopVars(LoopVars);
    FormRef Form = B.of(Row->getIdx());
    for (const Expr *S : Subscripts)
      if (FormRef F = B.of(S); F->dependsOnLoad() || usesLoadBoundLoop(*F))
        Form = F;
    if (!Form->dependsOnLoad() && !usesLoadBoundLoop(*Form))
      return;
    Done.insert(Row);
    IndirectRead R;
    R.Mem.Read = Row;
    R.Mem.Base = Row;
    R.Mem.Index = Row->getIdx();
    R.Index = Form;
    R.Loops = Loops;
    R.In = In;
    R.InLambda = InLambda > 0;
    Out.push_back(std::move(R));
  }

  // The callee's parameters this call gives a value loaded from memory: the
  // reads they index in the callee are indirect (`degree(dst[e])`).
  void noteLoadedArguments(const CallExpr *C, const FunctionDecl *Def, FormBuilder &B) {
    const std::vector<const Expr *> Args = callArguments(C, Def);
    B.setLoopVars(LoopVars);
    for (unsigned P = 0; P < Args.size(); ++P) {
      if (P >= Def->getNumParams() || !Def->getParamDecl(P)->getType()->isArithmeticType())
        continue;
      FormRef A = B.of(Args[P]);
      if (A->dependsOnLoad() || usesLoadBoundLoop(*A))
        LoadedParams.insert(Def->getParamDecl(P));
    }
  }

  // A plain store (`A[i] = x`) is not a read.
  bool storedTo(const Expr *Access) {
    auto Parents = parentsOf(*Access, Ctx);
    const auto *BO = Parents.empty() ? nullptr : Parents[0].get<BinaryOperator>();
    return BO && BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == Access;
  }

  // Whether a loop variable's values depend on loaded values: its first value
  // does (directly, or through a loop around it whose variable does). A loop
  // that only counts to a loaded bound (`j < count[t]`) does not: j is j.
  bool boundsLoad(const LoopShape &L, FormBuilder &B) {
    if (!L.First)
      return false;
    B.setLoopVars(LoopVars);
    FormRef F = B.of(L.First);
    return F->dependsOnLoad() || usesLoadBoundLoop(*F);
  }

  bool usesLoadBoundLoop(const Form &F) {
    std::set<const VarDecl *> Vars;
    F.loopVars(Vars);
    for (const LoopShape &L : Loops)
      if (L.Var && Vars.count(L.Var) && L.BoundsLoad)
        return true;
    return false;
  }

  const FunctionDecl *Kernel;
  const WriteSet &Writes;
  ASTContext &Ctx;
  const DeviceOnlyCode *DeviceOnly;
  FormBuilder Forms;
  CallClassifier Classifier;
  const WriteSet *InWrites = &Writes; // the writes of the function being walked
  std::vector<LoopShape> Loops;
  std::vector<const VarDecl *> LoopVars; // the variables of Loops that have one, outermost first
  std::vector<const FunctionDecl *> Callees;
  std::set<const FunctionDecl *> Seen;
  std::set<const ParmVarDecl *> LoadedParams;
  std::set<const Expr *> Done; // a read inside a read's base is visited once
  int InLambda = 0;
};

} // namespace

LoopShape loopShape(const Stmt *Loop) {
  LoopShape L;
  L.Loop = Loop;
  if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    if (const auto *C = dyn_cast_or_null<BinaryOperator>(strip(W->getCond())); C && C->isComparisonOp())
      if (const VarDecl *V = refToVar(C->getLHS()); V && writtenInside(V, W->getBody()))
        L.Var = V;
    L.NotCanonical = "its loop is a 'while' loop";
    return L;
  }
  if (isa<DoStmt>(Loop)) {
    L.NotCanonical = "its loop is a 'do' loop";
    return L;
  }
  const auto *For = cast<ForStmt>(Loop);
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()); V && V->hasInit()) {
        L.Var = V;
        L.First = V->getInit();
      }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    L.Var = refToVar(BO->getLHS());
    L.First = BO->getRHS();
  }
  if (!L.Var) {
    // A loop that starts no variable still steps one: find it in the increment.
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(For->getInc()))
      L.Var = refToVar(UO->getSubExpr());
    L.NotCanonical = "its loop does not start its variable in its header";
    return L;
  }
  if (!L.Var->getType()->isIntegerType()) {
    L.NotCanonical = "its loop variable is not an integer";
    return L;
  }
  const Expr *Step = nullptr;
  if (!stepsByOne(For->getInc(), L.Var)) {
    L.NotCanonical = "its loop does not step " + quoted(L.Var) + " by one";
    if (!(Step = stepOf(For->getInc(), L.Var)))
      return L;
  }
  const auto *C = dyn_cast_or_null<BinaryOperator>(For->getCond() ? strip(For->getCond()) : nullptr);
  if (C && refToVar(C->getLHS()) == L.Var &&
      (C->getOpcode() == BO_LT || C->getOpcode() == BO_NE || C->getOpcode() == BO_LE)) {
    L.End = C->getRHS();
    L.EndInclusive = C->getOpcode() == BO_LE;
  } else if (C && refToVar(C->getRHS()) == L.Var && (C->getOpcode() == BO_GT || C->getOpcode() == BO_GE)) {
    L.End = C->getLHS();
    L.EndInclusive = C->getOpcode() == BO_GE;
  } else {
    if (!Step)
      L.NotCanonical = "its loop condition is not '" + L.Var->getNameAsString() + " < end'";
    return L;
  }
  const bool Written = writtenInside(L.Var, For->getBody());
  if (Step) {
    // Strided: `k < end` only (`!=` may step past its end), k not written in the body.
    if (!Written && (C->getOpcode() == BO_LT || C->getOpcode() == BO_GT))
      L.Step = Step;
    else
      L.End = nullptr; // as a loop that stops at its step
    return L;
  }
  if (Written)
    L.NotCanonical = "its loop variable " + quoted(L.Var) + " is written in the loop body";
  return L;
}

std::vector<IndirectRead> findIndirectReads(const FunctionDecl *Kernel, const WriteSet &Writes, ASTContext &Ctx,
                                            const DeviceOnlyCode *DeviceOnly) {
  if (!Kernel->hasBody())
    return {};
  Walker W(Kernel, Writes, Ctx, DeviceOnly);
  W.run();
  return std::move(W.Out);
}

} // namespace irregfix
