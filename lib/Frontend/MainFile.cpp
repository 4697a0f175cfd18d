#include "Frontend/MainFile.h"
#include "Analysis/RunTimeCode.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace irregfix {

namespace {

bool isHostCode(const FunctionDecl *F) {
  return !F || !(F->hasAttr<CUDAGlobalAttr>() || (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>()));
}

bool explicitlyAnnotated(const FunctionDecl *F) {
  const auto *D = F->getAttr<CUDADeviceAttr>();
  const auto *H = F->getAttr<CUDAHostAttr>();
  return (D && !D->isImplicit()) || (H && !H->isImplicit());
}

// The function whose text holds F's body: the template F was instantiated from.
const FunctionDecl *textOf(const FunctionDecl *F) {
  if (!F)
    return F;
  if (const FunctionDecl *P = F->getTemplateInstantiationPattern())
    return P;
  return F;
}

std::pair<unsigned, unsigned> rangeKey(const Expr *E) {
  return {E->getBeginLoc().getRawEncoding(), E->getEndLoc().getRawEncoding()};
}

// A call whose callee or arguments depend on a template parameter: only its
// instantiations say what it calls.
bool unresolved(const Expr *Call) { return Call->isInstantiationDependent(); }

// Kernels, launches and host calls of the rewritable files. Walks the text
// (patterns) and, separately, the instantiations of templates and generic lambdas.
class Collector : public RunTimeCodeVisitor<Collector> {
  using Base = RunTimeCodeVisitor<Collector>;

public:
  Collector(const RewritableFiles &Files, MainFile &Out) : Files(Files), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (!F)
      return Base::TraverseDecl(D);
    Frame Saved = Cur;
    Cur.Fn = F;
    Cur.Instance = Cur.Instance || F->isTemplateInstantiation();
    // A device function notes no call (none of its code runs on the host)
    // unless a lambda or a class it defines may: its body, often most of the
    // program's statements, is not walked.
    bool R = !isHostCode(F) && !bodyDefinesCode(F) ? VisitFunctionDecl(F) : Base::TraverseDecl(D);
    Cur = Saved;
    return R;
  }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    Frame Saved = Cur;
    if (Cur.Fn)
      Enclosing[L->getCallOperator()] = Cur.Fn;
    Cur.Fn = L->getCallOperator();
    bool R = Base::TraverseLambdaExpr(L);
    // A generic lambda's bodies for the argument types it is called with.
    if (const FunctionTemplateDecl *T = L->getDependentCallOperator())
      for (FunctionDecl *S : T->specializations()) {
        Cur.Fn = S;
        Cur.Instance = true;
        Enclosing[S] = Saved.Fn;
        if (S->hasBody())
          R = R && TraverseStmt(S->getBody());
      }
    Cur = Saved;
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!Cur.Instance && F->hasAttr<CUDAGlobalAttr>() && F->doesThisDeclarationHaveABody() &&
        Files.contains(F->getLocation()))
      Out.Kernels.push_back(F);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    // A launch's <<<...>>> is a call of the runtime's configuration function in
    // the AST, not one in the text: the launch stands for it.
    if (auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call))
      Configs.insert(Launch->getConfig());
    if (Configs.count(Call))
      return true;
    if (inHostFunction() && Files.contains(Call->getBeginLoc())) // the cheaper test first
      note(Call);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (inHostFunction() && Files.contains(C->getBeginLoc()))
      note(C);
    return true;
  }

private:
  struct Frame {
    const FunctionDecl *Fn = nullptr;
    bool Instance = false; // inside a template instantiation
  };

  void note(Expr *Call) {
    if (Cur.Instance) {
      Out.Instantiated[rangeKey(Call)].push_back(Call);
      InstanceCalls.push_back({Call, Cur.Fn});
      return;
    }
    if (auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call))
      Out.Launches.push_back({Launch, Cur.Fn});
    Out.Calls.push_back({Call, Cur.Fn});
  }

  // Whether F's body defines code (definesCode). An instantiation's body
  // mirrors its pattern's: where the pattern's defines none, neither does it
  // (each of a template's instantiations is not walked again).
  bool bodyDefinesCode(const FunctionDecl *F) {
    if (const FunctionDecl *P = F->isTemplateInstantiation() ? F->getTemplateInstantiationPattern() : nullptr;
        P && P != F && P->getBody()) {
      auto [It, New] = PatternDefinesCode.try_emplace(P, false);
      if (New)
        It->second = definesCode(P->getBody());
      if (!It->second)
        return false;
    }
    return definesCode(F->getBody());
  }

  // Whether S defines a function of its own (a lambda, a local class, a block),
  // or has a type that may hold one: what may run where S's function does not.
  static bool definesCode(const Stmt *Body) {
    llvm::SmallVector<const Stmt *, 64> Work{Body};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (isa<LambdaExpr>(S) || isa<BlockExpr>(S) || isa<UnaryExprOrTypeTraitExpr>(S) || isa<CXXTypeidExpr>(S) ||
          isa<CXXUuidofExpr>(S))
        return true;
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (!isa<VarDecl>(D))
            return true;
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
    return false;
  }

  // Inside a function body that runs on the host (an unannotated lambda runs
  // where the function that defines it runs).
  bool inHostFunction() const {
    const FunctionDecl *F = Cur.Fn;
    if (!F)
      return false; // a global initialiser: runs before anything is cached
    while (const auto *M = dyn_cast<CXXMethodDecl>(F)) {
      if (!M->getParent()->isLambda() || explicitlyAnnotated(M))
        break;
      auto It = Enclosing.find(F);
      if (It == Enclosing.end() || !It->second)
        break;
      F = It->second;
    }
    return isHostCode(F);
  }

  const RewritableFiles &Files;
  MainFile &Out;
  Frame Cur;
  std::map<const FunctionDecl *, const FunctionDecl *> Enclosing; // lambda -> where it is defined
  llvm::DenseMap<const FunctionDecl *, bool> PatternDefinesCode;  // bodyDefinesCode's patterns
  std::set<const Expr *> Configs; // the <<<...>>> of launches

