// Make-style dependency files as irregfix-nvcc reads and mends them: the
// tool's (the files a rewrite read, for the cache) and nvcc's -MD output
// (which must name the original source, not the rewritten copy).
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace irregfix::nvcc {

// The prerequisites of the first rule (`target: a b \` ...), unescaped.
std::vector<std::string> readPrerequisites(llvm::StringRef Text);

// Text with every mention of the rewritten copy Copy naming Original instead,
// and Extra (files the copy holds inlined, which nvcc did not see as headers)
// added to the first rule's prerequisites.
std::string mendDepFile(llvm::StringRef Text, llvm::StringRef Copy, llvm::StringRef Original,
                        llvm::ArrayRef<std::string> Extra);

} // namespace irregfix::nvcc
