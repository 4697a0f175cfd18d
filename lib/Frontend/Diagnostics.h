// irregfix's own messages, through Clang's diagnostics engine so they look and
// behave like the compiler's (file:line:col, caret, notes, colours), and the
// tool's own errors outside any file.
#pragma once

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/Twine.h"

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

// `irregfix: error: Message` on stderr, for errors outside any source file
// (options, files, writes); returns the exit status 1.
int toolError(const llvm::Twine &Message);

} // namespace irregfix
