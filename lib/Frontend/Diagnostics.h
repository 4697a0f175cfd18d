// irregfix's own messages, through Clang's diagnostics engine so they look and
// behave like the compiler's (file:line:col, caret, notes, colours).
#pragma once

#include "clang/Basic/Diagnostic.h"

#include <string>

namespace irregfix {

class Messages {
public:
  Messages(clang::DiagnosticsEngine &Diags, bool Remarks) : Diags(Diags), Remarks(Remarks) {}

  void remark(clang::SourceLocation Loc, const std::string &Text);
  void warning(clang::SourceLocation Loc, const std::string &Text);
  void note(clang::SourceLocation Loc, const std::string &Text);
  void error(clang::SourceLocation Loc, const std::string &Text);

private:
  void emit(clang::DiagnosticsEngine::Level L, clang::SourceLocation Loc, const std::string &Text);
  clang::DiagnosticsEngine &Diags;
  bool Remarks;
  bool LastWasShown = true; // notes follow the message they belong to
};

} // namespace irregfix
