#pragma once
// Text that Windows tools (PowerShell 5's Out-File, Excel's "CSV UTF-8") write starts with a
// UTF-8 byte-order mark; it is an encoding marker, never data, so every reader skips it.
#include <string_view>

namespace rubric::files {

inline std::string_view without_byte_order_mark(std::string_view text) {
  return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

}  // namespace rubric::files
