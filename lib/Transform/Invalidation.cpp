#include "Transform/Invalidation.h"
#include "Analysis/Parents.h"
#include "Transform/SourceText.h"

#include "clang/AST/ExprCXX.h"

#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace clang;

namespace irregfix {

std::string programPoint(SourceLocation L, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (P.isInvalid())
    return "?";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine());
}

namespace {

// Where an edit for a call inside E goes: before the full statement holding
// it, and whether that statement must be wrapped in braces.
struct Placement {
  const Stmt *Statement = nullptr;
  bool NeedsBraces = false;
  bool InCompound = false; // directly in a { } block (a declaration may be followed by a statement)
  std::string Error;
};

Placement placementOf(const Expr *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  DynTypedNode Cur = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = parentsOf(Cur, Ctx);
    if (Parents.empty())
      return {nullptr, false, false, "no enclosing statement"};
    DynTypedNode ParentNode = Parents[0];
    const Stmt *P = ParentNode.get<Stmt>();
    const Stmt *C = Cur.get<Stmt>();
    if (!P) {
      // `cudaError_t e = cudaMemcpy(...)`: go on from the variable to its DeclStmt.
      if (!ParentNode.get<VarDecl>())
        return {nullptr, false, false, "not inside a function body"};
      Cur = ParentNode;
      continue;
    }
    // A statement inside a macro body (CUDA_CHECK's do-while) is placed as the
    // whole macro invocation: keep going until the statement maps to the file.
    bool InFile = C && fileRange(C->getSourceRange(), SM, LO).isValid();
    auto IsBody = [&](const Stmt *Body) { return Body == C; };
    if (InFile) {
      if (isa<CompoundStmt>(P))
        return {C, false, true, ""};
      if (const auto *If = dyn_cast<IfStmt>(P); If && (IsBody(If->getThen()) || IsBody(If->getElse())))
        return {C, true, false, ""};
      if (const auto *For = dyn_cast<ForStmt>(P); For && IsBody(For->getBody()))
        return {C, true, false, ""};
      if (const auto *For = dyn_cast<CXXForRangeStmt>(P); For && IsBody(For->getBody()))
        return {C, true, false, ""};
      if (const auto *W = dyn_cast<WhileStmt>(P); W && IsBody(W->getBody()))
        return {C, true, false, ""};
      if (const auto *Do = dyn_cast<DoStmt>(P); Do && IsBody(Do->getBody()))
        return {C, true, false, ""};
      if (isa<SwitchCase>(P) || isa<LabelStmt>(P))
        return {C, true, false, ""};
    }
    if (const auto *For = dyn_cast<ForStmt>(P); For && C && (C == For->getCond() || C == For->getInc()))
      return {nullptr, false, false, "the write is in a loop condition or increment"};
    if (const auto *W = dyn_cast<WhileStmt>(P); W && C == W->getCond())
      return {nullptr, false, false, "the write is in a loop condition"};
    if (const auto *Do = dyn_cast<DoStmt>(P); Do && C == Do->getCond())
      return {nullptr, false, false, "the write is in a loop condition"};
    if (isa<LambdaExpr>(P) || isa<BlockExpr>(P))
      return {nullptr, false, false, "no enclosing statement"};
    Cur = ParentNode;
  }
  return {nullptr, false, false, "the statement is nested too deeply"};
}

// The loops around E, innermost first, up to the function (or lambda) holding it.
std::vector<const Stmt *> enclosingLoops(const Expr *E, ASTContext &Ctx) {
  std::vector<const Stmt *> Loops;
  DynTypedNode Cur = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = parentsOf(Cur, Ctx);
    if (Parents.empty())
      break;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P) {
      // A constexpr function may declare no variable of the guard's type.
      if (const auto *F = Parents[0].get<FunctionDecl>(); F && F->isConstexpr())
        return {};
      if (!Parents[0].get<VarDecl>()) // a function, a field: the end of the statements
        break;
      Cur = Parents[0];
      continue;
    }
    if (isa<LambdaExpr>(P) || isa<BlockExpr>(P))
      break;
    if (isa<ForStmt>(P) || isa<CXXForRangeStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P))
      Loops.push_back(P);
    Cur = Parents[0];
  }
  return Loops;
}

