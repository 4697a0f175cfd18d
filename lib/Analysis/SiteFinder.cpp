#include "Analysis/SiteFinder.h"
#include "Analysis/BodyNodes.h"
#include "Analysis/ActiveThreads.h"
#include "Analysis/Parents.h"
#include "Analysis/PointerAliases.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"
#include "Analysis/AstUtil.h"
#include "Analysis/RowShapes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace irregfix {

std::vector<const SiteArray *> Site::remappedArrays() const {
  std::vector<const SiteArray *> Out;
  if (RefusedBecause.empty())
    for (const SiteArray &A : Arrays)
      if (A.RefusedBecause.empty())
        Out.push_back(&A);
  return Out;
}

std::vector<ArrayRef> Site::indexArrays() const {
  if (Pattern == kPatternIndexed)
    return IndexSources;
  std::vector<ArrayRef> Out{Offsets};
  if (RowMap)
    Out.push_back(RowMap);
  if (NeighborCounts)
    Out.push_back(NeighborCounts);
  return Out;
}

ArrayRef Site::kernelArray(const ArrayRef &A) const {
  if (!Callee)
    return A;
  auto It = Callee->KernelArrays.find(A);
  return It == Callee->KernelArrays.end() ? ArrayRef() : It->second;
}

bool KernelInfo::hasTransformableSite() const {
  if (!RefusedBecause.empty())
    return false;
  for (const Site &S : Sites)
    if (S.transformable())
      return true;
  return false;
}

namespace {

using irregfix::quoted;
std::string quoted(const ArrayRef &A) { return A.quoted(); }

using namespace rowshape;

std::string notThreadIndex(const ArrayRef &B) {
  return "the index of " + quoted(B) +
         " is not the 1-D global thread index (blockIdx.x * blockDim.x + threadIdx.x) nor a linear index of "
         "2-D or 3-D ones (i + nx * j)";
}

// Two reads of one site's copy whose thread indices number the threads differently.
std::string differentThreadIndices(const ArrayRef &B) {
  return quoted(B) + " is read at two thread indices that number the threads differently";
}

// Replayed over the body's recorded nodes (BodyNodes.h).
class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
public:
  // Body: the function whose code is searched (the kernel's, or a callee's
  // reached through Callee, whose guard is the kernel's at the call).
  SiteFinder(KernelInfo &Info, ASTContext &Ctx, const WriteSet &W, const Stmt *Body,
             const BoundChain *Callee = nullptr, const WriteSet *KernelWrites = nullptr)
      : Info(Info), Ctx(Ctx), W(W), Body(Body), Callee(Callee), KernelWrites(KernelWrites) {}

  bool VisitForStmt(ForStmt *For) {
    if (auto S = matchRangeLoop(For))
      return addSite(std::move(*S)), true;
    matchNeighborLoop(For);
    return true;
  }

  bool VisitWhileStmt(WhileStmt *While) {
    matchNeighborWhile(While);
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    if (!Claimed.count(AS))
      matchGather(AS);
    return true;
  }

  // Bodies of lambdas and local classes are functions of their own: their
  // parameters are not the kernel's (a lambda's `A` may be another array) and
  // a rewritten read there would need the views it does not capture. Their
  // reads stay as they are, which is correct: the original arrays are kept.
  // They are still reported, so that no indirect read goes unmentioned.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    reportNested(L->getBody(), "a lambda");
    return true;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *R) {
    for (const Decl *D : R->decls())
      if (const FunctionDecl *F = D->getAsFunction(); F && F->hasBody())
        reportNested(F->getBody(), "a local class");
    return true;
  }

  void finish() {
    for (Site &S : GatherSites)
      Info.Sites.push_back(std::move(S));
    GatherSites.clear();
  }

