#include "Analysis/Hoistability.h"
#include "Analysis/Calls.h"
#include "Analysis/KernelWalk.h"
#include "Analysis/Parents.h"
#include "Analysis/WriteSet.h"
#include "Analysis/AstUtil.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <functional>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

// Why statements (and the functions they call) cannot run more than once or
// from the host.
class Judge : public KernelJudge {
public:
  // The code before the loop, the loop, the whole kernel (and, from the loop,
  // the functions it calls).
  enum Part { Prefix, Loop, Kernel };
  explicit Judge(Part Where) : Where(Where) {}

  std::string statement(const Stmt *S, const WalkPlace &At) override {
    if (isa<BreakStmt>(S) && Where == Loop && !At.Callee)
      return "the loop contains 'break'";
    if (isa<ReturnStmt>(S) && Where == Loop && !At.Callee)
      return "the loop contains 'return'";
    if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
      return "the kernel contains 'goto'";
    if (isa<AsmStmt>(S))
      return here(At) + " contains inline assembly";
    // Before the loop: a store to anything but a local is a side effect that
    // every launch would repeat.
    if (Where == Prefix)
      if (const Expr *W = writtenLvalue(S)) {
        const VarDecl *V = lvalueVariable(W);
        if (!V || !V->isLocalVarDecl() || V->getType()->isReferenceType())
          return "the code before the loop stores to memory";
      }
    return "";
  }

  std::string variable(const VarDecl *V, const WalkPlace &) override {
    if (V->hasAttr<CUDASharedAttr>())
      return "the kernel uses shared memory (" + quoted(V) + ")";
    return "";
  }

  std::string call(const CallExpr *, CallKind Kind, const FunctionDecl *F, const WalkPlace &At,
                   bool &Follow) override {
    if (Kind == CallKind::Indirect)
      return here(At) + " makes an indirect call";
    if (cooperativeCall(F))
      return here(At) + " calls " + quoted(F);
    if (Where == Kernel)
      return ""; // elsewhere in the kernel, only barriers matter
    // Math and other library functions: no side effects, and no cooperation
    // beyond the names above.
    if (Kind == CallKind::Library || F->isTrivial())
      return "";
    if (Where == Prefix)
      return "the code before the loop calls " + quoted(F) + ", which may have side effects";
    if (Kind == CallKind::Unseen || !F->getDefinition()->hasBody())
      return "the loop calls " + quoted(F) + ", whose body the analysis cannot see";
    Follow = true;
    return "";
  }

private:
  std::string here(const WalkPlace &At) const {
    if (At.Callee)
      return "a function the loop calls";
    switch (Where) {
    case Prefix:
      return "the code before the loop";
    case Loop:
      return "the loop";
    case Kernel:
      break;
    }
    return "the kernel";
  }

  Part Where;
};

// Every read through a pointer in S: the arrays it may read.
void arraysRead(const Stmt *S, const WriteSet &Writes, std::vector<std::pair<ArrayRef, const Expr *>> &Out) {
  if (!S)
    return;
  const Expr *Base = nullptr;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(S))
    Base = A->getBase();
  else if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
    Base = U->getSubExpr();
  else if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
    Base = M->getBase();
  if (Base)
    if (ArrayRef A = WriteSet::pointerBase(Base, &Writes))
      Out.push_back({A, cast<Expr>(S)});
  for (const Stmt *C : S->children())
    arraysRead(C, Writes, Out);
}

class Analysis {
public:
  Analysis(const KernelInfo &Info, ASTContext &Ctx, Hoisting &H) : Info(Info), Ctx(Ctx), H(H) {}

