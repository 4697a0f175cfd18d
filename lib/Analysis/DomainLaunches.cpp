#include "Analysis/DomainLaunches.h"
#include "Analysis/AstUtil.h"
#include "Analysis/LibraryCalls.h"
#include "Analysis/Parents.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <memory>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

std::string textOf(const Stmt *S, ASTContext &Ctx) { return spelledText(S, Ctx); }

const KernelNumbering *numberingOf(const FileDomain &D, const FunctionDecl *K) {
  if (!K)
    return nullptr;
  if (const FunctionDecl *Pattern = K->getTemplateInstantiationPattern())
    K = Pattern;
  auto It = D.Kernels.find(K->getCanonicalDecl());
  return It == D.Kernels.end() ? nullptr : &It->second;
}

// Every reference to a variable or function in the program's code, by what
// it names (functions by their first declaration), collected in one walk.
struct References : RecursiveASTVisitor<References> {
  std::map<const ValueDecl *, std::vector<const DeclRefExpr *>> To;
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBodies() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    const ValueDecl *D = R->getDecl();
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      D = F->getCanonicalDecl();
    To[D].push_back(R);
    return true;
  }
  const std::vector<const DeclRefExpr *> &of(const ValueDecl *D) const {
    static const std::vector<const DeclRefExpr *> None;
    auto It = To.find(D);
    return It == To.end() ? None : It->second;
  }
};

bool isMallocCall(const Stmt *S) {
  const auto *C = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F && F->getName().starts_with("cudaMalloc") && !F->getName().starts_with("cudaMallocHost") &&
         !F->getName().starts_with("cudaMallocManaged") && !F->getName().starts_with("cudaMallocArray");
}

