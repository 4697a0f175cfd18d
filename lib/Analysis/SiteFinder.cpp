#include "Analysis/SiteFinder.h"
#include "Analysis/ActiveThreads.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <map>
#include <optional>

using namespace clang;

namespace irregfix {

const char *patternName(SitePattern P) {
  switch (P) {
  case SitePattern::Range:
    return "range";
  case SitePattern::Gather:
    return "gather";
  }
  return "?";
}

std::vector<const SiteArray *> Site::remappedArrays() const {
  std::vector<const SiteArray *> Out;
  if (RefusedBecause.empty())
    for (const SiteArray &A : Arrays)
      if (A.RefusedBecause.empty())
        Out.push_back(&A);
  return Out;
}

bool KernelInfo::hasTransformableSite() const {
  if (!RefusedBecause.empty())
    return false;
  for (const Site &S : Sites)
    if (S.Transformable)
      return true;
  return false;
}

namespace {

std::string quoted(const NamedDecl *D) { return "'" + D->getNameAsString() + "'"; }

// B[e], with B resolved to a pointer parameter.
struct IndexRead {
  const ParmVarDecl *Array = nullptr;
  const Expr *Index = nullptr;
};

std::optional<IndexRead> asParamSubscript(const Expr *E, const WriteSet &W) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(strip(E));
  if (!AS)
    return std::nullopt;
  const ParmVarDecl *P = WriteSet::exactPointer(AS->getBase(), W);
  if (!P)
    return std::nullopt;
  return IndexRead{P, AS->getIdx()};
}

// Follows an unwritten local `start = B[t]` to its initialiser.
const Expr *throughLocal(const Expr *E, const WriteSet &W) {
  const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
  if (!DR)
    return E;
  const auto *V = dyn_cast<VarDecl>(DR->getDecl());
  if (V && V->isLocalVarDecl() && V->hasInit() && !W.writesScalar(V))
    return V->getInit();
  return E;
}

// True when S computes something from threadIdx/blockIdx without reading memory:
// an index that looks like a thread index but is not the 1-D global one.
bool mentionsBuiltinIndex(const Stmt *S) {
  if (isa_and_nonnull<ArraySubscriptExpr>(S) || isa_and_nonnull<CallExpr>(S))
    return false;
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    for (const char *Var : {"threadIdx", "blockIdx", "blockDim", "gridDim"})
      for (char F : {'x', 'y', 'z'})
        if (isBuiltinIndexRead(E, Var, F))
          return true;
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->isLocalVarDecl() && V->hasInit())
      if (mentionsBuiltinIndex(V->getInit()))
        return true;
  if (S)
    for (const Stmt *C : S->children())
      if (mentionsBuiltinIndex(C))
        return true;
  return false;
}

const VarDecl *refToVar(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

// True when the subscript's value is only read (not its address taken, not stored to).
bool isPlainRead(const ArraySubscriptExpr *AS, ASTContext &Ctx) {
  const Stmt *Cur = AS;
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(*Cur);
    if (Parents.empty())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
      return IC->getCastKind() == CK_LValueToRValue;
    if (isa<ParenExpr>(P)) {
      Cur = P;
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P); ME && !ME->isArrow()) {
      Cur = P; // A[k].field
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) // struct copied whole
      return CE->getConstructor()->isCopyOrMoveConstructor() &&
             CE->getConstructor()->getParamDecl(0)->getType()->getPointeeType().isConstQualified();
    return false;
  }
  return false;
}

bool isIncrementOf(const Stmt *Inc, const VarDecl *K) {
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    return UO->isIncrementOp() && refToVar(UO->getSubExpr()) == K;
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    const auto *One = dyn_cast<IntegerLiteral>(strip(CA->getRHS()));
    return CA->getOpcode() == BO_AddAssign && refToVar(CA->getLHS()) == K && One &&
           One->getValue() == 1;
  }
  return false;
}

bool isAnyMacro(const Stmt *S) {
  return S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID();
}

class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
public:
  SiteFinder(KernelInfo &Info, ASTContext &Ctx, const WriteSet &W) : Info(Info), Ctx(Ctx), W(W) {}

  bool VisitForStmt(ForStmt *For) {
    if (auto S = matchRangeLoop(For))
      Info.Sites.push_back(std::move(*S));
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    matchGather(AS);
    return true;
  }

  void finish() {
    for (auto &[Key, S] : Gathers)
      Info.Sites.push_back(std::move(S));
    Gathers.clear();
  }

