#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/BodyNodes.h"
#include "Analysis/Calls.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"

#include <cctype>
#include <map>

using namespace clang;

namespace irregfix {

namespace {

bool mentionsArch(StringRef Text) { return Text.contains("__CUDA_ARCH"); }

struct Tok {
  tok::TokenKind K;
  std::string Text;
};

std::vector<Tok> lex(StringRef Text, const LangOptions &LO) {
  std::vector<Tok> Out;
  Lexer L(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  L.SetCommentRetentionState(false);
  Token T;
  bool Directive = false; // preprocessor lines are not code: skipped to their end
  for (;;) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    if (T.isAtStartOfLine())
      Directive = T.is(tok::hash);
    if (Directive)
      continue;
    const char *P = tok::getPunctuatorSpelling(T.getKind());
    Out.push_back({T.getKind(), T.is(tok::raw_identifier) ? T.getRawIdentifier().str() : std::string(P ? P : "")});
  }
  return Out;
}

bool isName(const Tok &T) { return T.K == tok::raw_identifier; }

bool isKeywordLike(StringRef S) {
  static const char *const Words[] = {"if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype",
                                      "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "do",
                                      "else", "case", "new", "delete", "throw", "typeid", "noexcept"};
  for (const char *W : Words)
    if (S == W)
      return true;
  return false;
}

bool isAssignment(tok::TokenKind K) {
  switch (K) {
  case tok::equal:
  case tok::plusequal:
  case tok::minusequal:
  case tok::starequal:
  case tok::slashequal:
  case tok::percentequal:
  case tok::ampequal:
  case tok::pipeequal:
  case tok::caretequal:
  case tok::lesslessequal:
  case tok::greatergreaterequal:
    return true;
  default:
    return false;
  }
}

// The tokens of the lvalue that ends just before position End (exclusive),
// walking back over names, members, subscripts, calls and derefs.
std::vector<Tok> lvalueBefore(const std::vector<Tok> &T, size_t End) {
  size_t I = End;
  while (I > 0) {
    const Tok &P = T[I - 1];
    // `f(x).y`, `(*p)[i]`: a parenthesis is part of the lvalue only when a
    // member or subscript follows it (`if (c) x = ...` ends at the `)`).
    if (P.K == tok::r_paren &&
        (I == End || (T[I].K != tok::period && T[I].K != tok::arrow && T[I].K != tok::l_square)))
      break;
    if (P.K == tok::r_square || P.K == tok::r_paren) {
      const tok::TokenKind Open = P.K == tok::r_square ? tok::l_square : tok::l_paren;
      int Depth = 0;
      size_t J = I;
      while (J > 0) {
        --J;
        if (T[J].K == P.K)
          ++Depth;
        else if (T[J].K == Open && --Depth == 0)
          break;
      }
      I = J;
      continue;
    }
    if (isName(P) && !isKeywordLike(P.Text)) {
      --I;
      continue;
    }
    if (P.K == tok::period || P.K == tok::arrow || P.K == tok::coloncolon || P.K == tok::numeric_constant ||
        P.K == tok::amp) {
      --I;
      continue;
    }
    if (P.K == tok::star) { // a deref, or the * of a declarator (`float *p`)
      --I;
      continue;
    }
    break;
  }
  return std::vector<Tok>(T.begin() + I, T.begin() + End);
}

// Classifies the target of an assignment or increment.
void target(const std::vector<Tok> &L, DeviceOnlyCode::Effects &E, const std::string &Op) {
  if (L.empty()) {
    if (!E.Stores)
      E.Stores = true, E.What = "a store ('" + Op + "') whose target it cannot read";
    return;
  }
  size_t Names = 0; // leading names: a declaration has two or more (type, name)
  while (Names < L.size() && (isName(L[Names]) || L[Names].K == tok::star || L[Names].K == tok::amp ||
                              L[Names].K == tok::coloncolon))
    ++Names;
  size_t Idents = 0;
  std::string Last;
  for (size_t I = 0; I < Names; ++I)
    if (isName(L[I]))
      ++Idents, Last = L[I].Text;
  if (Idents >= 2 && L[0].K != tok::star) { // `int i`, `const real_t *p`, `float a[4]`
    E.Declared.insert(Last);
    return;
  }
  bool Memory = L[0].K == tok::star;
  for (const Tok &T : L)
    if (T.K == tok::l_square || T.K == tok::arrow || T.K == tok::l_paren)
      Memory = true;
  if (Memory) {
    if (!E.Stores)
      E.Stores = true, E.What = "a store through memory ('" + Op + "')";
    return;
  }
  if (isName(L[0]))
    E.Assigned.insert(L[0].Text); // x = ..., s.f = ...: a local, or a __device__ variable
}

} // namespace

DeviceOnlyCode::Effects DeviceOnlyCode::effectsOf(StringRef Text, const LangOptions &LO) {
  Effects E;
  const std::vector<Tok> T = lex(Text, LO);
  auto Store = [&](const std::string &What) {
    if (!E.Stores)
      E.Stores = true, E.What = What;
  };
  for (size_t I = 0; I < T.size(); ++I) {
    const Tok &X = T[I];
    if (isAssignment(X.K)) {
      target(lvalueBefore(T, I), E, tok::getPunctuatorSpelling(X.K));
      continue;
    }
    if (X.K == tok::plusplus || X.K == tok::minusminus) {
      const bool Postfix = I > 0 && (isName(T[I - 1]) || T[I - 1].K == tok::r_square || T[I - 1].K == tok::r_paren);
      if (Postfix) {
        target(lvalueBefore(T, I), E, X.Text);
      } else {
        size_t J = I + 1; // the operand: names, members, subscripts
        while (J < T.size() && (isName(T[J]) || T[J].K == tok::period || T[J].K == tok::arrow || T[J].K == tok::star))
          ++J;
        std::vector<Tok> L(T.begin() + I + 1, T.begin() + J);
        if (J < T.size() && T[J].K == tok::l_square)
          L.push_back(T[J]);
        target(L, E, X.Text);
      }
      continue;
    }
    if (!isName(X))
      continue;
    if (X.Text == "asm" || X.Text == "__asm__" || X.Text == "__asm") {
      Store("inline assembly");
      continue;
    }
    // A call: `f(`, or a template's `f<...>(`.
    size_t J = I + 1;
    if (J < T.size() && T[J].K == tok::less) {
      int Depth = 0;
      for (; J < T.size(); ++J) {
        if (T[J].K == tok::less)
          ++Depth;
        else if (T[J].K == tok::greater && --Depth == 0)
          break;
        else if (T[J].K == tok::semi)
          break;
      }
      ++J;
    }
    if (J < T.size() && T[J].K == tok::l_paren && !isKeywordLike(X.Text)) {
      StringRef N(X.Text);
      if (N.starts_with("atomic") || N.starts_with("__st") || N == "memcpy" || N == "memset")
        Store("a call of '" + X.Text + "'");
      else
        E.Calls.insert(X.Text);
    }
  }
  return E;
}

class DeviceOnlyRecorder : public PPCallbacks {
public:
  explicit DeviceOnlyRecorder(DeviceOnlyCode &C) : C(C), SM(C.PP.getSourceManager()), LO(C.PP.getLangOpts()) {}

