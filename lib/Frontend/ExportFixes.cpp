#include "Frontend/ExportFixes.h"

#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace irregfix {

static std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string exportFixesYaml(const std::string &MainSourceFile,
                            const std::vector<clang::tooling::Replacements> &Edits) {
  clang::tooling::TranslationUnitReplacements TU;
  TU.MainSourceFile = MainSourceFile.empty() ? "" : absolute(MainSourceFile);
  for (const clang::tooling::Replacements &File : Edits)
    for (const clang::tooling::Replacement &R : File)
      TU.Replacements.emplace_back(absolute(R.getFilePath()), R.getOffset(), R.getLength(),
                                   R.getReplacementText());
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << TU;
  return Text;
}

} // namespace irregfix
