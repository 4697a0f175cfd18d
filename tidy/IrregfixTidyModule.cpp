// The module clang-tidy finds in libIrregfixTidy.so when loaded with --load.
#include "IndirectReadCheck.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace irregfix::tidy {

class IrregfixTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<IndirectReadCheck>("irregfix-indirect-read");
  }
};

} // namespace irregfix::tidy

static clang::tidy::ClangTidyModuleRegistry::Add<irregfix::tidy::IrregfixTidyModule>
    IrregfixTidyModuleEntry("irregfix-module", "irregfix's verdicts on indirect reads in CUDA kernels.");
