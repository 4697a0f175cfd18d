// The count of irregfix_invalidate_all's calls that each host thread keeps
// without a lock (invalidation_tally.h): what the report adds up must be every
// call, by cause (and by program point under IRREGFIX_STATS), whichever thread
// made it, however many points a thread's table had to let go, and whether the
// thread still runs. Also the cache's emptiness as read without the lock.
// Needs no GPU.
#include "cache.h"
#include "invalidation_stats.h"
#include "invalidation_tally.h"

#include <irregfix/irregfix.cuh>

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

InvalidationStats tallied() {
  InvalidationStats s;
  add_tallies(s);
  return s;
}

long long calls_at(const InvalidationStats &s, int cause, const std::string &where) {
  auto c = s.all.find(cause);
  if (c == s.all.end())
    return 0;
  auto w = c->second.where.find(where);
  return w == c->second.where.end() ? 0 : w->second;
}

// clear_tallies, then counting by program point (as under IRREGFIX_STATS).
void start_by_point() {
  clear_tallies();
  set_tally_by_point(true);
}

TEST(InvalidationTally, CountsEveryCallByCauseAndPoint) {
  start_by_point();
  for (int i = 0; i < 1000; ++i) {
    tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:96");
    tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:101");
  }
  tally_invalidate_all(IRREGFIX_CAUSE_ENTRY, "main.cu:96"); // the same point, another cause
  tally_invalidate_all(IRREGFIX_CAUSE_ENTRY, nullptr);
  const InvalidationStats s = tallied();
  EXPECT_EQ(calls_at(s, IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:96"), 1000);
  EXPECT_EQ(calls_at(s, IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:101"), 1000);
  EXPECT_EQ(calls_at(s, IRREGFIX_CAUSE_ENTRY, "main.cu:96"), 1);
  EXPECT_EQ(calls_at(s, IRREGFIX_CAUSE_ENTRY, "?"), 1);
  EXPECT_EQ(s.all.at(IRREGFIX_CAUSE_UNSEEN_CALL).count.calls, 2000);
  EXPECT_EQ(s.all.at(IRREGFIX_CAUSE_ENTRY).count.calls, 2);
}

// Far more points than a thread's table holds: those let go are counted too.
TEST(InvalidationTally, PointsBeyondTheTableAreKept) {
  start_by_point();
  std::vector<std::string> points;
  for (int i = 0; i < 500; ++i)
    points.push_back("util.cu:" + std::to_string(i));
  for (int round = 0; round < 3; ++round)
    for (const std::string &p : points)
      tally_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, p.c_str());
  const InvalidationStats s = tallied();
  ASSERT_EQ(s.all.at(IRREGFIX_CAUSE_UNTRACED_KERNEL).where.size(), points.size());
  for (const std::string &p : points)
    EXPECT_EQ(calls_at(s, IRREGFIX_CAUSE_UNTRACED_KERNEL, p), 3) << p;
  EXPECT_EQ(s.all.at(IRREGFIX_CAUSE_UNTRACED_KERNEL).count.calls, 1500);
}

// Threads still running are read where they count; threads that ended left
// their counts behind.
TEST(InvalidationTally, ThreadsRunningAndEnded) {
  start_by_point();
  constexpr int kThreads = 4, kCalls = 100000;
  std::mutex mu;
  std::condition_variable cv;
  int counted = 0;
  bool release = false;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kCalls; ++i)
        tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "worker.cu:7");
      std::unique_lock<std::mutex> lock(mu);
      ++counted;
      cv.notify_all();
      cv.wait(lock, [&] { return release; });
    });
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return counted == kThreads; });
  }
  EXPECT_EQ(calls_at(tallied(), IRREGFIX_CAUSE_UNSEEN_CALL, "worker.cu:7"), kThreads * kCalls);
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(calls_at(tallied(), IRREGFIX_CAUSE_UNSEEN_CALL, "worker.cu:7"), kThreads * kCalls);
}

