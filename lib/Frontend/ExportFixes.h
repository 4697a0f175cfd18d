// --export-fixes: the edits as the YAML that clang-apply-replacements reads
// (clang::tooling::TranslationUnitReplacements), as clang-tidy writes it.
#pragma once

#include "clang/Tooling/Core/Replacement.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace irregfix {

// One document: MainSourceFile (the input when there is one, else empty) and
// every file's edits, with absolute file paths.
std::string exportFixesYaml(const std::string &MainSourceFile,
                            const std::vector<clang::tooling::Replacements> &Edits);

} // namespace irregfix
