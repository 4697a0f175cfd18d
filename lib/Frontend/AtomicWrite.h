// Writing files so that none is ever left half-written: each through a
// temporary file beside it and a rename.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace irregfix {

// Writes Text to Path; false, with a message saying why, on error.
bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text, std::string &Error);

struct FileWrite {
  std::string Path;
  std::string Text;     // what to write
  std::string Original; // what the file holds now, put back if the set cannot be written
};

// Writes every file or none: all the temporary files first (a failure removes
// them and changes nothing), then the renames (a failure puts back the files
// already renamed).
bool writeAllOrNothing(const std::vector<FileWrite> &Files, std::string &Error);

} // namespace irregfix
