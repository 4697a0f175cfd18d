#include "IndirectReadCheck.h"

#include "Decide/DecideFile.h"
#include "Frontend/ReportRows.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/YAMLParser.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace irregfix::tidy {

// Options are read and stored as strings: the bool overloads of OptionsView are
// templates whose names GCC and Clang mangle differently, so a plugin built by
// GCC would not find them in a clang-tidy built by Clang.
static bool parseBoolOption(std::optional<llvm::StringRef> Value, bool Default) {
  if (!Value)
    return Default;
  if (std::optional<bool> B = llvm::yaml::parseBool(*Value))
    return *B;
  long long N = 0;
  return Value->getAsInteger(10, N) ? Default : N != 0;
}

IndirectReadCheck::IndirectReadCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), OnlyRefused(parseBoolOption(Options.get("OnlyRefused"), false)) {}

void IndirectReadCheck::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "OnlyRefused", OnlyRefused ? "true" : "false");
}

void IndirectReadCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP, Preprocessor *) {
  DeviceOnly = std::make_unique<DeviceOnlyCode>(*PP);
  PP->addPPCallbacks(DeviceOnly->recorder());
}

void IndirectReadCheck::registerMatchers(MatchFinder *Finder) {
  // Kernels as written: a kernel template once, through its text (the analysis
  // visits its instantiations itself).
  Finder->addMatcher(functionDecl(hasAttr(attr::CUDAGlobal), isDefinition(), unless(isTemplateInstantiation()),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void IndirectReadCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  Context = Result.Context;
  if (!Kernel->isInvalidDecl())
    Kernels.push_back(Kernel);
}

void IndirectReadCheck::onEndOfTranslationUnit() {
  const std::vector<const FunctionDecl *> Found = std::move(Kernels);
  Kernels.clear();
  // As the tool: no verdicts for a file that does not compile.
  if (Found.empty() || !Context || Context->getDiagnostics().hasErrorOccurred())
    return;
  for (const KernelDecision &D : decideFile(Found, *Context, DeviceOnly.get(), DecideOptions()))
    warn(D);
}

void IndirectReadCheck::warn(const KernelDecision &D) {
  const KernelInfo &Info = D.Info;
  ASTContext &Ctx = *Context;
  if (Info.OrderOnly && !OnlyRefused)
    diag(Info.Kernel->getLocation(), "kernel '%0': irregfix can run its threads in a locality order that a site "
                                     "over as many threads computes, so that its indirect reads fall near each "
                                     "other's (pattern %1)")
        << Info.Kernel->getNameAsString() << pattern_name(kPatternOrder);
  for (const ReadVerdict &V : Info.Reads) {
    if (OnlyRefused && V.Verdict != ReadVerdict::NotRewritten)
      continue;
    const ReadReport R = readReport(V, Info, Ctx);
    const std::string Read = "indirect read of '" + R.Array + "' in kernel '" + R.Kernel + "'";
    const std::string Pattern = "(pattern " + (R.Pattern.empty() ? std::string("none") : R.Pattern) + ")";
    switch (V.Verdict) {
    case ReadVerdict::Rewritten:
      if (V.Pattern == kPatternScatter) // the element an update adds to
        diag(V.Read->getBeginLoc(), "%0: irregfix can rewrite its update into an inspector-executor %1")
            << Read << Pattern;
      else
        diag(V.Read->getBeginLoc(), "%0: irregfix can rewrite it into a coalesced copy %1") << Read << Pattern;
      break;
    case ReadVerdict::IndexRemapped:
      diag(V.Read->getBeginLoc(), "%0: irregfix can rewrite only its index %1: %2") << Read << Pattern << R.Reason;
      break;
    case ReadVerdict::NotRewritten:
      diag(V.Read->getBeginLoc(), "%0: irregfix cannot rewrite it %1: %2") << Read << Pattern << R.Reason;
      break;
    case ReadVerdict::Renumbered: // settled by the file's domain, which the check does not form
      diag(V.Read->getBeginLoc(), "%0: irregfix leaves it as written %1: %2") << Read << Pattern << R.Reason;
      break;
    }
  }
}

} // namespace irregfix::tidy
