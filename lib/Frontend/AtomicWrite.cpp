#include "Frontend/AtomicWrite.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace irregfix {

namespace {

// A temporary file beside Path holding Text; empty on error.
std::string temporary(llvm::StringRef Path, llvm::StringRef Text, std::string &Error) {
  llvm::SmallString<256> Model(Path);
  Model += ".irregfix-%%%%%%.tmp";
  int FD;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp)) {
    Error = "cannot create a temporary file next to '" + Path.str() + "': " + EC.message();
    return "";
  }
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    OS.clear_error();
    llvm::sys::fs::remove(Temp);
    Error = "cannot write '" + Path.str() + "'";
    return "";
  }
  return std::string(Temp);
}

bool rename(const std::string &Temp, llvm::StringRef Path, std::string &Error) {
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    Error = "cannot write '" + Path.str() + "': " + EC.message();
    return false;
  }
  return true;
}

} // namespace

bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text, std::string &Error) {
  std::string Temp = temporary(Path, Text, Error);
  return !Temp.empty() && rename(Temp, Path, Error);
}

bool writeAllOrNothing(const std::vector<FileWrite> &Files, std::string &Error) {
  std::vector<std::string> Temps;
  for (const FileWrite &F : Files) {
    Temps.push_back(temporary(F.Path, F.Text, Error));
    if (Temps.back().empty()) {
      for (const std::string &T : Temps)
        if (!T.empty())
          llvm::sys::fs::remove(T);
      return false;
    }
  }
  for (size_t I = 0; I < Files.size(); ++I) {
    if (rename(Temps[I], Files[I].Path, Error))
      continue;
    for (size_t J = I + 1; J < Files.size(); ++J)
      llvm::sys::fs::remove(Temps[J]);
    std::string Lost;
    for (size_t J = 0; J < I; ++J) {
      std::string Ignored;
      if (!writeAtomically(Files[J].Path, Files[J].Original, Ignored))
        Lost += (Lost.empty() ? "'" : ", '") + Files[J].Path + "'";
    }
    Error += Lost.empty() ? "; no file was changed" : "; and these could not be put back: " + Lost;
    return false;
  }
  return true;
}

} // namespace irregfix
