#include "Frontend/RewriteAction.h"
#include "Analysis/DeviceOnlyCode.h"
#include "Frontend/DepFile.h"
#include "Frontend/FileRewrite.h"
#include "Frontend/RewritableFiles.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace irregfix {

namespace {

class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(const RewriteOptions &Opts, std::vector<FileResult> *Results)
      : Opts(Opts), Results(Results) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    Results->emplace_back();
    FileResult &R = Results->back();
    R.Path = File.str();
    const SourceManager &SM = CI.getSourceManager();
    Files = std::make_unique<RewritableFiles>(CI.getPreprocessor(), Opts.NotRewritten);
    CI.getPreprocessor().addPPCallbacks(Files->recorder());
    CI.getPreprocessor().addPPCallbacks(newDependencyRecorder(SM, R.Dependencies));
    DeviceOnly = std::make_unique<DeviceOnlyCode>(CI.getPreprocessor());
    CI.getPreprocessor().addPPCallbacks(DeviceOnly->recorder());
    return newFileRewrite(CI, Opts, R, *Files, *DeviceOnly);
  }

private:
  const RewriteOptions &Opts;
  std::vector<FileResult> *Results;
  std::unique_ptr<RewritableFiles> Files;
  std::unique_ptr<DeviceOnlyCode> DeviceOnly;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const RewriteOptions &Opts, std::vector<FileResult> *Results) : Opts(Opts), Results(Results) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Opts, Results);
  }

private:
  RewriteOptions Opts;
  std::vector<FileResult> *Results;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newRewriteActionFactory(const RewriteOptions &Options, std::vector<FileResult> *Results) {
  return std::make_unique<Factory>(Options, Results);
}

} // namespace irregfix