private:
  // A[<anything reading memory>] in a nested function body: a refused gather.
  void reportNested(const Stmt *Body, const char *Where) {
    std::function<bool(const Stmt *)> ReadsMemory = [&](const Stmt *X) {
      if (!X || isa<ArraySubscriptExpr>(X))
        return X != nullptr;
      for (const Stmt *C : X->children())
        if (ReadsMemory(C))
          return true;
      return false;
    };
    std::function<void(const Stmt *)> Walk = [&](const Stmt *X) {
      if (!X)
        return;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X); AS && ReadsMemory(AS->getIdx())) {
        Site S;
        S.Pattern = kPatternGather;
        S.Kernel = Info.Kernel;
        S.Loc = AS->getBeginLoc();
        S.RefusedBecause = std::string("the read is inside ") + Where;
        GatherSites.push_back(std::move(S));
      }
      for (const Stmt *C : X->children())
        Walk(C);
    };
    Walk(Body);
  }

  void addSite(Site S) {
    for (const SiteArray &A : S.Arrays)
      for (const Expr *R : A.Reads)
        Claimed.insert(R);
    Info.Sites.push_back(std::move(S));
  }

  // Common checks; returns the reason the site cannot be transformed, or "".
  std::string checkSite(Site &S, const Stmt *Anchor) {
    if (W.hasUntracedWrite())
      return "the kernel may write memory the analysis cannot name: " + W.untracedWhy();
    for (const ArrayRef &I : S.indexArrays()) {
      if (W.writesThrough(I))
        return WriteSet::writtenWhy(I);
      if (I.elementType().isVolatileQualified())
        return quoted(I) + " is volatile";
      if (!isRuntimeIndexType(I.elementType()))
        return quoted(I) + " holds '" + I.elementType().getUnqualifiedType().getAsString() +
               "' indices; the runtime reads 32- and 64-bit integer indices (int, long, long long, signed "
               "or unsigned)";
    }
    if (Callee) {
      // The guard holds where the kernel makes the call.
      const CallExpr *Call = Callee->Chain.Calls.front();
      const Expr *N = findActiveThreads(Call, Ctx, *KernelWrites);
      if (!N)
        return "no guard 'if (t < n)' or 'if (t >= n) return' bounds the thread index where the kernel calls '" +
               Callee->Chain.Functions.front()->getNameAsString() + "'";
      if (!isGuardBoundEvaluable(N, *KernelWrites))
        return "the guard bound is not computable from the kernel's arguments";
      S.ActiveThreads = N;
      return "";
    }
    ActiveThreadCount N = countActiveThreads(S.ThreadIndex, Anchor, Ctx, W);
    if (!N.RefusedBecause.empty())
      return N.RefusedBecause;
    S.ActiveThreads = N.Bound;
    S.ActiveExtents = N.Extents;
    S.LaunchThreads = N.Launch;
    return "";
  }

  void checkArray(const Site &S, SiteArray &A) {
    const ArrayRef &P = A.Array;
    for (const ArrayRef &I : S.indexArrays())
      if (P == I) {
        A.RefusedBecause = quoted(P) + " is also an index array of the site";
        return;
      }
    if (W.writesThrough(P))
      A.RefusedBecause = WriteSet::writtenWhy(P);
    else if (A.OtherUse)
      A.RefusedBecause = "an element of " + quoted(P) + " is used other than by reading it";
    else if (A.Reads.empty())
      A.RefusedBecause = quoted(P) + " is not read";
    else if (P.elementType().isVolatileQualified())
      A.RefusedBecause = quoted(P) + " is volatile";
    else if (P.elementType()->isIncompleteType())
      A.RefusedBecause = quoted(P) + " has an incomplete element type";
  }

  void addAliasChecks(Site &S) {
    std::vector<ArrayRef> Sources = S.indexArrays();
    for (const SiteArray *A : S.remappedArrays())
      Sources.push_back(A->Array);
    irregfix::addAliasChecks(S, Sources, W);
  }

  void finishArrays(Site &S) {
    for (SiteArray &A : S.Arrays)
      checkArray(S, A);
    if (S.transformable() && !Callee) // a callee's site checks the kernel's arrays (addCalleeSites)
      addAliasChecks(S);
  }

  // The array whose element AS reads. A member of several dimensions
  // subscripted once gives a row, no element: its reads are indexed sites'
  // (at the flat index, IndexedSites.h), no pattern's.
  ArrayRef elementsOf(const ArraySubscriptExpr *AS) const {
    ArrayRef A = WriteSet::exactPointer(AS->getBase(), W);
    return A && !A.isMultiDimensional() ? A : ArrayRef();
  }

  // Reads in St that Match accepts, grouped by array.
  void collectReads(Site &S, const Stmt *St,
                    const std::function<bool(const ArraySubscriptExpr *)> &Match) {
    std::map<ArrayRef, size_t> Index;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *X) {
      if (!X || isa<LambdaExpr>(X)) // see TraverseLambdaExpr
        return;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
        ArrayRef A = elementsOf(AS);
        if (A && Match(AS) && !isAnyMacro(AS)) {
          auto [It, New] = Index.try_emplace(A, S.Arrays.size());
          if (New)
            S.Arrays.push_back(SiteArray{A, {}, false, "", {}});
          if (isPlainRead(AS, Ctx))
            S.Arrays[It->second].Reads.push_back(AS);
          else
            S.Arrays[It->second].OtherUse = true;
        }
      }
      for (const Stmt *C : X->children())
        Walk(C);
    };
    Walk(St);
  }

  static size_t remappedReadCount(const Site &S) {
    size_t N = 0;
    for (const SiteArray *A : S.remappedArrays())
      N += A->Reads.size();
    return N;
  }

  // Range loops, in two forms:
  //   for (k = B[r]; k < B[r+1]; ++k) ... A[k]               (element index)
  //   for (i = 0; i < B[r+1] - B[r]; ++i) ... A[B[r] + i]    (counted)
  // with r = t, or r = C[t] for the two-level pattern; B[..] also through locals.
  std::optional<Site> matchRangeLoop(const ForStmt *For) {
    auto H = loopHead(For);
    if (!H)
      return std::nullopt;
    const VarDecl *K = H->Var;
    const Expr *Bound = upperBound(For, K);

    std::optional<RowBound> Start;
    bool Counted = false;
    if (isIntLiteral(H->Start, 0)) {
      // Counted form: the bound is B[r+1] - B[r].
      const auto *Len = Bound ? dyn_cast<BinaryOperator>(strip(throughLocal(Bound, W))) : nullptr;
      if (!Len || Len->getOpcode() != BO_Sub)
        return std::nullopt;
      Start = rowStart(Len->getRHS(), W);
      auto End = rowEnd(Len->getLHS(), W);
      if (!Start || !End || !sameRow(*Start, *End, W, Ctx))
        return std::nullopt;
      Counted = true;
    } else {
      // Element form, or something that starts like it: B[e].
      auto S0 = asParamSubscript(throughLocal(H->Start, W), W);
      if (!S0)
        return std::nullopt;
      Start = rowStart(H->Start, W);
      if (!Start) {
        Site S = baseSite(For, K, H->Declared);
        S.Offsets = S0->Array;
        S.ThreadIndex = S0->Index;
        S.RefusedBecause = notThreadIndex(S0->Array);
        return S;
      }
    }

    Site S = baseSite(For, K, H->Declared);
    S.Pattern = Start->R.Map ? kPatternRange2 : kPatternRange;
    S.Offsets = Start->Offsets;
    S.RowMap = Start->R.Map;
    S.ThreadIndex = Start->R.ThreadIndex;
    S.LoopVarIsIteration = Counted;
    auto Refuse = [&](std::string Why) {
      S.RefusedBecause = std::move(Why);
      return std::optional<Site>(std::move(S));
    };
    if (isAnyMacro(For))
      return Refuse("the loop is written through a macro");
    if (!Counted) {
      auto End = Bound ? rowEnd(Bound, W) : std::nullopt;
      if (!End || !sameRow(*Start, *End, W, Ctx))
        return Refuse("the loop bound is not " + S.Offsets.spelling() + "[t + 1]");
    }
    if (!isIncrementOf(For->getInc(), K))
      return Refuse("the loop step is not ++" + K->getNameAsString());
    if (writtenInside(K, For->getBody()))
      return Refuse("the loop variable " + quoted(K) + " is written in the loop body");
    if (std::string Why = checkSite(S, For); !Why.empty())
      return Refuse(Why);

    if (Counted) {
      // A[start + i] or A[i + start], start being B[r] of the same row.
      collectReads(S, For->getBody(), [&](const ArraySubscriptExpr *AS) {
        const auto *Add = dyn_cast<BinaryOperator>(strip(AS->getIdx()));
        if (!Add || Add->getOpcode() != BO_Add)
          return false;
        for (auto [X, Y] : {std::pair(Add->getLHS(), Add->getRHS()), std::pair(Add->getRHS(), Add->getLHS())})
          if (refToVar(Y) == K)
            if (auto R = rowStart(X, W); R && sameRow(*R, *Start, W, Ctx))
              return true;
        return false;
      });
    } else {
      collectReads(S, For->getBody(), [&](const ArraySubscriptExpr *AS) { return refToVar(AS->getIdx()) == K; });
    }
    if (!H->Declared && bodyRefs(K) > countRefs(K, For))
      return Refuse("the loop variable " + quoted(K) + " is used outside the loop");
    if (S.Arrays.empty())
      return Refuse(std::string("no array is read as A[") + (Counted ? "start + " : "") + K->getNameAsString() +
                    "] in the loop");
    finishArrays(S);
    S.LoopVarUsedElsewhere = countRefs(K, For->getBody()) > remappedReadCount(S);
    return S;
  }

  // How many times the searched body (the kernel's, or a called function's) refers to V
  // (counted once for all variables).
  size_t bodyRefs(const VarDecl *V) {
    if (!BodyRefCounts)
      BodyRefCounts = countAllRefs(Body);
    auto It = BodyRefCounts->find(V);
    return It == BodyRefCounts->end() ? 0 : It->second;
  }

  Site baseSite(const ForStmt *For, const VarDecl *K, bool Declared) {
    Site S;
    S.Pattern = kPatternRange;
    S.Kernel = Info.Kernel;
    S.Loc = For->getBeginLoc();
    S.Loop = For;
    S.LoopVar = K;
    S.LoopVarDeclaredInLoop = Declared;
    return S;
  }

  // NB[j * M + t] (column-major) or NB[t * M + j] (row-major), M launch-evaluable.
  struct NeighborIndex {
    ArrayRef List;
    const Expr *ThreadIndex = nullptr;
    const Expr *Stride = nullptr;
    bool RowMajor = false;
  };

  std::optional<NeighborIndex> neighborIndex(const Expr *E, const VarDecl *J) {
    auto R = asParamSubscript(throughLocal(E, W), W);
    if (!R)
      return std::nullopt;
    const auto *Add = dyn_cast<BinaryOperator>(strip(R->Index));
    if (!Add || Add->getOpcode() != BO_Add)
      return std::nullopt;
    // X * M with X matching IsX; M launch-evaluable.
    auto Product = [&](const Expr *P, auto IsX) -> const Expr * {
      const auto *Mul = dyn_cast<BinaryOperator>(strip(P));
      if (!Mul || Mul->getOpcode() != BO_Mul)
        return nullptr;
      if (IsX(Mul->getLHS()) && isLaunchEvaluable(Mul->getRHS(), W))
        return Mul->getRHS();
      if (IsX(Mul->getRHS()) && isLaunchEvaluable(Mul->getLHS(), W))
        return Mul->getLHS();
      return nullptr;
    };
    auto IsJ = [&](const Expr *X) { return refToVar(X) == J; };
    auto IsT = [&](const Expr *X) { return isThreadIndex(X, W); };
    for (auto [X, Y] : {std::pair(Add->getLHS(), Add->getRHS()), std::pair(Add->getRHS(), Add->getLHS())}) {
      if (IsT(Y))
        if (const Expr *M = Product(X, IsJ))
          return NeighborIndex{R->Array, Y, M, false};
      if (IsJ(Y))
        if (const Expr *M = Product(X, IsT)) {
          const auto *Mul = cast<BinaryOperator>(strip(X));
          const Expr *T = IsT(Mul->getLHS()) ? Mul->getLHS() : Mul->getRHS();
          return NeighborIndex{R->Array, T, M, true};
        }
    }
    return std::nullopt;
  }

  // for (j = 0; j < m or counts[t]; ++j) { q = NB[j*M + t]; ... A[q] ... }
  void matchNeighborLoop(const ForStmt *For) {
    auto H = loopHead(For);
    if (!H || !isIntLiteral(H->Start, 0) || !isIncrementOf(For->getInc(), H->Var))
      return;
    const Expr *Bound = upperBound(For, H->Var);
    if (!Bound)
      return;
    std::string LoopProblem;
    if (writtenInside(H->Var, For->getBody()))
      LoopProblem = "the loop variable " + quoted(H->Var) + " is written in the loop body";
    matchNeighborReads(For, H->Var, Bound, For->getBody(), LoopProblem);
  }

  // int j = 0; while (j < count) { ...; ++j; }: j counts iterations only when it
  // starts at 0 right before the loop and the body's last statement is its only
  // increment (a `continue` would skip it).
  void matchNeighborWhile(const WhileStmt *While) {
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(While->getCond());
    const VarDecl *J = Cond && Cond->getOpcode() == BO_LT ? refToVar(Cond->getLHS()) : nullptr;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(While->getBody());
    if (!J || !J->getType()->isIntegerType() || !Body || Body->body_empty())
      return;
    std::string LoopProblem;
    if (!startsAtZeroBefore(While, J))
      LoopProblem = "the loop variable " + quoted(J) + " does not start at 0 right before the loop";
    else if (!isIncrementOf(Body->body_back(), J))
      LoopProblem = "the last statement of the loop body is not ++" + J->getNameAsString();
    else if (hasOwnContinue(Body))
      LoopProblem = "a 'continue' would skip the increment of " + quoted(J);
    else
      for (const Stmt *St : Body->body())
        if (St != Body->body_back() && writtenInside(J, St))
          LoopProblem = "the loop variable " + quoted(J) + " is written in the loop body";
    matchNeighborReads(While, J, Cond->getRHS(), Body, LoopProblem);
  }

  bool startsAtZeroBefore(const Stmt *Loop, const VarDecl *J) {
    auto Parents = parentsOf(*Loop, Ctx);
    const auto *Block = Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
    if (!Block)
      return false;
    const Stmt *Prev = nullptr;
    for (const Stmt *St : Block->body()) {
      if (St == Loop)
        break;
      Prev = St;
    }
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(Prev))
      for (const Decl *D : DS->decls())
        if (D == J)
          return J->hasInit() && isIntLiteral(J->getInit(), 0);
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(Prev);
    return Assign && Assign->getOpcode() == BO_Assign && refToVar(Assign->getLHS()) == J &&
           isIntLiteral(Assign->getRHS(), 0);
  }

  // A `continue` that belongs to this loop (not to a loop nested in it).
  static bool hasOwnContinue(const Stmt *St) {
    if (!St)
      return false;
    if (isa<ContinueStmt>(St))
      return true;
    if (isa<ForStmt>(St) || isa<WhileStmt>(St) || isa<DoStmt>(St))
      return false;
    for (const Stmt *C : St->children())
      if (hasOwnContinue(C))
        return true;
    return false;
  }

  // Reads A[NB[j*M + t]] in a neighbour loop over j, grouped by (A, NB).
  void matchNeighborReads(const Stmt *Loop, const VarDecl *J, const Expr *Bound, const Stmt *Body,
                          const std::string &LoopProblem) {
    std::vector<Site> Found; // in source order
    std::map<std::pair<ArrayRef, ArrayRef>, size_t> FoundAt;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *X) {
      if (!X || isa<LambdaExpr>(X)) // see TraverseLambdaExpr
        return;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
        ArrayRef A = elementsOf(AS);
        if (auto NI = A ? neighborIndex(AS->getIdx(), J) : std::nullopt) {
          auto Key = std::make_pair(A, NI->List);
          auto It = FoundAt.find(Key);
          if (It == FoundAt.end()) {
            It = FoundAt.emplace(Key, Found.size()).first;
            Site S;
            S.Kernel = Info.Kernel;
            S.LoopVar = J;
            S.Pattern = kPatternNeighbors;
            S.Loc = AS->getBeginLoc();
            S.Offsets = NI->List;
            S.ThreadIndex = NI->ThreadIndex;
            S.NeighborStride = NI->Stride;
            S.NeighborRowMajor = NI->RowMajor;
            S.Arrays.push_back(SiteArray{A, {}, false, "", {}});
            Found.push_back(std::move(S));
          }
          Site &S = Found[It->second];
          if (!sameThreadIndex(NI->ThreadIndex, S.ThreadIndex, W, Ctx))
            S.Arrays[0].RefusedBecause = differentThreadIndices(NI->List);
          else if (!isPlainRead(AS, Ctx) || isAnyMacro(AS))
            S.Arrays[0].RefusedBecause = "a read of " + quoted(A) + " is not a plain read outside macros";
          else
            S.Arrays[0].Reads.push_back(AS);
          Claimed.insert(AS);
        }
      }
      for (const Stmt *C : X->children())
        Walk(C);
    };
    Walk(Body);

    for (Site &S : Found) {
      if (isAnyMacro(Loop))
        S.RefusedBecause = "the loop is written through a macro";
      else if (!LoopProblem.empty())
        S.RefusedBecause = LoopProblem;
      else {
        // The bound: launch-evaluable m, or counts[t].
        const Expr *B = throughLocal(Bound, W);
        if (isLaunchEvaluable(B, W))
          S.NeighborBound = B;
        else if (auto C = asParamSubscript(B, W); C && sameThreadIndex(C->Index, S.ThreadIndex, W, Ctx))
          S.NeighborCounts = C->Array;
        else
          S.RefusedBecause = "the loop bound is neither computable from the kernel's arguments nor counts[t]";
      }
      if (S.RefusedBecause.empty())
        S.RefusedBecause = checkSite(S, Loop);
      if (S.RefusedBecause.empty())
        finishArrays(S);
      addSite(std::move(S));
    }
  }

  // A[B[t]] and A[B[C[t]]]: grouped by (A, B, C) into one site.
  void matchGather(const ArraySubscriptExpr *AS) {
    auto Inner = asParamSubscript(AS->getIdx(), W);
    if (!Inner || startsFollowedPointer(AS, W, Ctx)) // `&A[B[t]]` a pointer starts at: its reads are the reads
      return;
    ArrayRef A = elementsOf(AS);
    if (!A)
      return;
    auto R = rowOfThread(Inner->Index, W);
    // In a called function, B[i] with i a parameter the call does not give t.
    const auto *IndexRef = dyn_cast<DeclRefExpr>(strip(Inner->Index));
    const auto *IndexParam = IndexRef && Callee ? dyn_cast<ParmVarDecl>(IndexRef->getDecl()) : nullptr;
    if (!R && !mentionsBuiltinIndex(Inner->Index) && !IndexParam)
      return; // some other indirect read, e.g. x[col[k]] inside a range loop

    auto Key = std::make_tuple(A, Inner->Array, R ? R->Map : ArrayRef());
    auto It = Gathers.find(Key);
    if (It == Gathers.end()) {
      It = Gathers.emplace(Key, GatherSites.size()).first;
      Site S;
      S.Pattern = R && R->Map ? kPatternGather2 : kPatternGather;
      S.Kernel = Info.Kernel;
      S.Loc = AS->getBeginLoc();
      S.Offsets = Inner->Array;
      S.RowMap = R ? R->Map : ArrayRef();
      S.ThreadIndex = R ? R->ThreadIndex : Inner->Index;
      S.Arrays.push_back(SiteArray{A, {}, false, "", {}});
      GatherSites.push_back(std::move(S));
    }
    Site &S = GatherSites[It->second];
    if (R && R->Map) // B[C[t]] inside A[B[C[t]]] belongs to this site
      Claimed.insert(cast<ArraySubscriptExpr>(strip(AS->getIdx())));
    if (!S.RefusedBecause.empty())
      return;
    if (!R && IndexParam) {
      const Expr *Arg = Callee->argumentFor(IndexParam);
      S.RefusedBecause = "the index of " + quoted(S.Offsets) + ", " + quoted(IndexParam) +
                         ", is not the kernel's thread index" +
                         (Arg ? " (the call passes '" + spelled(Arg) + "')" : std::string());
      S.Arrays[0].Reads.push_back(AS); // its verdict says why
      return;
    }
    if (!R) {
      S.RefusedBecause = notThreadIndex(S.Offsets);
      return;
    }
    if (!sameThreadIndex(R->ThreadIndex, S.ThreadIndex, W, Ctx)) {
      S.RefusedBecause = differentThreadIndices(S.Offsets);
      return;
    }
    if (isAnyMacro(AS)) {
      S.RefusedBecause = "the read is written through a macro";
      return;
    }
    if (!isPlainRead(AS, Ctx)) {
      S.RefusedBecause = "the address of " + A.spelling() + "[" + S.Offsets.spelling() +
                         "[t]] is taken or it is written";
      return;
    }
    if (std::string Why = checkSite(S, AS); !Why.empty()) {
      S.RefusedBecause = Why;
      return;
    }
    S.Arrays[0].Reads.push_back(AS);
    if (S.Arrays[0].Reads.size() == 1) // the checks hold for every read of this A
      finishArrays(S);
  }

  std::string spelled(const Expr *E) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
                                Ctx.getLangOpts())
        .str();
  }

  KernelInfo &Info;
  ASTContext &Ctx;
  const WriteSet &W;
  const Stmt *Body;
  const BoundChain *Callee;
  const WriteSet *KernelWrites;
  std::optional<llvm::DenseMap<const ValueDecl *, size_t>> BodyRefCounts;
  // Gather sites in source order, and where each (A, B, C) is in that list.
  std::vector<Site> GatherSites;
  std::map<std::tuple<ArrayRef, ArrayRef, ArrayRef>, size_t> Gathers;
  std::set<const Expr *> Claimed; // reads that belong to a loop site
};

} // namespace

