#include "grammar/source.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace rubric {

SourceFile::SourceFile(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::shared_ptr<const SourceFile> SourceFile::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open the file for reading", path));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw std::runtime_error(fmt::format("{}: read error", path));
  std::string text = buffer.str();
  if (text.size() >= 0xFFFFFFFFu) throw std::runtime_error(fmt::format("{}: file larger than 4 GiB", path));
  return std::make_shared<const SourceFile>(path, std::move(text));
}

LineColumn SourceFile::position(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  // The last line start not after offset.
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  std::uint32_t line = static_cast<std::uint32_t>(it - line_starts_.begin());
  return {line, offset - line_starts_[line - 1] + 1};
}

std::string_view SourceFile::line_text(std::uint32_t offset) const {
  LineColumn lc = position(offset);
  std::uint32_t begin = line_starts_[lc.line - 1];
  std::uint32_t end = lc.line < line_starts_.size() ? line_starts_[lc.line] - 1
                                                    : static_cast<std::uint32_t>(text_.size());
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::string_view SourceFile::slice(SourceRange r) const {
  std::uint32_t size = static_cast<std::uint32_t>(text_.size());
  std::uint32_t begin = std::min(r.begin, size);
  std::uint32_t end = std::min(std::max(r.end, begin), size);
  return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceFile::location(std::uint32_t offset) const {
  LineColumn lc = position(offset);
  return fmt::format("{}:{}:{}", name_, lc.line, lc.column);
}

}  // namespace rubric
