// irregfix-nvcc's cache of rewritten sources, safe for parallel builds.
//
//   <root>/<request key>/files          what the last rewrite of this request read, one path a line
//   <root>/<request key>/<content key>/ one finished rewrite: `outcome`, the rewritten file under the
//                                       input's own name, its --report, the tool's log and depfile
//   <root>/<request key>/run-XXXXXX/    a rewrite in progress
//
// The request key covers what is known before the tool runs (the input's name
// and content, the tool and its flags, the working directory); the content key
// covers the content of every file the rewrite read (the input and the headers
// it includes), so editing a header makes a new entry. Entries are written in a
// run directory and renamed into place: a reader sees a whole entry or none, and
// two builds that rewrite the same file at once both end with one entry.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace irregfix::nvcc {

// 128 bits of xxh3, as 32 hex digits.
std::string hashHex(llvm::StringRef Data);

// The key of the files' current content (name and content of each, in order);
// nothing when one cannot be read.
std::optional<std::string> contentKey(const std::vector<std::string> &Files);

class RewriteCache {
public:
  explicit RewriteCache(std::string Root) : Root(std::move(Root)) {}
  const std::string &root() const { return Root; }

  // The entry of RequestKey whose files still hold the content the rewrite read.
  std::optional<std::string> find(llvm::StringRef RequestKey) const;

  // A new, empty directory for one rewrite of RequestKey.
  llvm::Expected<std::string> startRun(llvm::StringRef RequestKey) const;

  // Makes RunDir the entry for the content of FilesRead, and FilesRead the list
  // find() checks; the entry's directory. A run whose entry another build made
  // meanwhile is dropped in favour of that one.
  llvm::Expected<std::string> publish(llvm::StringRef RequestKey, llvm::StringRef RunDir,
                                      const std::vector<std::string> &FilesRead) const;

  // Removes a run that is not published.
  void discard(llvm::StringRef RunDir) const;

private:
  std::string requestDir(llvm::StringRef RequestKey) const;
  std::string Root;
};

} // namespace irregfix::nvcc
