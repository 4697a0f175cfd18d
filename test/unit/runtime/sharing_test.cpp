// Host logic of the sharing layout (kLayoutSharing): its name in IRREGFIX_LAYOUT
// and the report, the shared-memory decision, the entry's byte accounting.
#include "address_ranges.h"
#include "cache.h"
#include "config.h"
#include "layout_policy.h"
#include "overlap_plan.h"
#include "sharing_payload.h"
#include "stats.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace irregfix;
using namespace irregfix::detail;

namespace {

TEST(Sharing, ParseAndName) {
  int l = 0;
  EXPECT_TRUE(parse_layout("sharing", &l));
  EXPECT_EQ(l, 4); // kLayoutSharing
  l = 0;
  EXPECT_TRUE(parse_layout("Share", &l));
  EXPECT_EQ(l, 4);
  EXPECT_FALSE(parse_layout("shared", &l));
  EXPECT_EQ(parse_config(nullptr, nullptr, nullptr, nullptr, "SHARING").layout, 4);
  EXPECT_STREQ(layout_name(4), "sharing");
  EXPECT_STREQ(layout_name(6), "unknown");
}

TEST(Sharing, StageBytesRoundUpToSixteen) {
  EXPECT_EQ(stage_bytes(0, 16), 0u);
  EXPECT_EQ(stage_bytes(-3, 16), 0u);
  EXPECT_EQ(stage_bytes(1, 4), 16u);
  EXPECT_EQ(stage_bytes(4, 4), 16u);
  EXPECT_EQ(stage_bytes(5, 4), 32u);
  EXPECT_EQ(stage_bytes(3, 12), 48u);
  EXPECT_EQ(stage_bytes(7, 12), 96u); // 84 rounded up
  EXPECT_EQ(stage_bytes(1000, 16), 16000u);
}

TEST(Sharing, SharedMemoryDecision) {
  const unsigned long long k48 = 48 * 1024, optin = 227 * 1024;
  unsigned long long raise = 7;
  // Within the kernel's current limit: nothing to set.
  EXPECT_EQ(plan_shared_memory(k48, 0, k48, optin, &raise), "");
  EXPECT_EQ(raise, 0u);
  // Over it, within the opt-in maximum: raise the limit to the need.
  EXPECT_EQ(plan_shared_memory(k48 + 16, 0, k48, optin, &raise), "");
  EXPECT_EQ(raise, k48 + 16);
  // An earlier raise holds.
  EXPECT_EQ(plan_shared_memory(100000, 0, 150000, optin, &raise), "");
  EXPECT_EQ(raise, 0u);
  // The kernel's static shared memory counts against the maximum.
  EXPECT_EQ(plan_shared_memory(optin - 1024, 1024, k48, optin, &raise), "");
  EXPECT_EQ(raise, optin - 1024);
  const std::string why = plan_shared_memory(optin - 1008, 1024, k48, optin, &raise);
  EXPECT_EQ(why, "sharing: a block's neighbours need " + std::to_string(optin - 1008) +
                     " bytes of shared memory; the kernel may have " + std::to_string(optin - 1024));
  EXPECT_EQ(raise, 0u);
  // Static memory past the maximum leaves nothing.
  EXPECT_NE(plan_shared_memory(16, optin + 16, k48, optin, &raise), "");
  EXPECT_EQ(plan_shared_memory(0, optin + 16, k48, optin, &raise), "");
}

TEST(Sharing, EntryBytesCountTheSets) {
  Entry e;
  e.buf_bytes = {4000};
  auto sets = std::make_unique<SharingPayload>();
  sets->uniq.bytes = 400;
  sets->block_first.bytes = 44;
  sets->local.bytes = 2000;
  e.payload = std::move(sets);
  EXPECT_EQ(e.bytes(), 6444u);
}

TEST(Sharing, StatsLine) {
  std::map<std::string, SiteStats> m;
  SiteStats &s = m["md.cu:9:1"];
  s.id = "md.cu:9:1";
  s.layout = 4;
  EXPECT_EQ(format_stats(m).find("distinct elements"), std::string::npos);
  s.shared_mean = 812.25;
  s.shared_max = 1024;
  s.shared_bytes = 16384;
  const std::string r = format_stats(m);
  EXPECT_NE(r.find("layout sharing"), std::string::npos) << r;
  EXPECT_NE(r.find("sharing: distinct elements a block 812.2 on average, 1024 at most (16384 bytes "
                   "of shared memory a block; threads as numbered)"),
            std::string::npos)
      << r;
  s.shared_in_order = true;
  const std::string o = format_stats(m);
  EXPECT_NE(o.find("of shared memory a block; threads in the locality order)"), std::string::npos) << o;
}

} // namespace
