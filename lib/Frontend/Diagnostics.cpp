#include "Frontend/Diagnostics.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace irregfix {

void Messages::emit(DiagnosticsEngine::Level L, SourceLocation Loc, const std::string &Text) {
  unsigned ID = Diags.getCustomDiagID(L, "%0");
  Diags.Report(Loc, ID) << Text;
}

void Messages::remark(SourceLocation Loc, const std::string &Text) {
  LastWasShown = Remarks;
  if (Remarks)
    emit(DiagnosticsEngine::Remark, Loc, Text);
}

void Messages::warning(SourceLocation Loc, const std::string &Text) {
  LastWasShown = true;
  emit(DiagnosticsEngine::Warning, Loc, Text);
}

void Messages::note(SourceLocation Loc, const std::string &Text) {
  if (LastWasShown)
    emit(DiagnosticsEngine::Note, Loc, Text);
}

void Messages::error(SourceLocation Loc, const std::string &Text) {
  LastWasShown = true;
  emit(DiagnosticsEngine::Error, Loc, Text);
}

int toolError(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "irregfix") << Message << "\n";
  return 1;
}

} // namespace irregfix
