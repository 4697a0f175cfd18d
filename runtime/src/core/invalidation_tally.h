// irregfix runtime: the calls of irregfix_invalidate_all, counted without the
// runtime's lock. The generated code calls it around every call of code the
// tool cannot see, which a host loop may make millions of times: each host
// thread counts into a table of its own, by cause alone (a plain increment),
// or, under IRREGFIX_STATS, by cause and program point too (a small hash
// table of points, for the report's "most from"). The report and the testing
// hooks add every thread's table up, with the counts of the threads that have
// ended and of the program points a table let go.
// Host-only: test/unit/runtime counts with it without a GPU.
#pragma once

#include "invalidation_stats.h"

#include <atomic>
#include <cstdint>

namespace irregfix {
namespace detail {

// The program points a thread counts without a lock at once (a loop's calls
// come from a few): another point that hashes to a taken slot moves the
// slot's count into the registry first.
constexpr unsigned kTallySlotBits = 6;
constexpr unsigned kTallySlots = 1u << kTallySlotBits;
// Causes counted in a thread's table by cause alone (others take the lock).
constexpr int kTallyCauses = 8;

// Written by its thread alone, read by the report's thread under the
// registry's lock: relaxed atomics, incremented by a load and a store (no
// read-modify-write). `where` and `cause` change only under the lock.
struct TallySlot {
  std::atomic<const char *> where; // null: free
  std::atomic<int> cause;
  std::atomic<long long> calls;
};

// A thread's table. No initialisers: zero-initialised, so that the inline
// count reaches it directly, with no check of a thread-local's construction.
// Registered with the report (and its counts given back when the thread ends)
// at the thread's first call from a point not in it.
struct TallyTable {
  TallySlot slots[kTallySlots];                 // by cause and point
  std::atomic<long long> calls[kTallyCauses];   // by cause alone
  bool registered;
  bool ended; // the thread's objects are being destroyed
};

extern thread_local TallyTable this_thread_tally;

// How calls are counted: kTallyByPoint under IRREGFIX_STATS, kTallyByCause
// otherwise; kTallyUnknown until the first call reads the environment.
enum TallyMode : int { kTallyUnknown = 0, kTallyByCause = 1, kTallyByPoint = 2 };
extern std::atomic<int> tally_mode;
int tally_mode_from_env();

// The call when the inline count cannot take it: this thread's first call (its
// table is registered), a point not in its slot, a cause outside the table.
void tally_slow(int mode, int cause, const char *where);

inline unsigned tally_slot(int cause, const char *where) {
  const auto key = reinterpret_cast<std::uintptr_t>(where) ^ static_cast<std::uintptr_t>(cause);
  return static_cast<unsigned>((static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> (64 - kTallySlotBits));
}

// One call of irregfix_invalidate_all(cause, where) on this thread. `where`
// is kept by address until the report (a string literal of the program).
inline void tally_invalidate_all(int cause, const char *where) {
  int mode = tally_mode.load(std::memory_order_relaxed);
  if (mode == kTallyUnknown)
    mode = tally_mode_from_env();
  TallyTable &t = this_thread_tally;
  if (mode == kTallyByCause) {
    if (t.registered && cause >= 0 && cause < kTallyCauses) {
      std::atomic<long long> &c = t.calls[cause];
      c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      return;
    }
  } else if (where) {
    TallySlot &s = t.slots[tally_slot(cause, where)];
    if (s.where.load(std::memory_order_relaxed) == where && s.cause.load(std::memory_order_relaxed) == cause) {
      s.calls.store(s.calls.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      return;
    }
  }
  tally_slow(mode, cause, where);
}

// Adds the calls every thread counted (by cause and program point) to s.
void add_tallies(InvalidationStats &s);

// Forgets every count, and reads IRREGFIX_STATS again at the next call
// (testing::reset). A thread counting meanwhile may keep the call it was counting.
void clear_tallies();
// Counts by program point or by cause alone from now on, whatever
// IRREGFIX_STATS says (tests), until clear_tallies.
void set_tally_by_point(bool by_point);

} // namespace detail
} // namespace irregfix
