// The rewrite cache: entries keyed by the content of the files a rewrite read.
#include "nvcc/RewriteCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace irregfix::nvcc;
namespace fs = llvm::sys::fs;

namespace {

class RewriteCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
    llvm::sys::path::append(Dir, "irregfix-nvcc-cache");
    ASSERT_FALSE(fs::createUniqueDirectory(Dir, Dir));
  }
  void TearDown() override { fs::remove_directories(Dir); }
  std::string path(const char *Name) { return (Dir + "/" + Name).str(); }
  void write(const std::string &Path, const char *Text) {
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
    ASSERT_FALSE(EC);
  }
  // A finished run, as the tool leaves it.
  std::string run(const RewriteCache &Cache, const char *Key) {
    llvm::Expected<std::string> Run = Cache.startRun(Key);
    EXPECT_TRUE(bool(Run));
    write(*Run + "/outcome", "rewritten\n");
    return *Run;
  }
  llvm::SmallString<128> Dir;
};

TEST_F(RewriteCacheTest, ContentKeyFollowsContentAndNames) {
  write(path("a.h"), "int a;");
  write(path("b.h"), "int a;");
  auto A = contentKey({path("a.h")});
  ASSERT_TRUE(A);
  EXPECT_EQ(A->size(), 32u);
  EXPECT_EQ(contentKey({path("a.h")}), A);
  EXPECT_NE(contentKey({path("b.h")}), A); // same content, another file
  write(path("a.h"), "int b;");
  EXPECT_NE(contentKey({path("a.h")}), A);
  EXPECT_FALSE(contentKey({path("missing.h")}));
  EXPECT_NE(hashHex("x"), hashHex("y"));
}

TEST_F(RewriteCacheTest, AnEntryServesWhileItsFilesAreUnchanged) {
  RewriteCache Cache(path("cache"));
  write(path("k.cu"), "#include \"k.h\"");
  write(path("k.h"), "int v;");
  EXPECT_FALSE(Cache.find("request"));
  auto Entry = Cache.publish("request", run(Cache, "request"), {path("k.cu"), path("k.h")});
  ASSERT_TRUE(bool(Entry)) << llvm::toString(Entry.takeError());
  EXPECT_EQ(Cache.find("request"), *Entry);
  EXPECT_FALSE(Cache.find("another request"));

  write(path("k.h"), "int w;"); // a header changed: no entry for this content
  EXPECT_FALSE(Cache.find("request"));
  auto Second = Cache.publish("request", run(Cache, "request"), {path("k.cu"), path("k.h")});
  ASSERT_TRUE(bool(Second));
  EXPECT_NE(*Second, *Entry);
  EXPECT_EQ(Cache.find("request"), *Second);
}

TEST_F(RewriteCacheTest, TheSameRewritePublishedTwiceKeepsOneEntry) {
  RewriteCache Cache(path("cache"));
  write(path("k.cu"), "int k;");
  std::string First = run(Cache, "request"), Second = run(Cache, "request");
  EXPECT_NE(First, Second);
  auto A = Cache.publish("request", First, {path("k.cu")});
  auto B = Cache.publish("request", Second, {path("k.cu")});
  ASSERT_TRUE(A && B);
  EXPECT_EQ(*A, *B);
  EXPECT_FALSE(fs::exists(Second)); // the later run is dropped
}

TEST_F(RewriteCacheTest, AnUnwritableRootIsAnError) {
  write(path("file"), "");
  RewriteCache Cache(path("file"));
  llvm::Expected<std::string> Run = Cache.startRun("request");
  ASSERT_FALSE(bool(Run));
  EXPECT_NE(llvm::toString(Run.takeError()).find("cannot create the cache directory"), std::string::npos);
}

} // namespace
