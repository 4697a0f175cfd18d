// irregfix's command line read into the driver's options (Frontend/Driver.h):
// its own options in three groups of --help, and the flags every Clang tool
// takes (-p, --extra-arg, --extra-arg-before, `-- <flags>`).
#pragma once

#include "Frontend/Driver.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <memory>

namespace irregfix {

// Fills Options and Compilations from argv; false after saying why (exit 1).
bool parseCommandLine(int argc, const char **argv, DriverOptions &Options,
                      std::unique_ptr<clang::tooling::CompilationDatabase> &Compilations);

} // namespace irregfix