bool isNullConstant(const Expr *E, ASTContext &Ctx) {
  if (const auto *List = dyn_cast<InitListExpr>(E->IgnoreParenImpCasts())) { // an array of pointers: `= {}`
    for (const Expr *I : List->inits())
      if (!isa<ImplicitValueInitExpr>(I) && !isNullConstant(I, Ctx))
        return false;
    return true;
  }
  return E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

bool isPointerArray(const VarDecl *V) {
  const auto *A = V ? dyn_cast<ConstantArrayType>(V->getType().getCanonicalType().getTypePtr()) : nullptr;
  return A && A->getElementType()->isPointerType();
}

// The variable holding the array E is: `v`, or `v[i]` of a local array of
// pointers (each its own cudaMalloc'd allocation).
const VarDecl *holder(const Expr *E) {
  if (const VarDecl *V = refToVar(E))
    return V->getType()->isPointerType() ? V : nullptr;
  const auto *AS = dyn_cast<ArraySubscriptExpr>(strip(E));
  const VarDecl *V = AS ? refToVar(AS->getBase()) : nullptr;
  return isPointerArray(V) && V->hasLocalStorage() ? V : nullptr;
}

class Domain {
public:
  Domain(DomainInputs &In, ASTContext &Ctx) : In(In), Ctx(Ctx) { Out.Kernels = std::move(In.Kernels); }

  FileDomain run() {
    for (auto [Call, Fn] : In.Launches)
      if (const KernelNumbering *K = numberingOf(Out, Call->getDirectCallee()); K && K->indifferent() && K->Graph >= 0) {
        Out.GraphKernels.push_back(K);
        if (!GraphCount && K->Count)
          GraphCount = Call->getArg(K->Count->getFunctionScopeIndex());
      }
    if (Out.GraphKernels.empty())
      return Out;
    for (auto [E, Fn] : In.Calls)
      HasMain = HasMain || (Fn && Fn->isMain());
    if (launches() && variables() && consistent())
      accesses();
    if (!Out.NoneBecause.empty()) {
      Out.Launches.clear();
      Out.Accesses.clear();
    }
    return std::move(Out);
  }

private:
  bool none(const Expr *At, std::string Why) {
    Out.NoneBecause = std::move(Why);
    Out.NoneAt = At;
    return false;
  }

  bool launches() {
    for (auto [Call, Fn] : In.Launches) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return none(Call, "a launch whose kernel the tool cannot resolve");
      const KernelNumbering *K = numberingOf(Out, Callee);
      if (!K)
        continue; // its body is elsewhere: every copy is dropped before it, every array restored
      DomainLaunch L;
      L.Call = Call;
      L.Kernel = K;
      if (K->Count && K->Count->getFunctionScopeIndex() < Call->getNumArgs())
        L.Count = Call->getArg(K->Count->getFunctionScopeIndex());
      for (const NumberingParam &P : K->Pointers) {
        const unsigned I = P.Param->getFunctionScopeIndex();
        if (I >= Call->getNumArgs())
          return none(Call, "a launch with default arguments");
        const Expr *A = Call->getArg(I);
        if (A->HasSideEffects(Ctx))
          return none(A, "a launch's argument '" + textOf(A, Ctx) + "' has side effects");
        L.Pointers.push_back(A);
        if (!K->indifferent() || !(P.Role & (kRoleElements | kRoleNumbers | kRoleRows | kRoleSegments)))
          continue;
        const VarDecl *V = holder(A);
        if (!V)
          return none(A, "'" + Callee->getNameAsString() + "' gets '" + textOf(A, Ctx) +
                             "', not a variable holding its array");
        if (Seen.insert(V).second)
          Out.Arrays.push_back(V);
      }
      if (L.Count && L.Count->HasSideEffects(Ctx))
        return none(L.Count, "a launch's argument '" + textOf(L.Count, Ctx) + "' has side effects");
      if (K->indifferent() && K->Lanes > 1 && !blocksOfWholeGroups(Call, K->Lanes, K->LanesInX))
        return none(Call, "'" + Callee->getNameAsString() + "' runs " + std::to_string(K->Lanes) +
                              " lanes a row, and this launch's blocks are not " +
                              (K->LanesInX ? "a constant " : "a constant multiple of ") +
                              std::to_string(K->Lanes) + " threads in x" +
                              (K->LanesInX ? " (its lanes are threadIdx.x, a row each threadIdx.y)" : ""));
      Out.Launches.push_back(std::move(L));
    }
    return true;
  }

  // Each variable holds its own cudaMalloc'd memory and reaches device memory
  // only through hooked calls and launches.
  bool variables() {
    // A parameter's arrays are its callers' arguments: followed through the
    // file's calls, until no new variable comes.
    std::set<const VarDecl *> Checked;
    size_t Added = Out.Arrays.size(); // the variables of this round: their uses are checked once
    for (size_t Round = 0; Round < 8; ++Round) {
      const size_t Before = Out.Arrays.size();
      for (size_t I = 0; I < Out.Arrays.size(); ++I) {
        const VarDecl *V = Out.Arrays[I];
        if (!Checked.insert(V).second)
          continue;
        if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
          if (!callers(P))
            return false;
          continue;
        }
        if (!V->hasLocalStorage() && V->isExternallyVisible())
          return none(nullptr, "'" + V->getNameAsString() + "' is a global other files may use");
        if (V->getInit() && !isNullConstant(V->getInit(), Ctx))
          return none(V->getInit(), "'" + V->getNameAsString() + "' is initialised with '" +
                                        textOf(V->getInit(), Ctx) + "', not by cudaMalloc");
      }
      for (size_t I = Before - Added; I < Before; ++I)
        for (const DeclRefExpr *R : refs().of(Out.Arrays[I]))
          if (!allowedUse(R))
            return false;
      if (Out.Arrays.size() == Before)
        return true;
      Added = Out.Arrays.size() - Before;
    }
    return none(nullptr, "its arrays pass through too many functions");
  }

  void add(const VarDecl *V) {
    if (Seen.insert(V).second)
      Out.Arrays.push_back(V);
  }

  // Every call of P's function is in the file and passes a variable there.
  bool callers(const ParmVarDecl *P) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
    const std::string Name = "'" + P->getNameAsString() + "'";
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
    const bool Lambda = Method && Method->getParent()->isLambda();
    if (!F || !In.InFiles(F) || F->isTemplated() || (Method && !Lambda))
      return none(nullptr, Name + " comes in as a parameter of a function the tool does not follow");
    if (Lambda && !onlyCalled(Method))
      return none(nullptr, Name + " comes in as a parameter of a lambda that is stored or passed on");
    if (F->isExternallyVisible() && !F->isMain() && !HasMain)
      return none(nullptr, Name + " comes in as a parameter of '" + F->getNameAsString() +
                               "', which other files may call");
    const unsigned Index = P->getFunctionScopeIndex();
    unsigned Calls = 0;
    for (auto [E, Fn] : In.Calls) {
      const auto *C = dyn_cast<CallExpr>(E);
      const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
      if (!Callee || Callee->getCanonicalDecl() != F->getCanonicalDecl())
        continue;
      ++Calls;
      const std::vector<const Expr *> Args = callArguments(C, Callee);
      const VarDecl *A = Index < Args.size() ? refToVar(Args[Index]) : nullptr;
      if (!A || !A->getType()->isPointerType())
        return none(C, Name + " is given '" + (Index < Args.size() ? textOf(Args[Index], Ctx) : "") +
                           "', not a variable holding an array");
      add(A);
    }
    if (Calls == 0)
      return none(nullptr, Name + " comes in as a parameter of '" + F->getNameAsString() +
                               "', which the file never calls");
    // Its address taken, the function may be called where the tool does not see.
    for (const DeclRefExpr *R : refs().of(F->getCanonicalDecl())) {
      const Stmt *Up = parentStmt(R, Ctx);
      while (Up && isa<ImplicitCastExpr>(Up))
        Up = parentStmt(Up, Ctx);
      const auto *C = dyn_cast_or_null<CallExpr>(Up);
      if (!C || C->getDirectCallee() != F)
        return none(R, "'" + F->getNameAsString() + "' is used other than by a call");
    }
    return true;
  }

  // `for (T *p : v) cudaFree(p);` over an array of pointers: Range is the
  // loop's hidden range variable, and its element is only freed.
  bool onlyFreedInLoop(const VarDecl *Range) {
    const CXXForRangeStmt *Loop = nullptr;
    for (auto Parents = parentsOf(*Range, Ctx); !Parents.empty(); Parents = parentsOf(Parents[0], Ctx)) {
      if ((Loop = Parents[0].get<CXXForRangeStmt>()))
        break;
      if (!Parents[0].get<DeclStmt>())
        return false;
    }
    if (!Loop || Loop->getRangeStmt() == nullptr || !Loop->getLoopVariable())
      return false;
    for (const DeclRefExpr *R : refs().of(Loop->getLoopVariable())) {
      const Stmt *Up = parentStmt(R, Ctx);
      while (Up && isa<ImplicitCastExpr>(Up))
        Up = parentStmt(Up, Ctx);
      const auto *C = dyn_cast_or_null<CallExpr>(Up);
      const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
      if (!F || (F->getName() != "cudaFree" && F->getName() != "irregfix_release"))
        return false;
    }
    return true;
  }

  // Whether a lambda is only called where it is defined: every variable
  // holding it is used only as the object of a call (a lambda stored or
  // passed on may be called with arrays the tool does not see).
  bool onlyCalled(const CXXMethodDecl *Call) {
    const CXXRecordDecl *Closure = Call->getParent();
    for (const auto &[D, Uses] : refs().To) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || V->getType()->getAsCXXRecordDecl() != Closure)
        continue;
      for (const DeclRefExpr *R : Uses) {
        const Stmt *Up = parentStmt(R, Ctx);
        while (Up && isa<ImplicitCastExpr>(Up))
          Up = parentStmt(Up, Ctx);
        const auto *C = dyn_cast_or_null<CXXOperatorCallExpr>(Up);
        if (!C || C->getNumArgs() == 0 || strip(C->getArg(0)) != R)
          return false;
      }
    }
    return true;
  }

  // Whether a launch's blocks have a constant multiple of G threads in x (a
  // group of lanes then lies in one warp, whichever row it takes): an
  // integer constant, `dim3(C, ...)`, or a local dim3 made so and used only
  // in launch configurations. Exactly G where the group is a block's row of
  // threads in x (Exact).
  bool blocksOfWholeGroups(const CUDAKernelCallExpr *Call, unsigned G, bool Exact) {
    const CallExpr *Config = Call->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return false;
    const Expr *X = blockX(Config->getArg(1), 0);
    std::optional<llvm::APSInt> V = X ? X->getIntegerConstantExpr(Ctx) : std::nullopt;
    return V && V->isStrictlyPositive() && V->getActiveBits() <= 32 &&
           (Exact ? V->getZExtValue() == G : V->getZExtValue() % G == 0);
  }
  const Expr *blockX(const Expr *E, int Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(C->getArg(0)))
        return nullptr;
      return Depth < 4 ? blockX(C->getArg(0), Depth + 1) : nullptr;
    }
    if (E->getType()->isIntegerType())
      return E;
    const VarDecl *V = refToVar(E);
    if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() || Depth >= 4)
      return nullptr;
    for (const DeclRefExpr *R : refs().of(V)) {
      const Stmt *Cur = R, *P = parentStmt(R, Ctx);
      while (P && (isa<ImplicitCastExpr>(P) || isa<CXXConstructExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
                   isa<CXXBindTemporaryExpr>(P) || isa<ParenExpr>(P)))
        Cur = P, P = parentStmt(P, Ctx);
      const auto *Config = dyn_cast_or_null<CallExpr>(P);
      const auto *Launch = Config ? dyn_cast_or_null<CUDAKernelCallExpr>(parentStmt(Config, Ctx)) : nullptr;
      if (!Launch || Launch->getConfig() != Config || !llvm::is_contained(Config->arguments(), Cur))
        return nullptr; // used otherwise: its x may change
    }
    return blockX(V->getInit(), Depth + 1);
  }

  const References &refs() {
    if (!Refs) {
      Refs = std::make_unique<References>();
      Refs->TraverseAST(Ctx);
    }
    return *Refs;
  }

  bool allowedUse(const DeclRefExpr *R) {
    const auto *V = cast<VarDecl>(R->getDecl());
    const Stmt *Cur = R;
    for (int Depth = 0; Depth < 12; ++Depth) {
      const Stmt *P = parentStmt(Cur, Ctx);
      if (!P) {
        auto Parents = parentsOf(*Cur, Ctx);
        const auto *Into = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
        if (Into && isPointerArray(V) && onlyFreedInLoop(Into))
          return true;
        if (Into)
          return none(R, "'" + V->getNameAsString() + "' is copied into '" + Into->getNameAsString() + "'");
        return none(R, "'" + V->getNameAsString() + "' is used where the tool cannot follow it");
      }
      if (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) || isa<CStyleCastExpr>(P) || isa<CXXStaticCastExpr>(P) ||
          isa<CXXReinterpretCastExpr>(P)) {
        Cur = P;
        continue;
      }
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P); AS && isPointerArray(V) && AS->getBase() == Cur) {
        Cur = P; // one of the array's pointers, used as a variable of its own would be
        continue;
      }
      if (const auto *U = dyn_cast<UnaryOperator>(P)) {
        if (U->getOpcode() == UO_AddrOf) {
          // &V: only to cudaMalloc, which gives it its memory.
          const Stmt *Q = U;
          for (int D = 0; D < 6; ++D) {
            const Stmt *PQ = parentStmt(Q, Ctx);
            if (!PQ)
              break;
            if (isMallocCall(PQ))
              return true;
            if (!isa<ParenExpr>(PQ) && !isa<ImplicitCastExpr>(PQ) && !isa<CStyleCastExpr>(PQ) &&
                !isa<CXXReinterpretCastExpr>(PQ) && !isa<CXXStaticCastExpr>(PQ))
              break;
            Q = PQ;
          }
          return none(R, "the address of '" + V->getNameAsString() + "' is taken other than by cudaMalloc");
        }
        if (U->getOpcode() == UO_LNot)
          return true;
        return none(R, "'" + V->getNameAsString() + "' is used in '" + textOf(P, Ctx) + "'");
      }
      if (const auto *B = dyn_cast<BinaryOperator>(P)) {
        if (B->isComparisonOp() || B->isLogicalOp())
          return true;
        if (B->getOpcode() == BO_Assign && B->getLHS() == Cur) {
          if (isNullConstant(B->getRHS(), Ctx))
            return true;
          return none(B, "'" + V->getNameAsString() + "' is assigned '" + textOf(B->getRHS(), Ctx) + "'");
        }
        if (B->isAdditiveOp() && B->getType()->isPointerType()) { // V + offset, inside a call's argument
          Cur = P;
          continue;
        }
        return none(B, "'" + V->getNameAsString() + "' is used in '" + textOf(B, Ctx) + "'");
      }
      if (isa<CUDAKernelCallExpr>(P))
        return true; // a launch's argument (hooked), or its configuration
      if (const auto *C = dyn_cast<CallExpr>(P)) {
        const FunctionDecl *F = C->getDirectCallee();
        if (F && In.InFiles(F)) {
          // Passed as it is to a function of the file: its parameter is followed.
          const std::vector<const Expr *> Args = callArguments(C, F);
          for (unsigned I = 0; I < Args.size() && I < F->getNumParams(); ++I)
            if (refToVar(Args[I]) == V) {
              add(F->getParamDecl(I));
              return true;
            }
          return none(C, "'" + V->getNameAsString() + "' is passed to '" + F->getNameAsString() +
                             "' in an expression");
        }
        // A library that may keep the pointer (cuBLAS, cuSPARSE's descriptors,
        // Thrust) could read it later, unhooked.
        if (F && isLibraryFunction(F, Ctx.getSourceManager()) &&
            classifyLibraryCall(F, Ctx.getSourceManager()).Kind == LibraryKind::WritesPointerArgs)
          return none(C, "'" + V->getNameAsString() + "' is given to '" + F->getNameAsString() + "', a library");
        return true; // a copy's argument (hooked), or unseen code's (bracketed: everything restored)
      }
      if (isa<IfStmt>(P) || isa<WhileStmt>(P) || isa<ConditionalOperator>(P))
        return true; // a test against null
      return none(R, "'" + V->getNameAsString() + "' is used in '" + textOf(P, Ctx) + "'");
    }
    return none(R, "'" + V->getNameAsString() + "' is used too deep in an expression");
  }

  // Over the launches of the domain's thread count, each variable in one role:
  // an array kept renumbered by one launch and restored by the next would move
  // at every launch.
  bool consistent() {
    const std::string Count = GraphCount ? textOf(GraphCount, Ctx) : "";
    for (const VarDecl *V : Out.Arrays) {
      unsigned Role = 0;
      for (const DomainLaunch &L : Out.Launches) {
        if (!L.Kernel->indifferent() || !L.Count || textOf(L.Count, Ctx) != Count)
          continue;
        for (size_t I = 0; I < L.Pointers.size(); ++I) {
          if (holder(L.Pointers[I]) != V || L.Kernel->Pointers[I].Role == kRoleNone)
            continue;
          const unsigned R = L.Kernel->Pointers[I].Role;
          if (Role && R != Role)
            return none(L.Call, "'" + V->getNameAsString() + "' would be renumbered one way and read another by '" +
                                    L.Kernel->Kernel->getNameAsString() + "'");
          Role = R;
        }
      }
    }
    return true;
  }

  void accesses() {
    const SourceManager &SM = Ctx.getSourceManager();
    for (auto [E, Fn] : In.Calls) {
      const auto *C = dyn_cast<CallExpr>(E);
      if (!C || isa<CUDAKernelCallExpr>(C))
        continue;
      const FunctionDecl *F = C->getDirectCallee();
      if (!F || In.InFiles(F) || !isLibraryFunction(F, SM))
        continue;
      const LibraryKind Kind = classifyLibraryCall(F, SM).Kind;
      if (Kind != LibraryKind::CopiesInto && Kind != LibraryKind::CopiesToSymbol)
        continue; // frees (released), bracketed calls (they restore everything), or no device memory
      // Only the variables' arrays can be renumbered (variables() holds them to that).
      HostAccess A;
      A.Call = C;
      for (const Expr *Arg : C->arguments()) {
        if (!mentionsArray(Arg))
          continue;
        if (Arg->HasSideEffects(Ctx))
          A.All = true;
        else
          A.Pointers.push_back(Arg);
      }
      if (A.All)
        A.Pointers.clear();
      if (A.All || !A.Pointers.empty())
        Out.Accesses.push_back(std::move(A));
    }
  }

  bool mentionsArray(const Stmt *S) const {
    if (const auto *R = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && Seen.count(V))
        return true;
    for (const Stmt *C : S->children())
      if (C && mentionsArray(C))
        return true;
    return false;
  }

  DomainInputs &In;
  ASTContext &Ctx;
  FileDomain Out;
  const Expr *GraphCount = nullptr;
  std::set<const VarDecl *> Seen;
  bool HasMain = false;
  std::unique_ptr<References> Refs; // walked once, when a variable's uses are first checked
};

} // namespace

FileDomain analyzeFileDomain(DomainInputs In, ASTContext &Ctx) { return Domain(In, Ctx).run(); }

} // namespace irregfix
