#include "interpreter/builtins/per_axis_evidence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "operators/tensor/index_format.hpp"

namespace rubric {

namespace {

// "axis 1", "axes 0 and 2", "axes 0, 1 and 3".
std::string axes_text(const std::vector<std::size_t>& axes) {
  if (axes.size() == 1) return fmt::format("axis {}", axes[0]);
  std::string out = "axes ";
  for (std::size_t k = 0; k < axes.size(); ++k)
    out += fmt::format("{}{}", k == 0 ? "" : k + 1 == axes.size() ? " and " : ", ", axes[k]);
  return out;
}

// `t[3, :, 11]`: the kept axes indexed, the reduced ones whole.
std::string slice_text(const std::string& t, std::size_t rank, const std::vector<std::size_t>& reduced,
                       const std::vector<std::int64_t>& kept_index) {
  std::string out = t + "[";
  std::size_t next_kept = 0;
  for (std::size_t axis = 0; axis < rank; ++axis) {
    if (axis > 0) out += ", ";
    const bool is_reduced = std::find(reduced.begin(), reduced.end(), axis) != reduced.end();
    out += is_reduced ? ":" : std::to_string(kept_index[next_kept++]);
  }
  return out + "]";
}

}  // namespace

std::string per_axis_evidence(const PerAxisWorst& w) {
  const std::string over = fmt::format("{} over {}", w.metric, axes_text(w.reduced));
  const std::string value = w.exact ? fmt::format("{}", *w.exact) : fmt::format("{:.4g}", w.value);
  std::vector<std::size_t> kept;
  tensor::Shape kept_shape;
  for (std::size_t axis = 0; axis < w.input.size(); ++axis)
    if (std::find(w.reduced.begin(), w.reduced.end(), axis) == w.reduced.end()) {
      kept.push_back(axis);
      kept_shape.push_back(w.input[axis]);
    }
  if (kept.empty())
    return fmt::format("{}, one value for the whole of {} and {}: {}({}, {}) = {}", over, w.a, w.b, w.metric, w.a, w.b, value);
  const std::vector<std::int64_t> index = tensor::unravel_index(kept_shape, w.worst);
  const std::string worst_pair = fmt::format("{}({}, {}) = {}", w.metric, slice_text(w.a, w.input.size(), w.reduced, index),
                                             slice_text(w.b, w.input.size(), w.reduced, index), value);
  if (w.input.size() == 2) {
    const char* what = kept[0] == 0 ? "row" : "column";
    return fmt::format("{}, one value per {} of {} and {} ({} {}s): worst {} {}, {}", over, what, w.a, w.b, w.count, what, what,
                       index[0], worst_pair);
  }
  std::string count = fmt::format("{}", w.count);
  if (kept.size() > 1) {
    std::string product;
    for (auto d : kept_shape) product += (product.empty() ? "" : " × ") + std::to_string(d);
    count = product + " = " + count;
  }
  const std::string at = kept.size() == 1 ? std::to_string(index[0]) : tensor::format_index(kept_shape, w.worst);
  return fmt::format("{}, one value per index of {} of {} and {} ({}): worst index {}, {}", over, axes_text(kept), w.a, w.b, count,
                     at, worst_pair);
}

std::string operand_for_evidence(std::string text, const std::string& fallback) {
  if (text.size() >= 2 && text.front() == '`' && text.back() == '`') text = text.substr(1, text.size() - 2);
  else text.clear();  // not the argument's text (a file and key): name the tensor by its file
  constexpr std::size_t kLongest = 40;
  if (text.empty() || text.size() > kLongest) return fallback;
  // A name, a field chain, a call or an index can take `[...]` as written; anything else is parenthesised.
  int depth = 0;
  bool postfix = true;
  for (char c : text) {
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (depth == 0 && !(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) postfix = false;
  }
  return postfix ? text : "(" + text + ")";
}

}  // namespace rubric