void findPatternSites(KernelInfo &Info, ASTContext &Ctx, const WriteSet &W) {
  SiteFinder Finder(Info, Ctx, W, Info.Kernel->getBody());
  replayBody(Finder, Info.Kernel->getBody(), Ctx);
  Finder.finish();
}

namespace {

// A site of a called function in the kernel's terms: its arrays the kernel's
// (or refused where an argument is no kernel array), its launch checks the kernel's.
void bindCalleeSite(Site &S, const BoundChain &B, const WriteSet &KernelWrites, ASTContext &Ctx) {
  Site::InCallee In;
  In.Chain = B.Chain;
  In.Offsets = S.Offsets;
  In.RowMap = S.RowMap;
  In.ThreadParams = B.ThreadParams;
  const std::string Function = quoted(B.Chain.callee());
  auto NotKernelArray = [&](const ArrayRef &A) { return B.unboundWhy(A, KernelWrites, Ctx); };
  auto Bind = [&](ArrayRef &A, std::string &Why) {
    if (!A)
      return;
    ArrayRef K = B.kernelArray(A);
    const OffsetBinding *View = K ? nullptr : B.viewOf(A, KernelWrites);
    if (View)
      K = View->Array;
    if (!K) {
      if (Why.empty())
        Why = NotKernelArray(A);
      return;
    }
    // The site's copies name each kernel array once, by where it starts: one
    // read through two of the function's pointers, one a view, is not named.
    for (const auto &[Named, Kernel] : In.KernelArrays)
      if (Kernel == K && Named != A && (View || In.KernelOffsets.count(K))) {
        if (Why.empty())
          Why = A.quoted() + " and " + Named.quoted() + " of " + Function + " point into " + K.quoted() +
                ", one at an offset (a site reads each kernel array from one start)";
        return;
      }
    In.KernelArrays[A] = K;
    if (View)
      In.KernelOffsets[K].assign(View->Offsets.begin(), View->Offsets.end());
    A = K;
  };
  if (S.RefusedBecause.empty() && S.Pattern == kPatternNeighbors)
    S.RefusedBecause = "neighbour-list loops in a function the kernel calls are not rewritten";
  if (S.RefusedBecause.empty())
    S.RefusedBecause = B.RefusedBecause;
  Bind(S.Offsets, S.RefusedBecause);
  Bind(S.RowMap, S.RefusedBecause);
  Bind(S.NeighborCounts, S.RefusedBecause);
  for (SiteArray &A : S.Arrays) {
    const bool WasRemapped = A.RefusedBecause.empty();
    Bind(A.Array, A.RefusedBecause);
    // Its reads stay in place, subscripted by the loop variable: keep it bound.
    if (WasRemapped && !A.RefusedBecause.empty() && !A.Reads.empty())
      S.LoopVarUsedElsewhere = true;
  }
  S.Callee = std::move(In);
  if (!S.transformable())
    return;
  std::vector<ArrayRef> Sources = S.indexArrays();
  for (const SiteArray *A : S.remappedArrays())
    Sources.push_back(A->Array);
  addAliasChecks(S, Sources, KernelWrites);
}

} // namespace

