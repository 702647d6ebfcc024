#pragma once
// A rubric source text with its name, and the mapping from byte offsets to line:column.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rubric {

// A half-open byte range [begin, end) in one SourceFile.
struct SourceRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool known() const { return end > begin || begin > 0; }
};

struct LineColumn {
  std::uint32_t line = 1;    // 1-based
  std::uint32_t column = 1;  // 1-based, in bytes
};

class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  // Reads a file; throws std::runtime_error naming it when it cannot be read.
  static std::shared_ptr<const SourceFile> read(const std::string& path);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  LineColumn position(std::uint32_t offset) const;
  // The whole line holding `offset`, without its newline.
  std::string_view line_text(std::uint32_t offset) const;
  std::string_view slice(SourceRange r) const;
  // "name:line:col"
  std::string location(std::uint32_t offset) const;

 private:
  std::string name_;
  std::string text_;
  std::vector<std::uint32_t> line_starts_;
};

using SourcePtr = std::shared_ptr<const SourceFile>;

}  // namespace rubric
