// A unified diff (as `diff -u` prints it) of two texts, for --diff.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace irregfix {

// Empty when the texts are equal.
std::string unifiedDiff(llvm::StringRef Before, llvm::StringRef After, llvm::StringRef OldName,
                        llvm::StringRef NewName, unsigned Context = 3);

} // namespace irregfix
