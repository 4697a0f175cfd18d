// Reading source text and editing a piece of the main file as a string.
#pragma once

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Core/Replacement.h"

#include <optional>
#include <set>
#include <string>
#include <utility>

namespace irregfix {

// The text of a node as the user wrote it; empty if it cannot be mapped to one
// contiguous range of one file (e.g. it spans a macro body).
std::string sourceText(clang::SourceRange R, const clang::SourceManager &SM,
                       const clang::LangOptions &LO);

// File range of R (token range, macro arguments resolved); invalid if none.
clang::CharSourceRange fileRange(clang::SourceRange R, const clang::SourceManager &SM,
                                 const clang::LangOptions &LO);

// Collects edits inside one contiguous range of a file and applies them to a
// copy of its text: used to derive a transformed kernel from the original.
class SnippetEditor {
public:
  SnippetEditor(clang::CharSourceRange Whole, const clang::SourceManager &SM,
                const clang::LangOptions &LO);

  // False (and the edit is dropped) when R is outside the snippet or overlaps an earlier edit.
  bool replace(clang::SourceRange R, llvm::StringRef Text);
  // Replaces the characters [Begin, End) (file locations).
  bool replaceChars(clang::SourceLocation Begin, clang::SourceLocation End, llvm::StringRef Text);
  bool insertBefore(clang::SourceLocation Loc, llvm::StringRef Text);
  bool insertAfterToken(clang::SourceLocation Loc, llvm::StringRef Text);

  // The edited text, or an error if some edit failed.
  llvm::Expected<std::string> result() const;

private:
  bool add(unsigned Offset, unsigned Length, llvm::StringRef Text);
  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  clang::FileID File;
  unsigned Begin = 0, End = 0;
  std::string Original;
  clang::tooling::Replacements Edits;
  // Where insertions were made: only there may a new one meet an earlier one.
  std::set<unsigned> Insertions;
  bool Failed = false;
};

// Indentation (leading spaces and tabs) of the line holding Loc.
std::string indentationAt(clang::SourceLocation Loc, const clang::SourceManager &SM);

// The start of the first of the `#pragma` lines right above the line that Loc
// begins (nothing else before Loc on its line), with that line's indentation;
// none when there are none. Code put before a loop goes above its `#pragma unroll`.
std::optional<std::pair<clang::SourceLocation, std::string>> pragmaLinesAbove(clang::SourceLocation Loc,
                                                                             const clang::SourceManager &SM);

// The location just past statement S, its trailing semicolon included.
clang::SourceLocation afterStatement(const clang::Stmt *S, const clang::SourceManager &SM,
                                     const clang::LangOptions &LO);

} // namespace irregfix
