#include "Analysis/ScatterSites.h"
#include "Analysis/BodyNodes.h"
#include "Analysis/Parents.h"
#include "Analysis/RowShapes.h"
#include "Analysis/ActiveThreads.h"
#include "Analysis/AstUtil.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace irregfix {

namespace {

// `A[i]` beneath `&`: the element an atomic updates.
const ArraySubscriptExpr *addressedElement(const Expr *E) {
  const auto *U = dyn_cast<UnaryOperator>(strip(E));
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  return dyn_cast<ArraySubscriptExpr>(strip(U->getSubExpr()));
}

// The atomic a call is, by name: atomicAdd, atomicSub or atomicExch of two
// arguments (the CUDA intrinsics), or empty.
llvm::StringRef atomicUpdate(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getIdentifier() || C->getNumArgs() != 2)
    return "";
  const llvm::StringRef Name = F->getName();
  return Name == "atomicAdd" || Name == "atomicSub" || Name == "atomicExch" ? Name : "";
}

// An update that adds to (or subtracts from, or assigns) an element chosen by
// a loaded index.
struct Candidate {
  const Expr *Update = nullptr;
  const ArraySubscriptExpr *Element = nullptr; // A[f[t]]
  const ArraySubscriptExpr *Load = nullptr;    // f[t]
  const Expr *Contribution = nullptr;
  bool Assign = false;
  bool Negated = false; // `-=`, atomicSub: the contribution is -e
};

// Replayed over the body's recorded nodes (BodyNodes.h).
class CandidateFinder : public RecursiveASTVisitor<CandidateFinder> {
public:
  std::vector<Candidate> Found;

  bool VisitCompoundAssignOperator(CompoundAssignOperator *Op) {
    if (Op->getOpcode() == BO_AddAssign || Op->getOpcode() == BO_SubAssign)
      add({Op, dyn_cast<ArraySubscriptExpr>(strip(Op->getLHS())), nullptr, Op->getRHS(), false,
           Op->getOpcode() == BO_SubAssign});
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const llvm::StringRef Name = atomicUpdate(C); !Name.empty())
      add({C, addressedElement(C->getArg(0)), nullptr, C->getArg(1), Name == "atomicExch", Name == "atomicSub"});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() == BO_Assign)
      add({Op, dyn_cast<ArraySubscriptExpr>(strip(Op->getLHS())), nullptr, Op->getRHS(), true, false});
    return true;
  }

private:
  void add(Candidate C) {
    if (!C.Element)
      return;
    C.Load = dyn_cast<ArraySubscriptExpr>(strip(C.Element->getIdx()));
    if (C.Load)
      Found.push_back(C);
  }
};

// Every reference to P in S.
class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  explicit RefCollector(const ParmVarDecl *P) : P(P) {}
  std::vector<const DeclRefExpr *> Refs;
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (R->getDecl() == P)
      Refs.push_back(R);
    return true;
  }

private:
  const ParmVarDecl *P;
};

std::vector<const DeclRefExpr *> refsTo(const ParmVarDecl *P, const Stmt *Body) {
  RefCollector C(P);
  C.TraverseStmt(const_cast<Stmt *>(Body));
  return C.Refs;
}

// The nearest parent of E that is not a cast or parentheses.
const Stmt *parentBeyondCasts(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child = E;
  for (int Depth = 0; Depth < 16; ++Depth) {
    auto Parents = parentsOf(*Child, Ctx);
    if (Parents.empty())
      return nullptr;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<ExprWithCleanups>(P)))
      return P;
    Child = P;
  }
  return nullptr;
}

// Whether a loop other than `Allowed` (t's grid-stride loop) encloses S.
bool inLoop(const Stmt *S, const Stmt *Allowed, ASTContext &Ctx) {
  const Stmt *Child = S;
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = parentsOf(*Child, Ctx);
    if (Parents.empty())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if ((isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<CXXForRangeStmt>(P)) && P != Allowed)
      return true;
    Child = P;
  }
  return true;
}

bool supportedElement(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  return T->isSpecificBuiltinType(BuiltinType::Float) || T->isSpecificBuiltinType(BuiltinType::Double) ||
         T->isSpecificBuiltinType(BuiltinType::Int);
}