void findCalleeSites(KernelInfo &Info, ASTContext &Ctx, const WriteSet &KernelWrites,
                     const std::vector<BoundChain> &Chains) {
  for (const BoundChain &B : Chains) {
    const Stmt *Body = B.Chain.callee()->getBody();
    KernelInfo Found;
    Found.Kernel = Info.Kernel;
    SiteFinder Finder(Found, Ctx, B.Writes, Body, &B, &KernelWrites);
    replayBody(Finder, Body, Ctx);
    Finder.finish();
    for (Site &S : Found.Sites) {
      bindCalleeSite(S, B, KernelWrites, Ctx);
      Info.Sites.push_back(std::move(S));
    }
  }
}

void addAliasChecks(Site &S, const std::vector<ArrayRef> &Sources, const WriteSet &W) {
  for (const ArrayRef &Written : W.writtenArrays())
    for (const ArrayRef &Src : Sources)
      if (Written != Src && !(Written.isRestrict() && Src.isRestrict()))
        S.AliasChecks.push_back({Written, Src});
  // A __device__ variable the kernel writes may be what an array points to.
  for (const VarDecl *V : W.writtenSymbols()) {
    if (symbolSpelling(V).empty()) {
      S.RefusedBecause = "the kernel writes __device__ variable " + quoted(V) +
                         ", which its launch cannot name to check it against the arrays read";
      return;
    }
    for (const ArrayRef &Src : Sources)
      S.SymbolAliasChecks.push_back({V, Src});
  }
}

} // namespace irregfix
