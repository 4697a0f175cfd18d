// irregfix runtime: the layouts the runtime builds, one registered row each:
// its Layout value, its names (the report's, and the spellings IRREGFIX_LAYOUT
// accepts), its key slot (its place in the table) and its view arm (the View
// fields its entries fill). layout_name, parse_layout (config.cpp),
// testing::set_layout, the site records (records.h) and fill_view
// (layout_policy.h) read this table; which layout a launch asks for and a
// build makes is the layout policy's (layout_policy.h). Host-only.
#pragma once

#include <irregfix/irregfix.cuh>

namespace irregfix {
namespace detail {

// The View fields an entry of a layout fills besides len, n, layout and width.
enum ViewField : unsigned {
  kViewSlices = 1,  // slice_start: SELL-32's slices
  kViewPerm = 2,    // perm: the thread permutation, when the entry has one
  kViewSharing = 4, // local, block_first, shared_bytes: the blocks' staged sets
  kViewInPlace = 8, // index: a neighbour list read in place (the data array is the copy)
  kViewLanes = 16,  // lanes: the rows run with several lanes each, the arrays read in place
};

struct LayoutRow {
  int layout;                // a Layout
  const char *name;          // the report's
  const char *spellings[4];  // what IRREGFIX_LAYOUT accepts, in lower case (unused: null)
  unsigned view;             // ViewField mask: its view arm
  // Its entries always run the threads permuted (else only when the entry
  // holds a permutation): they serve only launches that may permute.
  bool permuted;
};

// Every layout, in the order of its Layout value: row i is layout i + 1, and
// its key slot i + 1 (slot 0 is kLayoutKeyAuto's).
inline constexpr LayoutRow kLayoutRows[] = {
    {kLayoutEllColMajor, "ell-colmajor", {"ell"}, 0, false},
    {kLayoutSell32, "sell-32", {"sell32", "sell-32", "sell"}, kViewSlices, false},
    {kLayoutSell32Sigma, "sell-32-sigma", {"sell32s", "sell-32-sigma", "sigma"}, kViewSlices | kViewPerm, true},
    {kLayoutSharing, "sharing", {"sharing", "share"}, kViewPerm | kViewSharing, false},
    {kLayoutLocality, "locality", {"locality", "order"}, kViewSlices | kViewPerm | kViewInPlace, true},
    {kLayoutLanes, "lanes", {"lanes", "warp-rows"}, kViewLanes, false},
};
constexpr int kLayoutCount = sizeof(kLayoutRows) / sizeof(kLayoutRows[0]);

constexpr bool rows_in_layout_order() {
  for (int i = 0; i < kLayoutCount; ++i)
    if (kLayoutRows[i].layout != i + 1)
      return false;
  return true;
}
static_assert(rows_in_layout_order(), "row i of kLayoutRows is layout i + 1");

// The row of `layout`; null for kLayoutNone and any value without one.
inline const LayoutRow *layout_row(int layout) {
  return layout > 0 && layout <= kLayoutCount ? &kLayoutRows[layout - 1] : nullptr;
}

// Whether entries of `layout` fill View field `field` (a ViewField): what it
// keeps buffers for.
inline bool layout_has(int layout, unsigned field) {
  const LayoutRow *row = layout_row(layout);
  return row && (row->view & field);
}

// The row's name; "none" for kLayoutNone, "unknown" for any other value.
const char *layout_name(int layout);

// Cache-key value of a range entry whose layout auto chose (the layouts use
// their Layout values), so forced and auto entries never collide.
constexpr int kLayoutKeyAuto = 100;
// Slots of a site's record of its latest entry of each key layout:
// kLayoutKeyAuto's, then each row's.
constexpr int kLayoutKeySlots = kLayoutCount + 1;
inline int layout_slot(int key_layout) {
  return key_layout > 0 && key_layout < kLayoutKeySlots ? key_layout : 0;
}

// The name of a cache key's layout: "auto" for kLayoutKeyAuto, else layout_name's.
inline const char *key_layout_name(int key) { return key == kLayoutKeyAuto ? "auto" : layout_name(key); }

// The Layout one of IRREGFIX_LAYOUT's spellings (lower case) names, or 0 when none does.
int layout_named(const char *spelling);

// ell_cells(n, width), an ELL copy's cells, checked: false when they overflow.
inline bool ell_cells_of(long long n, long long width, unsigned long long *cells) {
  const auto threads = static_cast<unsigned long long>(ell_cells(n, 1)); // whole blocks of 32
  return !__builtin_mul_overflow(threads, static_cast<unsigned long long>(width), cells);
}

} // namespace detail
} // namespace irregfix