  std::string run() {
    if (Info.Template || Info.Kernel->isTemplateInstantiation())
      return "it is a template";
    const Site *S = nullptr;
    for (unsigned I = 0; I < Info.Sites.size(); ++I)
      if (Info.Sites[I].transformable()) {
        if (S)
          return "it has more than one transformed site";
        S = &Info.Sites[I];
        H.SiteIndex = I;
      }
    if (!S)
      return "it has no transformed site";
    if (S->Callee)
      return "its site is in a function the kernel calls";
    if (S->Pattern != kPatternRange && S->Pattern != kPatternRange2 && S->Pattern != kPatternNeighbors)
      return std::string("its site is a ") + pattern_name(S->Pattern) + ", which has no loop";
    if (std::string Why = findLoop(*S); !Why.empty())
      return Why;
    if (std::string Why = enclosing(H.Loop); !Why.empty())
      return Why;

    // The whole kernel: no goto, shared memory, barriers or inline assembly.
    const SourceManager &SM = Ctx.getSourceManager();
    Judge Whole(Judge::Kernel), InLoop(Judge::Loop), Before(Judge::Prefix);
    if (std::string Why = walkCode({Info.Kernel->getBody()}, Whole, SM); !Why.empty())
      return Why;
    if (std::string Why = walkCode({H.Loop}, InLoop, SM); !Why.empty())
      return Why;
    if (std::string Why = walkCode(Prefix, Before, SM); !Why.empty())
      return Why;

    const WriteSet &Writes = Info.Writes;
    if (Writes.hasUntracedWrite())
      return "the kernel may write memory the analysis cannot name: " + Writes.untracedWhy();
    std::vector<std::pair<ArrayRef, const Expr *>> Reads;
    for (const Stmt *P : Prefix)
      arraysRead(P, Writes, Reads);
    arraysRead(H.Loop, Writes, Reads);
    for (auto &[A, E] : Reads)
      if (Writes.writesThrough(A))
        return "it reads " + A.quoted() + " before or in the loop, and writes it";
    return liveVariables(*S);
  }

private:
  // The site's loop: a range site's own; for a neighbour site, the loop around
  // its first read whose header declares the loop variable.
  std::string findLoop(const Site &S) {
    if (S.Loop) {
      H.Loop = S.Loop;
      return "";
    }
    const Stmt *At = nullptr;
    for (const SiteArray *A : S.remappedArrays())
      if (!A->Reads.empty())
        At = A->Reads.front();
    while (At) {
      At = parentStatement(At);
      if (isa_and_nonnull<WhileStmt, DoStmt>(At))
        return "its loop is not a 'for' loop";
      if (const auto *For = dyn_cast_or_null<ForStmt>(At)) {
        const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
        if (Init && Init->isSingleDecl() && Init->getSingleDecl() == S.LoopVar) {
          H.Loop = For;
          return "";
        }
        if (const auto *B = dyn_cast_or_null<BinaryOperator>(For->getInit()); B && lvalueVariable(B->getLHS()) == S.LoopVar)
          return "the loop variable is declared outside the loop";
      }
    }
    return "its loop cannot be found";
  }

  // The statement holding S, through the declaration an initialiser belongs to.
  const Stmt *parentStatement(const Stmt *S) {
    DynTypedNodeList Parents = parentsOf(*S, Ctx);
    while (Parents.size() == 1) {
      if (const Stmt *P = Parents[0].get<Stmt>())
        return P;
      const Decl *D = Parents[0].get<Decl>();
      if (!D || !isa<VarDecl>(D))
        return nullptr;
      Parents = parentsOf(*D, Ctx);
    }
    return nullptr;
  }

