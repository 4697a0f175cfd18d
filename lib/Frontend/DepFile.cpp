#include "Frontend/DepFile.h"
#include "Frontend/AtomicWrite.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace irregfix {

namespace {

class DependencyRecorder : public PPCallbacks {
public:
  DependencyRecorder(const SourceManager &SM, std::vector<std::string> &Files) : SM(SM), Files(Files) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind,
                   FileID) override {
    if (Reason != EnterFile)
      return;
    OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
    if (!F)
      return; // <built-in>, <command line>
    llvm::SmallString<256> Path(F->getName());
    llvm::sys::fs::make_absolute(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    if (Seen.insert(Path).second)
      Files.push_back(std::string(Path));
  }

private:
  const SourceManager &SM;
  std::vector<std::string> &Files;
  llvm::StringSet<> Seen;
};

// Make's escaping, as clang's DependencyFileGenerator does it: a space (and the
// backslashes before it) and `#` with a backslash, `$` doubled.
void escape(llvm::raw_ostream &OS, llvm::StringRef Path) {
  for (size_t I = 0; I < Path.size(); ++I) {
    char C = Path[I];
    if (C == ' ' || C == '\t') {
      for (size_t J = I; J > 0 && Path[J - 1] == '\\'; --J)
        OS << '\\';
      OS << '\\';
    } else if (C == '#') {
      OS << '\\';
    } else if (C == '$') {
      OS << '$';
    }
    OS << C;
  }
}

} // namespace

std::unique_ptr<PPCallbacks> newDependencyRecorder(const SourceManager &SM, std::vector<std::string> &Files) {
  return std::make_unique<DependencyRecorder>(SM, Files);
}

std::string formatDepFile(llvm::StringRef Target, const std::vector<std::string> &Deps) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  escape(OS, Target);
  OS << ":";
  for (const std::string &D : Deps) {
    OS << " \\\n  ";
    escape(OS, D);
  }
  OS << "\n";
  return Text;
}

bool writeDepFile(llvm::StringRef Path, llvm::StringRef Target, const std::vector<std::string> &Deps,
                  std::string &Error) {
  return writeAtomically(Path, formatDepFile(Target, Deps), Error);
}

} // namespace irregfix