  void If(SourceLocation Loc, SourceRange Cond, ConditionValueKind) override { open(Loc, text(Cond)); }
  void Ifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &) override { open(Loc, name(Name)); }
  void Ifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &) override { open(Loc, name(Name)); }
  void Elif(SourceLocation, SourceRange Cond, ConditionValueKind, SourceLocation) override {
    if (!Open.empty() && tests(text(Cond)))
      Open.back().Arch = true;
  }
  // The preprocessor reports a block skipped up to #endif after the Endif
  // callback: such a block belongs to the conditional closed last.
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    const SourceLocation At = Range.getBegin();
    // (The range starts at the '#', the conditional's location at its name.)
    if (Closed.If.isValid() && SM.getFileID(At) == SM.getFileID(Closed.If) &&
        SM.isBeforeInTranslationUnit(At, Closed.Endif) &&
        !SM.isBeforeInTranslationUnit(At, SM.translateLineCol(SM.getFileID(At), SM.getSpellingLineNumber(Closed.If), 1))) {
      if (Closed.Region >= 0)
        device(C.Regions[Closed.Region], Range);
      else if (!Open.empty())
        Open.back().Skipped.push_back(Range);
      return;
    }
    if (!Open.empty())
      Open.back().Skipped.push_back(Range);
  }
  // CUDA's own macros (`__shared__`, `__device__`) are defined per compilation
  // too, as attributes: only the program's macros are followed.
  void MacroDefined(const Token &Name, const MacroDirective *) override {
    if (SM.isInSystemHeader(Name.getLocation()))
      return;
    for (const Conditional &O : Open)
      if (O.Arch)
        HostMacros.insert(name(Name));
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (Open.empty())
      return;
    Conditional O = std::move(Open.back());
    Open.pop_back();
    Closed = {O.If, Loc, -1};
    if (!O.Arch) {
      if (!Open.empty()) // a nested conditional's skipped blocks are its parent's too
        Open.back().Skipped.insert(Open.back().Skipped.end(), O.Skipped.begin(), O.Skipped.end());
      return;
    }
    // CUDA's and the system's headers hold no function the analyses read
    // through (their functions are library calls): their conditionals are not kept.
    if (SM.isInSystemHeader(O.If))
      return;
    DeviceOnlyCode::Region R;
    R.Range = SourceRange(O.If, Loc);
    C.Regions.push_back(std::move(R));
    Closed.Region = static_cast<int>(C.Regions.size()) - 1;
    for (SourceRange S : O.Skipped)
      device(C.Regions.back(), S);
  }
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange Range, const MacroArgs *) override {
    const std::string N = name(Name);
    auto It = DeviceMacros.find(N);
    if (It == DeviceMacros.end() && !HostMacros.count(N))
      return;
    DeviceOnlyCode::Region R;
    R.Range = SourceRange(SM.getExpansionLoc(Range.getBegin()), SM.getExpansionLoc(Range.getEnd()));
    if (It != DeviceMacros.end())
      R.Device = It->second;
    C.Regions.push_back(std::move(R));
  }

