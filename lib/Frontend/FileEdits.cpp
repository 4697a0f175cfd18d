#include "Frontend/FileEdits.h"

using namespace clang;

namespace irregfix {

bool FileEdits::add(const tooling::Replacement &R) {
  const std::string Path = Files.pathOf(R.getFilePath());
  auto It = Tree.Files.find(Path);
  if (Path.empty() || It == Tree.Files.end()) {
    Msg.error(SourceLocation(), "internal error: an edit to '" + R.getFilePath().str() +
                                    "', which is not a file the tool rewrites");
    return false;
  }
  tooling::Replacement Named(Path, R.getOffset(), R.getLength(), R.getReplacementText());
  if (llvm::is_contained(It->second.Edits, Named))
    return true;
  if (llvm::Error E = It->second.Edits.add(Named)) {
    Msg.error(SourceLocation(), "internal error while combining edits: " + llvm::toString(std::move(E)));
    return false;
  }
  return true;
}

void FileEdits::dropAll() {
  for (auto &[Path, File] : Tree.Files)
    File.Edits = tooling::Replacements();
}

} // namespace irregfix
