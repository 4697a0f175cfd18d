// Kernel launches written with split brackets. nvcc accepts
// `k << < grid, block >> > (args)` (Rodinia writes its launches so); Clang reads
// a launch only from the tokens <<< and >>>. The tool therefore parses every
// file through a file system that joins such brackets: `<<` `<` becomes `<<<`
// and `>>` `>` becomes `>>>`, the blanks between them moved after them, so that
// every offset and line stays where it was. The edits then apply to the text
// on disk unchanged, and what the tool writes keeps the user's spelling.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <optional>
#include <string>

namespace irregfix {

// Text with the brackets of each split launch joined (the same length), or
// nothing when it has none. Only a `<<` `<` not after `operator` (as in
// `operator<< <>`) opens a launch, and only a `>>` `>` (or `>>>`) at the same
// depth of parentheses, before a `(`, closes it.
std::optional<std::string> joinLaunchBrackets(llvm::StringRef Text);

// A file system that shows each file through joinLaunchBrackets, and keeps the
// text on disk of each file it showed changed.
class LaunchBracketFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit LaunchBracketFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base)
      : ProxyFileSystem(std::move(Base)) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override;

  // The text on disk of the file at Path (any name of it), when it was shown
  // changed.
  std::optional<std::string> original(const llvm::Twine &Path);

private:
  std::map<llvm::sys::fs::UniqueID, std::string> Originals;
};

} // namespace irregfix