// Whether S calls a function whose body is in `Bodies` (or whose template's is).
bool callsOneOf(const Stmt *S, const std::set<const Stmt *> &Bodies) {
  if (!S)
    return false;
  const FunctionDecl *F = nullptr;
  if (const auto *C = dyn_cast<CallExpr>(S))
    F = C->getDirectCallee();
  else if (const auto *C = dyn_cast<CXXConstructExpr>(S))
    F = C->getConstructor();
  if (F) {
    const FunctionDecl *Def = F->getDefinition();
    const FunctionDecl *Pattern = Def ? Def->getTemplateInstantiationPattern() : nullptr;
    if ((Def && Bodies.count(Def->getBody())) || (Pattern && Bodies.count(Pattern->getBody())))
      return true;
  }
  for (const Stmt *C : S->children())
    if (callsOneOf(C, Bodies))
      return true;
  return false;
}

// Whether S holds a label (a jump into it would skip a guard declared before it).
bool holdsLabel(const Stmt *S) {
  if (!S)
    return false;
  if (isa<LabelStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (holdsLabel(C))
      return true;
  return false;
}

// Text added around one statement: before it, and (braces or a declaration
// followed by more) after it.
struct StatementEdit {
  bool Braces = false;
  std::string Before, After;
};

class Emitter {
public:
  Emitter(ASTContext &Ctx, const std::vector<SourceRange> &Avoid, const std::vector<const Stmt *> &Guarded)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), Avoid(Avoid),
        GuardedBodies(Guarded.begin(), Guarded.end()) {}

  void add(const HostWrite &W) {
    const HostEffect &E = W.Effect;
    ++Out.Points;
    const std::string Where = "\"" + programPoint(W.Call->getBeginLoc(), SM) + "\"";
    std::string Calls;
    for (const WriteTarget &T : E.Targets) {
      std::string Text = targetText(T, E.Frees);
      if (Text.empty())
        continue;
      Calls += Text;
    }
    Calls += W.Numbering;
    if (E.Drop != DropCause::None) {
      Out.Drops.push_back({W.Call, E.Why});
      if (!E.RunsUnseenCode)
        Calls += std::string("irregfix_invalidate_all(") + causeMacro(E.Drop) + ", " + Where + "); ";
    }
    if (E.RunsUnseenCode)
      bracket(W.Call, E, Where, Calls);
    else if (!Calls.empty())
      statement(W.Call, Calls, "");
  }

  void guard(const Stmt *Body) {
    const auto *CS = dyn_cast<CompoundStmt>(Body);
    if (!CS || CS->getLBracLoc().isInvalid() || CS->getLBracLoc().isMacroID())
      return;
    const std::string Guard = "irregfix::EntryGuard __irregfix_entry(\"" + programPoint(CS->getLBracLoc(), SM) + "\");";
    // On a line of its own, indented as the body's first statement, unless the
    // body starts on the brace's line.
    const Stmt *First = CS->body_empty() ? nullptr : CS->body_front();
    SourceLocation FirstLoc = First ? SM.getExpansionLoc(First->getBeginLoc()) : SourceLocation();
    std::string Text = " " + Guard;
    if (FirstLoc.isValid() && SM.getFileID(FirstLoc) == SM.getFileID(CS->getLBracLoc()) &&
        SM.getSpellingLineNumber(FirstLoc) > SM.getSpellingLineNumber(CS->getLBracLoc()))
      Text = "\n" + indentationAt(FirstLoc, SM) + Guard;
    Insertions[CS->getLBracLoc().getLocWithOffset(1)].Open += Text;
    ++Out.Guards;
  }

  InvalidationEdits finish() {
    for (const Stmt *S : Order) {
      CharSourceRange R = fileRange(S->getSourceRange(), SM, LO);
      if (R.isInvalid()) {
        Out.Skipped.push_back({dyn_cast<Expr>(S), "the statement is produced by a macro"});
        continue;
      }
      SourceLocation Begin = R.getBegin();
      StatementEdit &Edit = ByStatement[Begin];
      if (!Edit.Braces && Edit.After.empty()) {
        std::string Text = Edit.Before;
        Text.pop_back(); // trailing space
        Insertions[Begin].Statement += Text + "\n" + indentationAt(R.getBegin(), SM);
        continue;
      }
      // `if (c) cudaMemcpy(...);` → `if (c) { irregfix_invalidate(p); cudaMemcpy(...); }`
      SourceLocation End = R.getEnd();
      SourceLocation LastToken = SM.getExpansionRange(S->getEndLoc()).getEnd();
      SourceLocation AfterSemi = Lexer::findLocationAfterToken(LastToken, tok::semi, SM, LO, false);
      if (AfterSemi.isValid())
        End = AfterSemi;
      if (Edit.Braces) {
        Insertions[Begin].Statement += "{ " + Edit.Before;
        Insertions[End].Close.insert(0, " " + Edit.After + "}");
      } else { // a declaration in a block: what follows it comes after it
        std::string Text = Edit.Before;
        Text.pop_back();
        Insertions[Begin].Statement += Text + "\n" + indentationAt(R.getBegin(), SM);
        Insertions[End].Close.insert(0, "\n" + indentationAt(R.getBegin(), SM) +
                                         Edit.After.substr(0, Edit.After.size() - 1));
      }
    }
    for (auto &[Loc, Text] : Insertions) // in the file the location is in (the main file or one it includes)
      Out.Edits.emplace_back(SM, Loc, 0, Text.Close + Text.Statement + Text.Open);
    return std::move(Out);
  }

private:
  std::string targetText(const WriteTarget &T, bool Frees) {
    if (T.Symbol)
      return "irregfix_invalidate_symbol(&" + symbolSpelling(T.Symbol) + "); ";
    std::string Text = sourceText(T.Arg->getSourceRange(), SM, LO);
    if (Text.empty()) {
      Out.Skipped.push_back({T.Arg, "the pointer is written through a macro"});
      return "";
    }
    if (T.Arg->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false)) {
      Out.Skipped.push_back({T.Arg, "the pointer expression has side effects"});
      return "";
    }
    if (T.SymbolArg)
      return "irregfix_invalidate_symbol(" + (T.SymbolByReference ? "&(" + Text + ")" : Text) + "); ";
    if (!T.Member.empty()) {
      bool Plain = llvm::all_of(Text, [](char C) { return isalnum(C) || C == '_'; });
      Text = (Plain ? Text : "(" + Text + ")") + T.Member;
    }
    return std::string(Frees ? "irregfix_release(" : "irregfix_invalidate(") + Text + "); ";
  }

  bool insideAvoided(SourceRange R) const {
    for (const SourceRange &A : Avoid)
      if (!SM.isBeforeInTranslationUnit(R.getBegin(), A.getBegin()) &&
          !SM.isBeforeInTranslationUnit(A.getEnd(), R.getEnd()))
        return true;
    return false;
  }

  // Brackets the call with an irregfix::UnseenCall temporary; else the statement
  // holding it. The by-name invalidations in Calls still go before the statement.
  void bracket(const Expr *Call, const HostEffect &E, const std::string &Where, const std::string &Calls) {
    if (E.Drop == DropCause::UnseenCall)
      if (const Stmt *Loop = hoistingLoop(Call)) {
        hoist(Loop, Where);
        if (!Calls.empty())
          statement(Call, Calls, "");
        Out.Drops.back().second += " (once around the loop at line " +
                                   std::to_string(SM.getExpansionLineNumber(Loop->getBeginLoc())) +
                                   ", which reaches no rewritten launch)";
        return;
      }
    const std::string Unseen = std::string("irregfix::UnseenCall(") + causeMacro(E.Drop) + ", " + Where + ")";
    const bool Expression = isa<CallExpr>(Call) || isa<CXXTemporaryObjectExpr>(Call);
    CharSourceRange R = fileRange(Call->getSourceRange(), SM, LO);
    if (Expression && R.isValid() && !insideAvoided(Call->getSourceRange())) {
      const SourceLocation Begin = R.getBegin(), End = R.getEnd();
      if (Bracketed.insert({Begin, End}).second) {
        Insertions[Begin].Open += "(" + Unseen + ", ";
        Insertions[End].Close.insert(0, ")");
      }
      if (!Calls.empty())
        statement(Call, Calls, "");
      return;
    }
    Placement P = placementOf(Call, Ctx);
    if (!P.Statement) {
      Out.Skipped.push_back({Call, P.Error});
      return;
    }
    const std::string Guard = "irregfix::UnseenCall __irregfix_unseen" + std::to_string(++Unseens) + "(" +
                              std::string(causeMacro(E.Drop)) + ", " + Where + "); ";
    if (isa<DeclStmt>(P.Statement)) {
      if (!P.InCompound) {
        Out.Skipped.push_back({Call, "it declares a variable outside a block"});
        return;
      }
      // The declared variable must stay visible: the guard lives to the end of
      // the block, and the copies are dropped again right after the declaration.
      statement(Call, Calls + Guard,
                std::string("irregfix_invalidate_all(") + causeMacro(E.Drop) + ", " + Where + "); ");
      return;
    }
    statement(Call, Calls + Guard, "", /*Braces=*/true);
  }

  // A call of unseen code in a host loop that reaches no transformed launch (a
  // generator called millions of times before the first launch) is bracketed
  // once, around the outermost such loop: nothing between two of its calls reads
  // a copy. Not a loop that calls a function of this file reaching a launch:
  // inside the bracket its entry guard would drop the copies at every call.
  // Null when no loop around the call can hold the bracket.
  const Stmt *hoistingLoop(const Expr *Call) const {
    const Stmt *Best = nullptr;
    for (const Stmt *Loop : enclosingLoops(Call, Ctx)) {
      const CharSourceRange R = fileRange(Loop->getSourceRange(), SM, LO);
      if (R.isInvalid() || insideAvoided(Loop->getSourceRange()) || holdsLabel(Loop) || containsAvoided(R) ||
          callsOneOf(Loop, GuardedBodies))
        break; // the loops further out hold this one
      Best = Loop;
    }
    return Best;
  }

  bool containsAvoided(CharSourceRange R) const {
    for (const SourceRange &A : Avoid)
      if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.getBegin()), R.getBegin()) &&
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.getBegin()), R.getEnd()))
        return true;
    return false;
  }

  // `{ irregfix::UnseenCall guard(...); <loop> }`: the copies dropped before the
  // loop and after it however it ends, and every function of this file entered
  // inside it counted as entered from outside.
  void hoist(const Stmt *Loop, const std::string &Where) {
    const CharSourceRange R = fileRange(Loop->getSourceRange(), SM, LO);
    if (!HoistedLoops.insert(R.getBegin()).second)
      return;
    SourceLocation End = R.getEnd();
    const SourceLocation LastToken = SM.getExpansionRange(Loop->getEndLoc()).getEnd();
    if (SourceLocation AfterSemi = Lexer::findLocationAfterToken(LastToken, tok::semi, SM, LO, false);
        AfterSemi.isValid())
      End = AfterSemi;
    Insertions[R.getBegin()].Statement += "{ irregfix::UnseenCall __irregfix_unseen" + std::to_string(++Unseens) +
                                          "(" + causeMacro(DropCause::UnseenCall) + ", " + Where + "); ";
    Insertions[End].Close += " }";
  }

  void statement(const Expr *Call, const std::string &Before, const std::string &After, bool Braces = false) {
    Placement P = placementOf(Call, Ctx);
    if (!P.Statement) {
      Out.Skipped.push_back({Call, P.Error});
      return;
    }
    // By where the statement starts: instantiations of a template share its text.
    CharSourceRange R = fileRange(P.Statement->getSourceRange(), SM, LO);
    SourceLocation Key = R.isValid() ? R.getBegin() : SourceLocation::getFromRawEncoding(~0u - Order.size());
    auto [It, New] = ByStatement.try_emplace(Key);
    if (New)
      Order.push_back(P.Statement);
    StatementEdit &Edit = It->second;
    Edit.Braces |= P.NeedsBraces || Braces;
    if (Edit.Before.find(Before) == std::string::npos)
      Edit.Before += Before;
    if (Edit.After.find(After) == std::string::npos)
      Edit.After += After;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const std::vector<SourceRange> &Avoid;
  const std::set<const Stmt *> GuardedBodies; // functions of the file that reach a transformed launch
  InvalidationEdits Out;
  std::map<SourceLocation, StatementEdit> ByStatement; // by where the statement starts in its file
  std::vector<const Stmt *> Order;
  // Insertions by file location: what closes there (a bracket, a brace), then
  // what goes before the statement that starts there, then what opens there.
  struct Slots {
    std::string Close, Statement, Open;
  };
  std::map<SourceLocation, Slots> Insertions;
  unsigned Unseens = 0;
  std::set<std::pair<SourceLocation, SourceLocation>> Bracketed; // call ranges already bracketed
  std::set<SourceLocation> HoistedLoops;                             // loops bracketed whole, by their start
};

} // namespace

InvalidationEdits invalidations(const std::vector<HostWrite> &Writes, const std::vector<const Stmt *> &Guarded,
                                const std::vector<SourceRange> &Avoid, ASTContext &Ctx) {
  Emitter E(Ctx, Avoid, Guarded);
  for (const HostWrite &W : Writes)
    E.add(W);
  for (const Stmt *Body : Guarded)
    E.guard(Body);
  return E.finish();
}

} // namespace irregfix
