// irregfix-indirect-read: a warning at every indirect read of the file's
// kernels saying what irregfix makes of it — rewritten into a coalesced copy,
// or why not — and at every kernel whose launches run in a locality order, as
// `irregfix --report` does, from the same decision step (Decide/DecideFile.h).
#pragma once

#include "Decide/KernelDecision.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <memory>

namespace irregfix::tidy {

class IndirectReadCheck : public clang::tidy::ClangTidyCheck {
public:
  IndirectReadCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override { return LangOpts.CUDA; }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  void warn(const KernelDecision &D);

  // Only the reads irregfix leaves as they are.
  const bool OnlyRefused;
  // Code only the device compilation sees, as the tool records it.
  std::unique_ptr<DeviceOnlyCode> DeviceOnly;
  // The file's kernels, decided together once it is matched: a kernel's
  // verdicts may depend on another's (an ordered launch needs a site that
  // computes the order).
  std::vector<const clang::FunctionDecl *> Kernels;
  clang::ASTContext *Context = nullptr;
};

} // namespace irregfix::tidy
