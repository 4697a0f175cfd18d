// Program-wide renumbering, the text: each kernel's roles as a table the
// runtime reads (irregfix::NumberingKernel), the call before each launch
// (irregfix::numbered_launch) and before each copy, memset or library call
// given device pointers (irregfix_host_access). See Analysis/DomainLaunches.h.
#pragma once

#include "Analysis/DomainLaunches.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <string>

namespace irregfix {

struct NumberingText {
  std::string Tables;                             // the kernels' tables, at file scope
  std::map<const clang::Expr *, std::string> Before; // by call: what runs before it
};

NumberingText numberingText(const FileDomain &D, clang::ASTContext &Ctx);

} // namespace irregfix
