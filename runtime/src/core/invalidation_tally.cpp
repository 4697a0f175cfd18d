// irregfix runtime: the per-thread count of irregfix_invalidate_all's calls.
// See invalidation_tally.h.
#include "invalidation_tally.h"

#include "config.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace irregfix {
namespace detail {

thread_local TallyTable this_thread_tally;
std::atomic<int> tally_mode{kTallyUnknown};

int tally_mode_from_env() {
  const int mode = parse_flag(std::getenv("IRREGFIX_STATS")) ? kTallyByPoint : kTallyByCause;
  int unknown = kTallyUnknown;
  tally_mode.compare_exchange_strong(unknown, mode, std::memory_order_relaxed);
  return tally_mode.load(std::memory_order_relaxed);
}

namespace {

struct Registry {
  std::mutex mu;
  std::vector<TallyTable *> live;
  InvalidationStats moved; // counts of slots let go and of threads that ended
};

// Never destroyed: threads may end after the program's static objects are gone.
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

// With the registry's lock held: a table's counts into `to`.
void add_table(const TallyTable &t, InvalidationStats &to) {
  for (const TallySlot &s : t.slots) {
    const char *where = s.where.load(std::memory_order_relaxed);
    const long long calls = s.calls.load(std::memory_order_relaxed);
    if (where && calls > 0)
      to.note_calls(s.cause.load(std::memory_order_relaxed), where, calls);
  }
  for (int cause = 0; cause < kTallyCauses; ++cause)
    if (const long long calls = t.calls[cause].load(std::memory_order_relaxed); calls > 0)
      to.note_count(cause, calls);
}

// With the registry's lock held: a table's counts forgotten (its points' slots
// freed, so that its next calls take the slow path).
void empty_table(TallyTable &t) {
  for (TallySlot &s : t.slots) {
    s.where.store(nullptr, std::memory_order_relaxed);
    s.calls.store(0, std::memory_order_relaxed);
  }
  for (std::atomic<long long> &c : t.calls)
    c.store(0, std::memory_order_relaxed);
}

// Destroyed with the thread's objects: its table's counts go to the registry.
struct Unregister {
  ~Unregister() {
    TallyTable &t = this_thread_tally;
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    t.ended = true;
    t.registered = false; // later calls take the slow path
    add_table(t, r.moved);
    empty_table(t);
    r.live.erase(std::find(r.live.begin(), r.live.end(), &t));
  }
};

} // namespace

void tally_slow(int mode, int cause, const char *where) {
  TallyTable &t = this_thread_tally;
  Registry &r = registry();
  if (!t.registered && !t.ended) {
    static thread_local Unregister unregister;
    (void)unregister;
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.push_back(&t);
    t.registered = true;
  }
  std::lock_guard<std::mutex> lock(r.mu);
  const bool in_table = !t.ended && cause >= 0 && cause < kTallyCauses;
  if (mode == kTallyByCause) {
    if (in_table)
      t.calls[cause].store(t.calls[cause].load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    else
      r.moved.note_count(cause, 1);
    return;
  }
  if (!where)
    where = "?";
  if (t.ended) { // a call from a static object's destructor, after the thread's objects
    r.moved.note_calls(cause, where, 1);
    return;
  }
  TallySlot &s = t.slots[tally_slot(cause, where)];
  if (s.where.load(std::memory_order_relaxed) == where && s.cause.load(std::memory_order_relaxed) == cause) {
    s.calls.store(s.calls.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return;
  }
  if (const char *held = s.where.load(std::memory_order_relaxed); held)
    r.moved.note_calls(s.cause.load(std::memory_order_relaxed), held, s.calls.load(std::memory_order_relaxed));
  s.where.store(where, std::memory_order_relaxed);
  s.cause.store(cause, std::memory_order_relaxed);
  s.calls.store(1, std::memory_order_relaxed);
}

void add_tallies(InvalidationStats &s) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto &kv : r.moved.all) {
    CauseStats &c = s.all[kv.first];
    c.count.calls += kv.second.count.calls;
    for (const auto &w : kv.second.where)
      c.where[w.first] += w.second;
  }
  for (const TallyTable *t : r.live)
    add_table(*t, s);
}

void clear_tallies() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.moved = InvalidationStats{};
  for (TallyTable *t : r.live)
    empty_table(*t);
  tally_mode.store(kTallyUnknown, std::memory_order_relaxed);
}

void set_tally_by_point(bool by_point) {
  tally_mode.store(by_point ? kTallyByPoint : kTallyByCause, std::memory_order_relaxed);
}

} // namespace detail
} // namespace irregfix