private:
  struct Conditional {
    SourceLocation If;
    bool Arch = false;
    std::vector<SourceRange> Skipped;
  };

  struct Last {
    SourceLocation If, Endif;
    int Region = -1; // its region, when it tests __CUDA_ARCH__
  };

  void open(SourceLocation Loc, const std::string &Cond) { Open.push_back({Loc, tests(Cond), {}}); }
  // Whether a condition tells the compilations apart: it names __CUDA_ARCH__,
  // or a macro of the program's defined under a conditional that does
  // (`#ifdef __CUDA_ARCH__ #define ON_DEVICE 1 #endif ... #if ON_DEVICE`).
  bool tests(StringRef Cond) const {
    if (mentionsArch(Cond))
      return true;
    for (size_t I = 0; I < Cond.size();) {
      if (!(std::isalpha(static_cast<unsigned char>(Cond[I])) || Cond[I] == '_')) {
        ++I;
        continue;
      }
      size_t J = I;
      while (J < Cond.size() && (std::isalnum(static_cast<unsigned char>(Cond[J])) || Cond[J] == '_'))
        ++J;
      const std::string Name = Cond.substr(I, J - I).str();
      if (DeviceMacros.count(Name) || HostMacros.count(Name))
        return true;
      I = J;
    }
    return false;
  }
  // A block of R's conditional the host pass skipped: what the device runs.
  void device(DeviceOnlyCode::Region &R, SourceRange Skipped) {
    const std::string Text = text(Skipped);
    merge(R.Device, DeviceOnlyCode::effectsOf(Text, LO));
    if (!SM.isInSystemHeader(Skipped.getBegin()))
      noteDeviceMacros(Text);
  }
  std::string text(SourceRange R) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
  }
  static std::string name(const Token &T) {
    return T.getIdentifierInfo() ? T.getIdentifierInfo()->getName().str() : std::string();
  }
  static void merge(DeviceOnlyCode::Effects &Into, const DeviceOnlyCode::Effects &E) {
    if (E.Stores && !Into.Stores)
      Into.Stores = true, Into.What = E.What;
    Into.Assigned.insert(E.Assigned.begin(), E.Assigned.end());
    Into.Declared.insert(E.Declared.begin(), E.Declared.end());
    Into.Calls.insert(E.Calls.begin(), E.Calls.end());
  }
  // `#define NAME body` lines of device-only text: NAME expands on the device
  // to body (continuation lines joined).
  void noteDeviceMacros(StringRef Text) {
    llvm::SmallVector<StringRef, 32> Lines;
    Text.split(Lines, '\n');
    for (size_t I = 0; I < Lines.size(); ++I) {
      StringRef L = Lines[I].ltrim();
      if (!L.consume_front("#"))
        continue;
      L = L.ltrim();
      if (!L.consume_front("define"))
        continue;
      L = L.ltrim();
      const size_t End = L.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
      const std::string N = L.substr(0, End).str();
      std::string Body = L.substr(End).str();
      while (!Body.empty() && Body.back() == '\\' && I + 1 < Lines.size())
        Body.pop_back(), Body += Lines[++I].str();
      if (!Body.empty() && Body[0] == '(') // parameters
        Body = Body.substr(std::min(Body.find(')') + 1, Body.size()));
      merge(DeviceMacros[N], DeviceOnlyCode::effectsOf(Body, LO));
    }
  }

  DeviceOnlyCode &C;
  const SourceManager &SM;
  const LangOptions &LO;
  std::vector<Conditional> Open;
  Last Closed;
  std::map<std::string, DeviceOnlyCode::Effects> DeviceMacros; // defined in skipped device blocks
  std::set<std::string> HostMacros;                            // defined in host blocks of such conditionals
};