private:
  // Common checks; returns the reason the site cannot be transformed, or "".
  std::string checkSite(Site &S, const Stmt *Anchor) {
    if (W.hasUntracedWrite())
      return "the kernel writes through a pointer the analysis cannot trace";
    if (W.writesThrough(S.Offsets))
      return quoted(S.Offsets) + " is written in the kernel";
    if (W.writesScalar(S.Offsets))
      return quoted(S.Offsets) + " is reassigned in the kernel";
    if (S.Offsets->getType()->getPointeeType().isVolatileQualified())
      return quoted(S.Offsets) + " is volatile";
    const Expr *N = findActiveThreads(Anchor, Ctx, W);
    if (!N)
      return "no guard 'if (t < n)' or 'if (t >= n) return' bounds the thread index";
    if (!isLaunchEvaluable(N, W))
      return "the guard bound is not computable from the kernel's arguments";
    S.ActiveThreads = N;
    return "";
  }

  void checkArray(const Site &S, SiteArray &A) {
    const ParmVarDecl *P = A.Param;
    if (P == S.Offsets)
      A.RefusedBecause = quoted(P) + " is also the offset array";
    else if (W.writesThrough(P))
      A.RefusedBecause = quoted(P) + " is written in the kernel";
    else if (W.writesScalar(P))
      A.RefusedBecause = quoted(P) + " is reassigned in the kernel";
    else if (P->getType()->getPointeeType().isVolatileQualified())
      A.RefusedBecause = quoted(P) + " is volatile";
    else if (P->getType()->getPointeeType()->isIncompleteType())
      A.RefusedBecause = quoted(P) + " has an incomplete element type";
  }

  void addAliasChecks(Site &S) {
    std::vector<const ParmVarDecl *> Sources{S.Offsets};
    for (const SiteArray *A : S.remappedArrays())
      Sources.push_back(A->Param);
    auto IsRestrict = [](const ParmVarDecl *P) { return P->getType().isRestrictQualified(); };
    for (const ParmVarDecl *Written : W.writtenParams())
      for (const ParmVarDecl *Src : Sources)
        if (Written != Src && !(IsRestrict(Written) && IsRestrict(Src)))
          S.AliasChecks.push_back({Written, Src});
  }

  std::optional<Site> matchRangeLoop(const ForStmt *For) {
    // for (k = START; k < END; ++k) with START resolving to B[e].
    const VarDecl *K = nullptr;
    const Expr *Start = nullptr;
    bool Declared = false;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      if (!DS->isSingleDecl())
        return std::nullopt;
      K = dyn_cast<VarDecl>(DS->getSingleDecl());
      Start = K ? K->getInit() : nullptr;
      Declared = true;
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit())) {
      if (BO->getOpcode() == BO_Assign) {
        K = refToVar(BO->getLHS());
        Start = BO->getRHS();
      }
    }
    if (!K || !Start || !K->getType()->isIntegerType())
      return std::nullopt;
    auto StartRead = asParamSubscript(throughLocal(Start, W), W);
    if (!StartRead)
      return std::nullopt;

    Site S;
    S.Pattern = SitePattern::Range;
    S.Kernel = Info.Kernel;
    S.Loc = For->getBeginLoc();
    S.Loop = For;
    S.LoopVar = K;
    S.LoopVarDeclaredInLoop = Declared;
    S.Offsets = StartRead->Array;
    S.ThreadIndex = StartRead->Index;

    auto Refuse = [&](std::string Why) {
      S.RefusedBecause = std::move(Why);
      return std::optional<Site>(std::move(S));
    };

    if (!isGlobalThreadIndex(StartRead->Index, W))
      return Refuse("the index of " + quoted(S.Offsets) +
                    " is not the 1-D global thread index (blockIdx.x * blockDim.x + threadIdx.x)");
    if (isAnyMacro(For))
      return Refuse("the loop is written through a macro");

    // Bound: k < B[t+1] or k != B[t+1], directly or through an unwritten local.
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
    bool BoundOk = false;
    if (Cond && (Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_NE) &&
        refToVar(Cond->getLHS()) == K) {
      auto End = asParamSubscript(throughLocal(Cond->getRHS(), W), W);
      BoundOk = End && End->Array == S.Offsets && isGlobalThreadIndexPlusOne(End->Index, W);
    }
    if (!BoundOk)
      return Refuse("the loop bound is not " + S.Offsets->getNameAsString() + "[t + 1]");
    if (!isIncrementOf(For->getInc(), K))
      return Refuse("the loop step is not ++" + K->getNameAsString());
    if (writtenInside(K, For->getBody()))
      return Refuse("the loop variable " + quoted(K) + " is written in the loop body");
    if (std::string Why = checkSite(S, For); !Why.empty())
      return Refuse(Why);

    collectRangeReads(S);
    if (!Declared && isUsedOutside(K, For))
      return Refuse("the loop variable " + quoted(K) + " is used outside the loop");
    if (S.Arrays.empty())
      return Refuse("no array is read as A[" + K->getNameAsString() + "] in the loop");
    for (SiteArray &A : S.Arrays)
      checkArray(S, A);
    S.Transformable = !S.remappedArrays().empty();
    if (S.Transformable)
      addAliasChecks(S);
    S.LoopVarUsedElsewhere = countRefs(K, For->getBody()) > remappedReadCount(S);
    return S;
  }

  // Reads A[k] in the loop body, grouped by array.
  void collectRangeReads(Site &S) {
    std::map<const ParmVarDecl *, size_t> Index;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
      if (!St)
        return;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(St)) {
        const ParmVarDecl *A = WriteSet::exactPointer(AS->getBase(), W);
        if (A && refToVar(AS->getIdx()) == S.LoopVar && isPlainRead(AS, Ctx) && !isAnyMacro(AS)) {
          auto [It, New] = Index.try_emplace(A, S.Arrays.size());
          if (New)
            S.Arrays.push_back(SiteArray{A, {}, ""});
          S.Arrays[It->second].Reads.push_back(AS);
        }
      }
      for (const Stmt *C : St->children())
        Walk(C);
    };
    Walk(S.Loop->getBody());
  }

  static size_t remappedReadCount(const Site &S) {
    size_t N = 0;
    for (const SiteArray *A : S.remappedArrays())
      N += A->Reads.size();
    return N;
  }

  static size_t countRefs(const VarDecl *V, const Stmt *St) {
    if (!St)
      return 0;
    size_t N = 0;
    if (const auto *DR = dyn_cast<DeclRefExpr>(St); DR && DR->getDecl() == V)
      ++N;
    for (const Stmt *C : St->children())
      N += countRefs(V, C);
    return N;
  }

  bool isUsedOutside(const VarDecl *V, const ForStmt *For) {
    size_t Inside = countRefs(V, For);
    return countRefs(V, Info.Kernel->getBody()) > Inside;
  }

  static bool writtenInside(const VarDecl *V, const Stmt *St) {
    if (!St)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(St); BO && BO->isAssignmentOp() && refToVar(BO->getLHS()) == V)
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(St))
      if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && refToVar(UO->getSubExpr()) == V)
        return true;
    for (const Stmt *C : St->children())
      if (writtenInside(V, C))
        return true;
    return false;
  }

  // A[B[t]]: grouped by (A, B) into one site.
  void matchGather(const ArraySubscriptExpr *AS) {
    auto Inner = asParamSubscript(AS->getIdx(), W);
    if (!Inner)
      return;
    const ParmVarDecl *A = WriteSet::exactPointer(AS->getBase(), W);
    if (!A)
      return;
    bool IsT = isGlobalThreadIndex(Inner->Index, W);
    if (!IsT && !mentionsBuiltinIndex(Inner->Index))
      return; // some other indirect read, e.g. x[col[k]] inside a range loop

    auto Key = std::make_pair(A, Inner->Array);
    auto It = Gathers.find(Key);
    if (It == Gathers.end()) {
      Site S;
      S.Pattern = SitePattern::Gather;
      S.Kernel = Info.Kernel;
      S.Loc = AS->getBeginLoc();
      S.Offsets = Inner->Array;
      S.ThreadIndex = Inner->Index;
      S.Arrays.push_back(SiteArray{A, {}, ""});
      It = Gathers.emplace(Key, std::move(S)).first;
    }
    Site &S = It->second;
    if (!S.RefusedBecause.empty())
      return;
    if (!IsT) {
      S.RefusedBecause = "the index of " + quoted(S.Offsets) +
                         " is not the 1-D global thread index (blockIdx.x * blockDim.x + threadIdx.x)";
      return;
    }
    if (isAnyMacro(AS)) {
      S.RefusedBecause = "the read is written through a macro";
      return;
    }
    if (!isPlainRead(AS, Ctx)) {
      S.RefusedBecause = "the address of " + A->getNameAsString() + "[" +
                         S.Offsets->getNameAsString() + "[t]] is taken or it is written";
      return;
    }
    if (std::string Why = checkSite(S, AS); !Why.empty()) {
      S.RefusedBecause = Why;
      return;
    }
    S.Arrays[0].Reads.push_back(AS);
    checkArray(S, S.Arrays[0]);
    bool Was = S.Transformable;
    S.Transformable = !S.remappedArrays().empty();
    if (S.Transformable && !Was)
      addAliasChecks(S);
  }

  KernelInfo &Info;
  ASTContext &Ctx;
  const WriteSet &W;
  std::map<std::pair<const ParmVarDecl *, const ParmVarDecl *>, Site> Gathers;
};

} // namespace

KernelInfo analyzeKernel(const FunctionDecl *Kernel, ASTContext &Ctx) {
  KernelInfo Info;
  Info.Kernel = Kernel;
  if (!Kernel->hasBody())
    return Info;
  if (Kernel->isTemplated() || Kernel->isTemplateInstantiation())
    Info.RefusedBecause = "kernel templates are not supported yet";
  else if (isa<CXXMethodDecl>(Kernel))
    Info.RefusedBecause = "the kernel is a class member";
  WriteSet W = WriteSet::of(Kernel);
  SiteFinder Finder(Info, Ctx, W);
  Finder.TraverseStmt(Kernel->getBody());
  Finder.finish();
  if (!Info.RefusedBecause.empty())
    for (Site &S : Info.Sites) {
      S.Transformable = false;
      S.RefusedBecause = Info.RefusedBecause; // the kernel's reason comes first
    }
  return Info;
}

} // namespace irregfix
