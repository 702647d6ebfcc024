#pragma once
// The summary's per-submission rows (verdict, score, deciding reason) kept in an unlinked
// temporary file rather than in memory, so that summarising a corpus of 300,000 submissions
// takes the memory that 300 take. Read back in the order written, as often as a report needs.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/corpus_html.hpp"

namespace rubric::grading {

// A submission's verdict, score and deciding reason: the row the corpus page shows.
using SubmissionRow = report::CorpusRow;

class RowSpool {
 public:
  // The file goes into $TMPDIR (else /tmp); where none can be made the rows stay in memory.
  RowSpool();
  ~RowSpool();
  RowSpool(const RowSpool&) = delete;
  RowSpool& operator=(const RowSpool&) = delete;

  void append(const SubmissionRow& row);
  std::size_t size() const { return count_; }
  // Calls `visit` with each row in the order appended until it returns false. Throws
  // std::runtime_error when the file cannot be read back.
  void for_each(const std::function<bool(const SubmissionRow&)>& visit) const;

 private:
  void flush() const;

  int fd_ = -1;
  std::size_t count_ = 0;
  mutable std::string pending_;            // encoded rows not yet written
  mutable std::uint64_t written_ = 0;      // bytes in the file
  std::vector<SubmissionRow> in_memory_;  // used only without a file
};

}  // namespace rubric::grading
