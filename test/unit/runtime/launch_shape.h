// What the layout policy's tests share: the shape of an open launch.
#pragma once

#include "layout_policy.h"

// An open launch of `grid` blocks of `block` threads, one-dimensional; under
// auto, the selector's wish for it.
inline irregfix::detail::LaunchShape launch(unsigned grid, unsigned block,
                                            int wish = irregfix::detail::kLayoutKeyAuto) {
  irregfix::detail::LaunchShape l;
  l.open = true;
  l.grid = dim3(grid, 1, 1);
  l.block = dim3(block, 1, 1);
  l.wish = wish;
  return l;
}
