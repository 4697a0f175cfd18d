// Something an analysis computes once per AST (an ASTContext) and keeps until
// that AST goes: the parent map, the write sets of a file's functions. Each
// context's T is made empty at its first use and freed with the context; a
// thread keeps the one it used last, valid while no context's T is dropped.
#pragma once

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace irregfix {

template <typename T> class PerContext {
public:
  // Ctx's T (a fresh one at the first call for Ctx).
  static T &of(clang::ASTContext &Ctx) {
    Registry &R = registry();
    if (Last.Ctx != &Ctx || Last.Drops != R.Drops.load()) {
      std::lock_guard<std::mutex> Guard(R.Lock);
      std::unique_ptr<T> &Slot = R.Of[&Ctx];
      if (!Slot) {
        Slot = std::make_unique<T>();
        Ctx.AddDeallocation(drop, &Ctx);
      }
      Last = {&Ctx, Slot.get(), R.Drops.load()};
    }
    return *Last.Value;
  }

  // Replaces Ctx's T, if it has one, with a fresh one.
  static void reset(const clang::ASTContext &Ctx) {
    Registry &R = registry();
    std::lock_guard<std::mutex> Guard(R.Lock);
    auto It = R.Of.find(&Ctx);
    if (It == R.Of.end())
      return;
    It->second = std::make_unique<T>();
    ++R.Drops;
  }

private:
  struct Registry {
    std::mutex Lock;
    llvm::DenseMap<const clang::ASTContext *, std::unique_ptr<T>> Of;
    std::atomic<uint64_t> Drops{0};
  };
  static Registry &registry() {
    static Registry R;
    return R;
  }
  static void drop(void *Ctx) {
    Registry &R = registry();
    std::lock_guard<std::mutex> Guard(R.Lock);
    R.Of.erase(static_cast<const clang::ASTContext *>(Ctx));
    ++R.Drops;
  }
  struct LastUsed {
    const clang::ASTContext *Ctx = nullptr;
    T *Value = nullptr;
    uint64_t Drops = 0;
  };
  static thread_local LastUsed Last;
};

template <typename T> thread_local typename PerContext<T>::LastUsed PerContext<T>::Last;

} // namespace irregfix
