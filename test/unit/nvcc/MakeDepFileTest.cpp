// Reading the tool's depfiles and mending nvcc's.
#include "nvcc/MakeDepFile.h"
#include "nvcc/ToolRun.h"

#include "gtest/gtest.h"

using namespace irregfix::nvcc;
using Strings = std::vector<std::string>;

namespace {

TEST(MakeDepFile, ReadsTheFirstRulesPrerequisites) {
  EXPECT_EQ(readPrerequisites("k.cu: \\\n  /src/k.cu \\\n  /src/my\\ dir/a\\#1.h \\\n  /x/$$y.h\nother: z.h\n"),
            (Strings{"/src/k.cu", "/src/my dir/a#1.h", "/x/$y.h"}));
  EXPECT_EQ(readPrerequisites("a.o b.o: a.cu b.h\n"), (Strings{"a.cu", "b.h"}));
  EXPECT_EQ(readPrerequisites("a.o : a.cu \\\r\n b.h\r\n"), (Strings{"a.cu", "b.h"}));
  EXPECT_EQ(readPrerequisites(""), Strings{});
}

TEST(MakeDepFile, NamesTheOriginalAndAddsInlinedHeaders) {
  std::string Nvccs = "k.o : /cache/x/y/k.cu \\\n    /usr/include/stdio.h \\\n    /src/util.h\n\n/src/util.h:\n";
  std::string Mended = mendDepFile(Nvccs, "/cache/x/y/k.cu", "src/k.cu", {"/src/kernels.cuh", "/src/util.h"});
  EXPECT_EQ(Mended, "k.o : src/k.cu \\\n    /usr/include/stdio.h \\\n    /src/util.h \\\n  /src/kernels.cuh\n\n"
                    "/src/util.h:\n");
  // Escaped names, and nothing to add.
  EXPECT_EQ(mendDepFile("k.o: /my\\ cache/k.cu\n", "/my cache/k.cu", "my src/k.cu", {}), "k.o: my\\ src/k.cu\n");
}

TEST(ToolRun, InlinedFilesAreNamedByLineDirectives) {
  std::string Copy = lineDirective("src/k.cu") + "#include <cuda_runtime.h>\n#line 1 \"/src/kernels.cuh\"\n"
                     "__global__ void k();\n#line 3 \"src/k.cu\"\n#line 1 \"/src/q\\\"uote.h\"\n";
  EXPECT_EQ(inlinedFiles(Copy, "src/k.cu"), (Strings{"/src/kernels.cuh", "/src/q\"uote.h"}));
  EXPECT_EQ(lineDirective("a\\b\".cu"), "#line 1 \"a\\\\b\\\".cu\"\n");
}

} // namespace