// What the contribution e reads: none of it may be written by the kernel.
class ContributionReads : public RecursiveASTVisitor<ContributionReads> {
public:
  ContributionReads(const WriteSet &W, const DeviceOnlyCode *DeviceOnly) : W(W), DeviceOnly(DeviceOnly) {}
  std::string Why;

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) { return memory(AS->getBase()); }
  bool VisitUnaryOperator(UnaryOperator *U) {
    return U->getOpcode() == UO_Deref ? memory(U->getSubExpr()) : true;
  }
  bool VisitMemberExpr(MemberExpr *M) { return M->isArrow() ? memory(M->getBase()) : true; }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (V && V->hasAttr<CUDASharedAttr>())
      return fail("the contribution reads shared memory ('" + V->getNameAsString() + "')");
    if (V && V->hasGlobalStorage() && W.writtenSymbols().count(V))
      return fail("the contribution reads '" + V->getNameAsString() + "', which the kernel writes");
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return fail("the contribution calls a function through a pointer");
    const FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def))
      return true; // a builtin or a library function of the CUDA headers
    const WriteSet Callee = WriteSet::of(Def, DeviceOnly);
    if (Callee.hasUntracedWrite() || !Callee.writtenArrays().empty() || !Callee.writtenSymbols().empty() ||
        !Callee.writtenReferences().empty())
      return fail("the contribution calls '" + F->getNameAsString() + "', which writes memory");
    return true;
  }

private:
  bool memory(const Expr *Base) {
    ArrayRef A = WriteSet::pointerBase(Base, &W);
    if (!A) {
      // A local array of the thread (registers or local memory) is its own.
      if (const VarDecl *V = refToVar(Base); V && V->isLocalVarDecl() && V->getType()->isArrayType() &&
                                             !V->hasAttr<CUDASharedAttr>())
        return true;
      if (const VarDecl *V = refToVar(Base); V && V->hasAttr<CUDASharedAttr>())
        return fail("the contribution reads shared memory ('" + V->getNameAsString() + "')");
      return fail("the contribution reads memory the analysis cannot name");
    }
    if (W.writesThrough(A))
      return fail("the contribution reads " + A.quoted() + ", which the kernel writes");
    return true;
  }
  bool fail(std::string Reason) {
    Why = std::move(Reason);
    return false;
  }
  const WriteSet &W;
  const DeviceOnlyCode *DeviceOnly;
};

// The kernel's writes besides A: only `P[t] = v` of a pointer parameter P it
// does not otherwise use, so that the fallback (the original kernel, run after
// the variant) writes the same values again.
std::string otherWrites(const FunctionDecl *K, const ArrayRef &Target, const WriteSet &W, ASTContext &Ctx) {
  if (W.hasUntracedWrite())
    return "the kernel " + W.untracedWhy();
  if (!W.writtenSymbols().empty())
    return "the kernel writes the __device__ variable " + quoted(*W.writtenSymbols().begin());
  for (const ArrayRef &Out : W.writtenArrays()) {
    if (Out == Target)
      continue;
    const std::string Own = "the kernel also writes " + Out.quoted() + " other than as '" + Out.spelling() +
                            "[t] = ...' (the original kernel, the fallback, must be able to write it again)";
    if (Out.isField())
      return Own;
    for (const DeclRefExpr *R : refsTo(Out.param(), K->getBody())) {
      const Stmt *P = parentBeyondCasts(R, Ctx);
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P);
      if (!AS || strip(AS->getBase()) != R)
        return Own;
      const auto *Store = dyn_cast_or_null<BinaryOperator>(parentBeyondCasts(AS, Ctx));
      if (!Store || Store->getOpcode() != BO_Assign || strip(Store->getLHS()) != AS ||
          !isGlobalThreadIndex(AS->getIdx(), W))
        return Own;
    }
  }
  return "";
}

