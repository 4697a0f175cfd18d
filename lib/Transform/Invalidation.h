// Cache invalidation edits, from the host-write analysis (Analysis/HostWrites.h):
//  - before a call that writes memory it names: irregfix_invalidate(ptr),
//    irregfix_invalidate_symbol(&var), or irregfix_release(ptr) before a free;
//  - before a write nothing names: irregfix_invalidate_all(cause, "file:line");
//  - around a call that runs code the tool cannot see:
//    (irregfix::UnseenCall(cause, "file:line"), call(...)), whose temporary lives
//    until the end of the full expression: copies are dropped before and after
//    the call, and functions of this file it calls back count as entered from
//    outside;
//  - at the top of every function of the file that reaches a transformed
//    launch: irregfix::EntryGuard __irregfix_entry("file:line"), which drops the
//    copies when the function is entered from code the tool cannot see.
// Invalidating before a write is as good as after it: nothing can use the
// cache between the two, and it also covers writes inside conditions.
#pragma once

#include "Analysis/HostWrites.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"

#include <string>
#include <vector>

namespace irregfix {

// A host call and what it does to device memory.
struct HostWrite {
  const clang::Expr *Call = nullptr; // a CallExpr or a CXXConstructExpr
  HostEffect Effect;
  std::string Numbering; // program-wide renumbering's call before it (Transform/NumberingHooks.h)
};

struct InvalidationEdits {
  std::vector<clang::tooling::Replacement> Edits;
  // Writes the tool saw but could not instrument, with the reason.
  std::vector<std::pair<const clang::Expr *, std::string>> Skipped;
  // Points where every cached copy is dropped, and why (for remarks).
  std::vector<std::pair<const clang::Expr *, std::string>> Drops;
  unsigned Points = 0; // calls given an invalidation or a bracket
  unsigned Guards = 0; // entry guards inserted
};

// `Avoid` are source ranges other edits replace (rewritten launches): no
// bracket is inserted inside them. `Guarded` are the bodies that get an entry guard.
InvalidationEdits invalidations(const std::vector<HostWrite> &Writes,
                                const std::vector<const clang::Stmt *> &Guarded,
                                const std::vector<clang::SourceRange> &Avoid, clang::ASTContext &Ctx);

// "file.cu:LINE" of L, as the runtime's statistics name program points.
std::string programPoint(clang::SourceLocation L, const clang::SourceManager &SM);

} // namespace irregfix