std::unique_ptr<PPCallbacks> DeviceOnlyCode::recorder() { return std::make_unique<DeviceOnlyRecorder>(*this); }

std::vector<const DeviceOnlyCode::Region *> DeviceOnlyCode::within(const FunctionDecl *F) const {
  std::vector<const Region *> Out;
  const Stmt *Body = F ? F->getBody() : nullptr;
  if (!Body)
    return Out;
  const SourceManager &SM = PP.getSourceManager();
  const SourceLocation B = SM.getExpansionLoc(Body->getBeginLoc()), E = SM.getExpansionLoc(Body->getEndLoc());
  for (const Region &R : Regions) {
    const SourceLocation At = SM.getExpansionLoc(R.Range.getBegin());
    if (SM.getFileID(At) == SM.getFileID(B) && !SM.isBeforeInTranslationUnit(At, B) &&
        !SM.isBeforeInTranslationUnit(E, At))
      Out.push_back(&R);
  }
  return Out;
}

namespace {

// The functions a body calls whose bodies are visible (CallKind::Defined).
// Replayed over the body's recorded nodes (BodyNodes.h).
class CalleeCollector : public RecursiveASTVisitor<CalleeCollector> {
public:
  explicit CalleeCollector(const SourceManager &SM) : Calls(SM) {}
  std::vector<const FunctionDecl *> Found;
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = nullptr;
    if (Calls.classify(C, &F) == CallKind::Defined && F && F->getDefinition())
      Found.push_back(F->getDefinition());
    return true;
  }

private:
  CallClassifier Calls;
};

} // namespace

std::vector<std::pair<const FunctionDecl *, const DeviceOnlyCode::Region *>>
DeviceOnlyCode::inCallees(const FunctionDecl *Kernel) const {
  std::vector<std::pair<const FunctionDecl *, const Region *>> Out;
  if (Regions.empty() || !Kernel)
    return Out;
  std::vector<const FunctionDecl *> Work{Kernel};
  std::set<const FunctionDecl *> Seen{Kernel};
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    if (F != Kernel)
      if (const std::vector<const Region *> R = within(F); !R.empty())
        Out.push_back({F, R.front()});
    CalleeCollector C(PP.getSourceManager());
    replayBody(C, F->getBody(), F->getASTContext());
    for (const FunctionDecl *G : C.Found)
      if (Seen.insert(G).second)
        Work.push_back(G);
  }
  return Out;
}

namespace {

// The names F's body declares, and its parameters'.
class LocalNames : public RecursiveASTVisitor<LocalNames> {
public:
  std::set<std::string> Names;
  bool VisitVarDecl(VarDecl *V) {
    if (V->isLocalVarDeclOrParm() && V->getIdentifier())
      Names.insert(V->getName().str());
    return true;
  }
};

} // namespace

std::string DeviceOnlyCode::mayStore(const FunctionDecl *F) const {
  const std::vector<const Region *> In = within(F);
  if (In.empty())
    return "";
  const SourceManager &SM = PP.getSourceManager();
  LocalNames L;
  for (const ParmVarDecl *P : F->parameters())
    if (P->getIdentifier())
      L.Names.insert(P->getName().str());
  L.TraverseStmt(const_cast<Stmt *>(F->getBody()));
  const TranslationUnitDecl *TU = F->getASTContext().getTranslationUnitDecl();
  for (const Region *R : In) {
    const std::string Where = "code at line " + std::to_string(SM.getExpansionLineNumber(R->Range.getBegin())) +
                              " that only the device compilation sees (__CUDA_ARCH__)";
    if (R->Device.Stores)
      return "it has " + R->Device.What + " in " + Where;
    for (const std::string &Fn : R->Device.Calls) { // of a library function, or of the program's
      bool Library = false, Program = false;
      for (const Decl *D : TU->lookup(DeclarationName(&F->getASTContext().Idents.get(Fn)))) {
        const auto *FD = dyn_cast<FunctionDecl>(D);
        if (isa<TypeDecl>(D) || SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())) ||
            (FD && FD->getBuiltinID()))
          Library = true;
        else
          Program = true;
      }
      if (Program || !Library)
        return "it calls '" + Fn + "' in " + Where;
    }
    for (const std::string &N : R->Device.Assigned)
      if (!L.Names.count(N) && !R->Device.Declared.count(N))
        return "it assigns '" + N + "' in " + Where;
  }
  return "";
}

} // namespace irregfix