public:
  // Calls of instantiations with their (instantiated) function, for reachability.
  std::vector<std::pair<const Expr *, const FunctionDecl *>> InstanceCalls;
};

HostEffect effectOf(const Expr *Call, HostWriteAnalysis &Host) {
  return isa<CallExpr>(Call) ? Host.ofCall(cast<CallExpr>(Call)) : Host.ofConstruct(cast<CXXConstructExpr>(Call));
}

void merge(HostEffect &Into, HostEffect From) {
  for (WriteTarget &T : From.Targets)
    Into.Targets.push_back(std::move(T));
  Into.Frees |= From.Frees;
  if (Into.Drop == DropCause::None) {
    Into.Drop = From.Drop;
    Into.Why = std::move(From.Why);
  }
  Into.RunsUnseenCode |= From.RunsUnseenCode;
}

} // namespace

MainFile collectMainFile(ASTContext &Ctx, const RewritableFiles &Files) {
  MainFile Out;
  Collector C(Files, Out);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  // A call of a template's text that is not instantiation-dependent is the same
  // call in every instantiation: the text's is enough.
  std::set<std::pair<unsigned, unsigned>> Resolved;
  for (auto &[Call, Fn] : Out.Calls)
    if (!unresolved(Call))
      Resolved.insert(rangeKey(Call));
  for (auto It = Out.Instantiated.begin(); It != Out.Instantiated.end();)
    It = Resolved.count(It->first) ? Out.Instantiated.erase(It) : std::next(It);
  // Unresolved calls the text does not show as calls (T(x), obj.f() on a
  // dependent object) still run in the instantiations: keep one of each.
  std::set<std::pair<unsigned, unsigned>> InText;
  for (auto &[Call, Fn] : Out.Calls)
    InText.insert(rangeKey(Call));
  for (auto &[Key, Calls] : Out.Instantiated)
    if (!InText.count(Key))
      Out.Calls.push_back({Calls.front(), nullptr});
  Out.InstanceCalls = std::move(C.InstanceCalls);
  return Out;
}

std::vector<const Expr *> instantiationsOf(const MainFile &File, const Expr *Call) {
  auto It = File.Instantiated.find(rangeKey(Call));
  return It == File.Instantiated.end() ? std::vector<const Expr *>() : It->second;
}

HostEffect effectOfCall(const MainFile &File, const Expr *Call, HostWriteAnalysis &Host) {
  auto It = File.Instantiated.find(rangeKey(Call));
  if (It == File.Instantiated.end())
    return unresolved(Call) ? HostEffect() : effectOf(Call, Host); // unresolved and never instantiated: never runs
  HostEffect E;
  for (const Expr *I : It->second)
    merge(E, effectOf(I, Host));
  // One invalidation per text: the targets of several instantiations are spelled alike.
  std::vector<WriteTarget> Unique;
  std::set<std::pair<unsigned, std::string>> Seen;
  for (WriteTarget &T : E.Targets) {
    std::pair<unsigned, std::string> K{T.Arg ? T.Arg->getBeginLoc().getRawEncoding() : 0,
                                       T.Symbol ? T.Symbol->getQualifiedNameAsString() : T.Member};
    if (Seen.insert(K).second)
      Unique.push_back(std::move(T));
  }
  E.Targets = std::move(Unique);
  return E;
}

std::vector<const FunctionDecl *> functionsReaching(const MainFile &File,
                                                    const std::set<const FunctionDecl *> &UsesCache,
                                                    const HostWriteAnalysis &Host) {
  std::map<const FunctionDecl *, std::set<const FunctionDecl *>> Callers; // callee -> callers, as texts
  auto Edge = [&](const FunctionDecl *From, const FunctionDecl *To) {
    if (!From || !To || !Host.rewritten(To))
      return;
    Callers[textOf(To->getDefinition())].insert(textOf(From));
  };
  auto Calls = File.Calls;
  for (auto &C : File.InstanceCalls)
    Calls.push_back(C);
  for (auto [Call, Fn] : Calls) {
    if (const auto *CE = dyn_cast<CallExpr>(Call)) {
      Edge(Fn, CE->getDirectCallee());
      for (const Expr *Arg : CE->arguments()) { // a lambda handed to std::for_each and the like
        const Expr *E = strip(Arg);
        if (const auto *DR = dyn_cast<DeclRefExpr>(E))
          if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasInit())
            E = strip(V->getInit());
        if (const auto *L = dyn_cast<LambdaExpr>(E))
          Edge(Fn, L->getCallOperator());
      }
    } else if (const auto *CC = dyn_cast<CXXConstructExpr>(Call)) {
      Edge(Fn, CC->getConstructor());
    }
  }
  std::set<const FunctionDecl *> Reach;
  std::vector<const FunctionDecl *> Work;
  for (const FunctionDecl *F : UsesCache)
    if (F && Reach.insert(textOf(F)).second)
      Work.push_back(textOf(F));
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    auto It = Callers.find(F);
    if (It == Callers.end())
      continue;
    for (const FunctionDecl *Caller : It->second)
      if (Reach.insert(Caller).second)
        Work.push_back(Caller);
  }
  std::vector<const FunctionDecl *> Out(Reach.begin(), Reach.end());
  const SourceManager &SM = Host.context().getSourceManager();
  std::sort(Out.begin(), Out.end(), [&](const FunctionDecl *A, const FunctionDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  return Out;
}

} // namespace irregfix
