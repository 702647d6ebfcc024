#pragma once
// Where two folders lie relative to each other once symbolic links, `.` and `..` are resolved: a
// candidate's program must never share a folder with the reference answer, whichever way round,
// and a layout that only looks apart through a symlink is still nested.
#include <string>

namespace rubric::process {

enum class Nesting { apart, same, first_inside_second, second_inside_first };

struct FolderRelation {
  Nesting nesting = Nesting::apart;
  std::string first, second;  // the resolved paths, for messages
};

// Resolves both (std::filesystem::weakly_canonical: an absent tail is kept as written) and
// compares them by whole path components ("/a/ref2" is not inside "/a/ref").
FolderRelation relate_folders(const std::string& first, const std::string& second);

}  // namespace rubric::process
