// Make-style dependency files (`target: dep dep ...`), as `clang -MD` writes
// them, so that a build system re-runs irregfix when a header changes.
#pragma once

#include "clang/Lex/PPCallbacks.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace irregfix {

// Preprocessor callbacks that record, in order and once each, every file the
// preprocessor enters (the main file, the user's headers and system headers),
// as absolute paths.
std::unique_ptr<clang::PPCallbacks> newDependencyRecorder(const clang::SourceManager &SM,
                                                           std::vector<std::string> &Files);

// `Target: Deps...` with spaces, `#` and `$` escaped the way Make and Ninja read
// them, one dependency per continued line.
std::string formatDepFile(llvm::StringRef Target, const std::vector<std::string> &Deps);

// Writes the depfile through a temporary file and a rename; false on error,
// with a message saying why in Error.
bool writeDepFile(llvm::StringRef Path, llvm::StringRef Target, const std::vector<std::string> &Deps,
                  std::string &Error);

} // namespace irregfix
