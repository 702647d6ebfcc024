#pragma once
// Paths confined to a root (language.md §9): joining rejects `..` escapes lexically, and access
// resolves symbolic links and rejects any real path outside the root's real path.
#include <optional>
#include <string>

#include "interpreter/value.hpp"

namespace rubric {

// `base / "a/b"`: appends a relative piece. Returns nullopt with `*error` set when the piece is
// absolute or climbs above the root.
std::optional<PathValue> join_path(const PathValue& base, const std::string& piece, std::string* error);

enum class PathStatus { ok, missing, escapes, unreadable };

struct ResolvedPath {
  PathStatus status = PathStatus::ok;
  std::string real;     // the real path (status ok)
  std::string message;  // what is wrong otherwise
};

// Resolves symbolic links and checks the result stays inside the root.
ResolvedPath resolve_confined(const PathValue& p);

// A root path value for a directory (made absolute).
PathValue make_root(const std::string& name, const std::string& dir);

}  // namespace rubric