  // Climbs from the loop to the kernel body, collecting the code before the
  // loop (Prefix, the locals it declares) and the compound statements around it.
  std::string enclosing(const Stmt *Loop) {
    const Stmt *Child = Loop;
    const Stmt *Body = Info.Kernel->getBody();
    while (Child != Body) {
      auto Parents = parentsOf(*Child, Ctx);
      const Stmt *P = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
      if (!P)
        return "the loop's place in the kernel cannot be followed";
      if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
        H.Enclosing.push_back({CS, Child});
        for (const Stmt *Before : CS->body()) {
          if (Before == Child)
            break;
          Prefix.push_back(Before);
          if (const auto *DS = dyn_cast<DeclStmt>(Before))
            for (const Decl *D : DS->decls())
              if (const auto *V = dyn_cast<VarDecl>(D))
                Declared.insert(V);
        }
      } else if (const auto *If = dyn_cast<IfStmt>(P)) {
        if (If->getElse())
          return "the loop is in an 'if' with an 'else' branch";
        if (If->isConsteval())
          return "the loop is in an 'if consteval'";
        for (const Stmt *Part : {If->getInit(), static_cast<const Stmt *>(If->getConditionVariableDeclStmt()),
                                 static_cast<const Stmt *>(If->getCond())})
          if (Part)
            Prefix.push_back(Part);
        if (const VarDecl *V = If->getConditionVariable())
          Declared.insert(V);
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

  // The locals declared before the loop that it modifies, and whether each can
  // be carried in a buffer.
  std::string liveVariables(const Site &S) {
    std::set<const VarDecl *> Modified;
    std::string Why;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
      if (!St || !Why.empty())
        return;
      if (const Expr *W = writtenLvalue(St))
        if (const VarDecl *V = lvalueVariable(W); V && V != S.LoopVar) {
          if (isa<ParmVarDecl>(V))
            Why = "the loop modifies the parameter " + quoted(V);
          else if (Declared.count(V))
            Modified.insert(V);
        }
      for (const Stmt *C : St->children())
        Walk(C);
    };
    Walk(H.Loop);
    if (!Why.empty())
      return Why;
    for (const VarDecl *V : Modified)
      if (std::string W = carriable(V); !W.empty())
        return W;
    H.Live.assign(Modified.begin(), Modified.end());
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::sort(H.Live, [&](const VarDecl *A, const VarDecl *B) {
      return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
    });
    return "";
  }

  std::string carriable(const VarDecl *V) {
    QualType T = V->getType();
    std::string Name = "the live variable " + quoted(V);
    if (T->isReferenceType())
      return Name + " is a reference";
    if (T->isArrayType())
      return Name + " is an array";
    if (T.isVolatileQualified())
      return Name + " is volatile";
    if (!T.isTriviallyCopyableType(Ctx))
      return Name + " is not trivially copyable";
    if (const TagDecl *Tag = T->getAsTagDecl(); Tag && Tag->getDeclContext()->isFunctionOrMethod())
      return Name + " has a type declared inside the kernel";
    if (std::string Why = escapes(V, Info.Kernel->getBody()); !Why.empty())
      return Name + Why;
    return "";
  }

  // Whether V may be changed other than by name: its address taken, a
  // reference bound to it, a member function called on it.
  std::string escapes(const VarDecl *V, const Stmt *St) {
    if (!St)
      return "";
    if (const auto *U = dyn_cast<UnaryOperator>(St); U && U->getOpcode() == UO_AddrOf && lvalueVariable(U->getSubExpr()) == V)
      return " has its address taken";
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(St); M && lvalueVariable(M->getImplicitObjectArgument()) == V)
      return " has a member function called on it";
    if (const auto *C = dyn_cast<CallExpr>(St))
      if (const FunctionDecl *F = C->getDirectCallee()) {
        // An operator method's object is argument 0, its first parameter argument 1.
        unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(F) ? 1 : 0;
        for (unsigned I = 0; I + Shift < C->getNumArgs() && I < F->getNumParams(); ++I) {
          QualType P = F->getParamDecl(I)->getType();
          if (P->isReferenceType() && !P->getPointeeType().isConstQualified() &&
              lvalueVariable(C->getArg(I + Shift)) == V)
            return " is passed by reference";
        }
      }
    if (const auto *D = dyn_cast<DeclStmt>(St))
      for (const Decl *Dc : D->decls())
        if (const auto *R = dyn_cast<VarDecl>(Dc); R && R->getType()->isReferenceType() && R->getInit() &&
                                                   lvalueVariable(R->getInit()) == V)
          return " has a reference bound to it";
    for (const Stmt *C : St->children())
      if (std::string Why = escapes(V, C); !Why.empty())
        return Why;
    return "";
  }

  const KernelInfo &Info;
  ASTContext &Ctx;
  Hoisting &H;
  std::vector<const Stmt *> Prefix;     // statements and conditions run before the loop
  std::set<const VarDecl *> Declared;   // locals in scope at the loop
};

} // namespace

Hoisting analyzeHoistability(const KernelInfo &Info, ASTContext &Ctx) {
  Hoisting H;
  H.Requested = true;
  std::string Why = Analysis(Info, Ctx, H).run();
  // The hoisted strategy copies whole elements in slices of iterations.
  for (const Site &S : Info.Sites)
    for (const SiteArray &A : S.Arrays)
      if (Why.empty() && S.transformable() && A.Fields.split())
        Why = "it reads structure fields through pieces";
  H.Hoistable = Why.empty();
  H.NotBecause = Why;
  if (!H.Hoistable) {
    H.Live.clear();
    H.Enclosing.clear();
  }
  return H;
}

} // namespace irregfix
