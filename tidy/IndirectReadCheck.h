// irregfix-indirect-read: a warning at every indirect read of the file's
// kernels saying what irregfix makes of it — rewritten into a coalesced copy,
// or why not — as `irregfix --report` does, from the same analysis.
#pragma once

#include "Analysis/DeviceOnlyCode.h"

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

private:
  // Only the reads irregfix leaves as they are.
  const bool OnlyRefused;
  // Code only the device compilation sees, as the tool records it.
  std::unique_ptr<DeviceOnlyCode> DeviceOnly;
};

} // namespace irregfix::tidy