// Updates: how many the kernel makes, all of one array (updatesVerdict).
std::string verdict(const Candidate &C, ScatterSite &S, const FunctionDecl *K, const WriteSet &W, ASTContext &Ctx,
                    const DeviceOnlyCode *DeviceOnly, std::size_t Updates) {
  const PrintingPolicy &Policy = Ctx.getPrintingPolicy();
  S.Target = WriteSet::exactPointer(C.Element->getBase(), W);
  if (!S.Target)
    return "the updated array is not a kernel parameter";
  if (S.Target.isField())
    return "the updated array " + S.Target.quoted() + " is a struct field (not supported yet)";
  if (!supportedElement(S.Target.elementType()))
    return "the updated array's elements are '" + S.Target.elementType().getAsString(Policy) +
           "' (float, double and int are supported)";
  S.Index = WriteSet::exactPointer(C.Load->getBase(), W);
  if (!S.Index)
    return "the index array is not a kernel parameter";
  if (!S.Index.elementType()->isIntegerType())
    return "the index array's elements are not integers";
  // The launcher hands f to the runtime with irregfix::index_kind(f).
  if (!rowshape::isRuntimeIndexType(S.Index.elementType()))
    return "the index array's elements are '" + S.Index.elementType().getAsString(Policy) +
           "'; the runtime reads 32- and 64-bit integer indices";
  S.ThreadIndex = C.Load->getIdx();
  if (!isGlobalThreadIndex(S.ThreadIndex, W))
    return "the index array is not read at the thread index";
  if (const Stmt *P = parentBeyondCasts(C.Update, Ctx); !P || isa<Expr>(P))
    return "the update's value is used";
  const ForStmt *GridStride = nullptr;
  if (const VarDecl *T = refToVar(S.ThreadIndex))
    GridStride = W.gridStrideLoop(T);
  if (inLoop(C.Update, GridStride, Ctx))
    return "the update is inside a loop (a fixed number of updates a thread is supported)";
  S.ActiveThreads = findActiveThreads(C.Update, Ctx, W);
  if (!S.ActiveThreads)
    return "no guard bounds the thread index";
  if (!isLaunchEvaluable(S.ActiveThreads, W))
    return "the guard's bound cannot be evaluated at the launch";
  if (W.writesThrough(S.Index))
    return WriteSet::writtenWhy(S.Index);
  // A's references: the kernel's updates of it, nothing else.
  if (refsTo(S.Target.param(), K->getBody()).size() != Updates)
    return S.Target.quoted() + " is also read or written elsewhere in the kernel";
  ContributionReads Reads(W, DeviceOnly);
  Reads.TraverseStmt(const_cast<Expr *>(C.Contribution));
  if (!Reads.Why.empty())
    return Reads.Why;
  return otherWrites(K, S.Target, W, Ctx);
}

// Every pointer parameter the kernel names besides A.
std::vector<ArrayRef> otherArrays(const FunctionDecl *K, const ArrayRef &Target) {
  std::vector<ArrayRef> Out;
  for (const ParmVarDecl *P : K->parameters())
    if (P != Target.param() && P->getType()->isPointerType() && !refsTo(P, K->getBody()).empty())
      Out.push_back(ArrayRef(P));
  return Out;
}

// Why the kernel's updates cannot be rewritten together, from what they are:
// too many, or of more than one array. Empty when they may be.
std::string updatesVerdict(const std::vector<Candidate> &All, const WriteSet &W) {
  if (All.size() > static_cast<std::size_t>(kMaxScatterUpdates))
    return "the kernel has " + std::to_string(All.size()) + " updates through index arrays (at most " +
           std::to_string(kMaxScatterUpdates) + " are supported)";
  const ArrayRef First = WriteSet::exactPointer(All.front().Element->getBase(), W);
  for (const Candidate &C : All) {
    if (const ArrayRef A = WriteSet::exactPointer(C.Element->getBase(), W); A != First)
      return "the kernel updates both " + (First ? First.quoted() : std::string("an array")) + " and " +
             (A ? A.quoted() : std::string("another array")) +
             " through index arrays (one updated array is supported)";
    if (C.Assign != All.front().Assign)
      return "the kernel both adds to and assigns elements chosen through index arrays";
  }
  return "";
}

// Why updates each rewritable alone cannot be rewritten together: they read
// their index arrays at different thread indices, or are under different guards.
std::string groupVerdict(const std::vector<ScatterSite> &Sites, ASTContext &Ctx) {
  const ScatterSite &First = Sites.front();
  for (const ScatterSite &S : Sites) {
    if (!sameExpression(S.ThreadIndex, First.ThreadIndex, Ctx))
      return "the kernel's updates read their index arrays at different thread indices";
    if (!sameExpression(S.ActiveThreads, First.ActiveThreads, Ctx))
      return "the kernel's updates are under different guards";
  }
  return "";
}

