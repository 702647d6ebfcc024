#pragma once
// .safetensors files: 8-byte little-endian header length N, N bytes of JSON
// {"name": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, ..., "__metadata__": {..}},
// then the data. Tensors are read in place from the mapped file.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

class MappedFile;

// Headers larger than this are refused (the format's own cap).
constexpr std::uint64_t kSafetensorsHeaderCap = 100'000'000;

struct SafetensorsEntry {
  std::string name;
  std::string dtype_code;  // as written: "F32", "BF16", "F8_E4M3", ...
  Shape shape;
  std::uint64_t begin = 0, end = 0;  // byte offsets into the data section
};

struct SafetensorsIndex {
  std::vector<SafetensorsEntry> tensors;         // sorted by name
  std::map<std::string, std::string> metadata;   // "__metadata__", empty when absent
  std::vector<std::string> names() const;
};

// Reads and validates the header: every malformed case (length past end of file, header over
// the cap, bad JSON, unknown dtype, sizes that disagree with shapes, overlapping offsets,
// bytes covered by no tensor) is an OperatorError naming the file and the problem.
SafetensorsIndex read_safetensors_index(const std::string& path);

// One tensor by name; an unknown name is an OperatorError listing the names present.
// U16/U32 tensors are valid in the file but not loadable (no such rubric dtype).
Tensor load_safetensors(const std::string& path, const std::string& name);
// The same from a file already mapped (messages name file->path()).
Tensor load_safetensors(std::shared_ptr<const MappedFile> file, const std::string& name);

// Writes tensors (any layout; stored C order, little-endian) with optional metadata.
void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

// The safetensors dtype code for a rubric dtype ("F32", "BOOL", "F8_E4M3", ...).
std::string safetensors_dtype_code(DType t);

}  // namespace rubric::tensor
