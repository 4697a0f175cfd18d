#include "RewriteCache.h"

#include "Frontend/AtomicWrite.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace irregfix::nvcc {

namespace fs = llvm::sys::fs;

namespace {

constexpr llvm::StringLiteral FilesReadList = "files";

std::string hex(llvm::XXH128_hash_t H) {
  return llvm::utohexstr(H.high64, /*LowerCase=*/true, 16) + llvm::utohexstr(H.low64, true, 16);
}

llvm::Error error(const llvm::Twine &Message) {
  return llvm::createStringError(std::make_error_code(std::errc::io_error), Message);
}

} // namespace

std::string hashHex(llvm::StringRef Data) {
  return hex(llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Data)));
}

std::optional<std::string> contentKey(const std::vector<std::string> &Files) {
  std::string Material;
  for (const std::string &F : Files) {
    auto Buffer = llvm::MemoryBuffer::getFile(F, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return std::nullopt;
    Material += F;
    Material += '\0';
    Material += hashHex((*Buffer)->getBuffer());
    Material += '\n';
  }
  return hashHex(Material);
}

std::string RewriteCache::requestDir(llvm::StringRef RequestKey) const {
  llvm::SmallString<256> Dir(Root);
  llvm::sys::path::append(Dir, RequestKey);
  return std::string(Dir);
}

std::optional<std::string> RewriteCache::find(llvm::StringRef RequestKey) const {
  const std::string Dir = requestDir(RequestKey);
  auto List = llvm::MemoryBuffer::getFile(Dir + "/" + FilesReadList.str(), /*IsText=*/true);
  if (!List)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*List)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::optional<std::string> Key = contentKey(std::vector<std::string>(Lines.begin(), Lines.end()));
  if (!Key)
    return std::nullopt;
  std::string Entry = Dir + "/" + *Key;
  if (!fs::is_regular_file(Entry + "/outcome"))
    return std::nullopt;
  return Entry;
}

llvm::Expected<std::string> RewriteCache::startRun(llvm::StringRef RequestKey) const {
  const std::string Dir = requestDir(RequestKey);
  if (std::error_code EC = fs::create_directories(Dir))
    return error("cannot create the cache directory '" + Dir + "': " + EC.message());
  llvm::SmallString<256> Run;
  if (std::error_code EC = fs::createUniqueDirectory(Dir + "/run", Run))
    return error("cannot write in the cache directory '" + Dir + "': " + EC.message());
  return std::string(Run);
}

llvm::Expected<std::string> RewriteCache::publish(llvm::StringRef RequestKey, llvm::StringRef RunDir,
                                                  const std::vector<std::string> &FilesRead) const {
  std::optional<std::string> Key = contentKey(FilesRead);
  if (!Key)
    return error("a file the rewrite read is gone");
  const std::string Dir = requestDir(RequestKey);
  const std::string Entry = Dir + "/" + *Key;
  if (std::error_code EC = fs::rename(RunDir, Entry)) {
    // Another build published the same rewrite first (the directory is not empty).
    if (!fs::is_regular_file(Entry + "/outcome"))
      return error("cannot write the cache entry '" + Entry + "': " + EC.message());
    discard(RunDir);
  }
  std::string Error;
  if (!writeAtomically(Dir + "/" + FilesReadList.str(), llvm::join(FilesRead, "\n") + "\n", Error))
    return error(Error);
  return Entry;
}

void RewriteCache::discard(llvm::StringRef RunDir) const { fs::remove_directories(RunDir, /*IgnoreErrors=*/true); }

} // namespace irregfix::nvcc
