// irregfix runtime: the registered layouts. See layouts.h.
#include "layouts.h"

#include <cstring>

namespace irregfix {
namespace detail {

const char *layout_name(int layout) {
  if (layout == kLayoutNone)
    return "none";
  const LayoutRow *row = layout_row(layout);
  return row ? row->name : "unknown";
}

int layout_named(const char *spelling) {
  for (const LayoutRow &row : kLayoutRows)
    for (const char *s : row.spellings)
      if (s && std::strcmp(s, spelling) == 0)
        return row.layout;
  return 0;
}

} // namespace detail
} // namespace irregfix
