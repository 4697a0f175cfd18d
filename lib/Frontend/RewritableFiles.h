// Which files of a translation unit the tool rewrites: the main file and every
// user file it includes, directly or through other such files. Not system
// headers, nor files under the directories named (the CUDA toolkit, Clang's
// resource directory, irregfix's stub headers). Kernels defined in these files
// are analysed and transformed, and their launches and host calls rewritten.
// The one place that says so: the collector, the host-write analysis and the
// rewriters ask it.
#pragma once

#include "Frontend/IncludeTree.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace irregfix {

class RewritableFiles {
public:
  RewritableFiles(const clang::Preprocessor &PP, const std::vector<std::string> &NotRewritten);

  // Callbacks that record the files as the preprocessor enters them: add them
  // to the preprocessor before it starts.
  std::unique_ptr<clang::PPCallbacks> recorder();

  // Whether L (where it is expanded) is in a rewritable file.
  bool contains(clang::SourceLocation L) const;
  // The path by which edits name a file (absolute, without dots), from any
  // name of it; empty when the file is not rewritable.
  std::string pathOf(llvm::StringRef Name) const;
  std::string pathOf(clang::FileID F) const;

  // Offsets in the file where its #include, #pragma once and include-guard
  // #define lines end: where the runtime include may go.
  std::vector<unsigned> directiveEnds(const std::string &Path) const;
  // Every rewritable file with its text, no edits yet, and their entries.
  IncludeTree tree() const;

private:
  friend class FileRecorder;
  void entered(clang::FileID F, clang::SrcMgr::CharacteristicKind Kind);
  void included(clang::SourceLocation Hash, clang::CharSourceRange Name, bool Angled,
                clang::OptionalFileEntryRef File, llvm::StringRef SearchPath);
  void skipped();
  void pragmaOnce(clang::SourceLocation Loc);
  void ifndef(clang::SourceLocation Loc, llvm::StringRef Macro);
  void defined(clang::SourceLocation Loc, llvm::StringRef Macro);
  bool userFile(clang::FileID F, clang::SrcMgr::CharacteristicKind Kind) const;
  unsigned lineEnd(clang::SourceLocation L) const;

  const clang::Preprocessor &PP;
  const clang::SourceManager &SM;
  std::vector<std::string> NotRewritten; // real paths of directories
  std::set<clang::FileID> Rewritable;
  std::map<const clang::FileEntry *, std::string> Paths; // every rewritable file's path
  std::vector<const clang::FileEntry *> Order;           // the same files, in the order first entered
  std::vector<FileEntered> Entries;
  std::vector<clang::FileID> EntryFiles; // the file ID of each entry
  std::map<clang::FileID, unsigned> EntryOf;
  std::vector<std::vector<const clang::FileEntry *>> Targets; // per entry and include: the file it names
  std::map<const clang::FileEntry *, std::set<unsigned>> Ends; // directiveEnds()
  std::map<const clang::FileEntry *, std::vector<unsigned>> PragmaOnce;
  struct Guard {
    std::string Macro;   // the macro the file's first #ifndef tests
    bool Closed = false; // the first #define after it was seen
    unsigned End = 0;    // where that #define's line ends, when it defines Macro
  };
  std::map<clang::FileID, Guard> Guards;
  std::pair<int, int> Pending{-1, -1}; // the #include just processed: entry, include
};

} // namespace irregfix