// One kernel, or one instantiation of a kernel template (its AST complete).
std::vector<ScatterSite> sitesOf(const FunctionDecl *Kernel, ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly) {
  std::vector<ScatterSite> Sites;
  if (!Kernel->getBody())
    return Sites;
  CandidateFinder Finder;
  replayBody(Finder, Kernel->getBody(), Ctx);
  if (Finder.Found.empty())
    return Sites;
  const WriteSet W = WriteSet::of(Kernel, DeviceOnly);
  // An explicit specialization is a kernel of its own text, not launched
  // through the template's launcher.
  const bool Explicit = Kernel->getTemplateSpecializationKind() == TSK_ExplicitSpecialization;
  const int Updates = static_cast<int>(Finder.Found.size());
  const std::string Together = updatesVerdict(Finder.Found, W);
  for (const Candidate &C : Finder.Found) {
    ScatterSite S;
    S.Kernel = Kernel;
    S.Loc = C.Update->getBeginLoc();
    S.Update = C.Update;
    S.Element = C.Element;
    S.Contribution = C.Contribution;
    S.Assign = C.Assign;
    S.Negated = C.Negated;
    S.Slot = static_cast<int>(Sites.size());
    S.Updates = Updates;
    if (Explicit)
      S.RefusedBecause = "explicit specializations of kernel templates are not supported by the scatter strategy";
    else if (!Together.empty())
      S.RefusedBecause = Together;
    else if (isAnyMacro(C.Update))
      S.RefusedBecause = "the update is written through a macro";
    else
      S.RefusedBecause = verdict(C, S, Kernel, W, Ctx, DeviceOnly, Finder.Found.size());
    Sites.push_back(std::move(S));
  }
  // Rewritten together or not at all: one refused update keeps the others.
  std::string Why;
  for (const ScatterSite &S : Sites)
    if (!S.transformable() && Why.empty() && Updates > 1)
      Why = "another update of the kernel (line " +
            std::to_string(Ctx.getSourceManager().getSpellingLineNumber(S.Loc)) + ") is not transformed";
  if (Why.empty() && Updates > 1)
    Why = groupVerdict(Sites, Ctx);
  for (ScatterSite &S : Sites) {
    if (S.transformable() && !Why.empty())
      S.RefusedBecause = Why;
    if (S.transformable())
      S.AliasChecks = otherArrays(Kernel, S.Target);
  }
  return Sites;
}

// What a template's instantiations must agree on: the same updates, the same verdicts.
std::string verdicts(const std::vector<ScatterSite> &Sites) {
  std::string Out;
  for (const ScatterSite &S : Sites)
    Out += std::to_string(S.Loc.getRawEncoding()) + ":" + S.RefusedBecause + (S.Assign ? ":=" : ":+") + "\n";
  return Out;
}

} // namespace

std::vector<ScatterSite> findScatterSites(const FunctionDecl *Kernel, ASTContext &Ctx,
                                          const DeviceOnlyCode *DeviceOnly) {
  const FunctionTemplateDecl *FT = Kernel->getPrimaryTemplate();
  if (!FT || !Kernel->isTemplateInstantiation())
    return sitesOf(Kernel, Ctx, DeviceOnly);
  // A kernel template: through every instantiation in the file (their types
  // complete), which must agree; the variant and its launcher are templates.
  std::vector<ScatterSite> Sites = sitesOf(Kernel, Ctx, DeviceOnly);
  const std::string First = verdicts(Sites);
  for (const FunctionDecl *Spec : FT->specializations())
    if (Spec != Kernel && Spec->hasBody() && Spec->isTemplateInstantiation() &&
        verdicts(sitesOf(Spec, Ctx, DeviceOnly)) != First) {
      for (ScatterSite &S : Sites)
        S.RefusedBecause = "the kernel template's instantiations differ in what the scatter strategy can do";
      break;
    }
  return Sites;
}

} // namespace irregfix