TEST(InvalidationTally, ClearForgetsEveryCount) {
  start_by_point();
  tally_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "a.cu:1");
  std::thread([] { tally_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "b.cu:2"); }).join();
  clear_tallies();
  EXPECT_TRUE(tallied().empty());
  set_tally_by_point(true);
  tally_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "a.cu:1"); // counted again from one
  EXPECT_EQ(calls_at(tallied(), IRREGFIX_CAUSE_LAUNCH_API, "a.cu:1"), 1);
}

// The report: the calls from the tallies, the copies turned stale from the
// runtime's own count, on one line a cause.
TEST(InvalidationTally, ReportJoinsCallsAndStaleCopies) {
  start_by_point();
  for (int i = 0; i < 5; ++i)
    tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:117");
  tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:142");
  InvalidationStats s;
  s.note_stale(IRREGFIX_CAUSE_UNSEEN_CALL, 2);
  add_tallies(s);
  EXPECT_EQ(format_invalidations(s),
            "irregfix: invalidations, whole program (calls, and the cached copies they turned stale)\n"
            "irregfix:   every copy (irregfix_invalidate_all), unseen call: 6 calls, 2 copies turned stale; "
            "most from main.cu:117 (5), main.cu:142 (1)\n");
  clear_tallies();
}

// Without IRREGFIX_STATS the calls are counted by cause alone, on running
// and ended threads, and in the report without their points.
TEST(InvalidationTally, ByCauseAlone) {
  clear_tallies();
  set_tally_by_point(false);
  for (int i = 0; i < 1000; ++i)
    tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:96");
  tally_invalidate_all(IRREGFIX_CAUSE_ENTRY, nullptr);
  tally_invalidate_all(42, "main.cu:7"); // a cause outside the thread's table
  std::thread([] {
    for (int i = 0; i < 10; ++i)
      tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "worker.cu:3");
  }).join();
  InvalidationStats s = tallied();
  EXPECT_EQ(s.all.at(IRREGFIX_CAUSE_UNSEEN_CALL).count.calls, 1010);
  EXPECT_TRUE(s.all.at(IRREGFIX_CAUSE_UNSEEN_CALL).where.empty());
  EXPECT_EQ(s.all.at(IRREGFIX_CAUSE_ENTRY).count.calls, 1);
  EXPECT_EQ(s.all.at(42).count.calls, 1);
  s.note_stale(IRREGFIX_CAUSE_UNSEEN_CALL, 3);
  EXPECT_NE(format_invalidations(s).find("unseen call: 1010 calls, 3 copies turned stale\n"), std::string::npos)
      << format_invalidations(s);
  clear_tallies();
}

// The mode follows IRREGFIX_STATS, read again after clear_tallies.
TEST(InvalidationTally, ModeFromTheEnvironment) {
  setenv("IRREGFIX_STATS", "1", 1);
  clear_tallies();
  tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:5");
  EXPECT_EQ(calls_at(tallied(), IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:5"), 1);
  unsetenv("IRREGFIX_STATS");
  clear_tallies();
  tally_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:5");
  const InvalidationStats s = tallied();
  EXPECT_EQ(calls_at(s, IRREGFIX_CAUSE_UNSEEN_CALL, "main.cu:5"), 0);
  EXPECT_EQ(s.all.at(IRREGFIX_CAUSE_UNSEEN_CALL).count.calls, 1);
  clear_tallies();
}

TEST(CacheEmptiness, ReadWithoutTheLockFollowsTheTable) {
  Cache c;
  EXPECT_TRUE(c.empty_unlocked());
  CacheKey a, b;
  a.site = "a";
  b.site = "b";
  c.insert(a);
  c.insert(b);
  EXPECT_FALSE(c.empty_unlocked());
  c.remove(a);
  EXPECT_FALSE(c.empty_unlocked());
  c.remove(b);
  EXPECT_TRUE(c.empty_unlocked());
  c.insert(a);
  EXPECT_EQ(c.clear().size(), 1u);
  EXPECT_TRUE(c.empty_unlocked());
}

} // namespace
