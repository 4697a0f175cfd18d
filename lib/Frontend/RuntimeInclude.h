// Where the rewrite puts `#include <irregfix/irregfix.cuh>`: in the main file
// and every file it changes, before the first thing there that uses the
// runtime and before the #include of the first file that changes (or includes
// one that does); after the last #include, #pragma once or include-guard
// #define before that point that is at file scope (not inside a struct or a
// namespace, as some programs have an #include), else at the file's top.
#pragma once

#include "Frontend/FileEdits.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <string>

namespace irregfix {

class RuntimeUses {
public:
  // Something at Offset of Path needs the runtime (a rewritten kernel's declaration).
  void use(const std::string &Path, unsigned Offset);
  // Adds the includes, once every other edit is in Edits; false when one fails.
  bool addIncludes(FileEdits &Edits, clang::ASTContext &Ctx);

private:
  std::map<std::string, unsigned> FirstUse; // per file, where the first thing that needs the runtime is
};

} // namespace irregfix
