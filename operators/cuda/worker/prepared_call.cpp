#include "operators/cuda/worker/prepared_call.hpp"

#include <fmt/format.h>

#include "operators/cuda/dtype_info.hpp"
#include "operators/cuda/worker/tensor_files.hpp"
#include "operators/error.hpp"

namespace rubric::cuda::worker {

namespace {

std::uint64_t to_u64(const std::string& s, const std::string& key) {
  try {
    std::size_t used = 0;
    unsigned long long v = std::stoull(s, &used);
    if (used == s.size()) return v;
  } catch (...) {
  }
  throw OperatorError(fmt::format("worker request: '{}' is not a count ({})", s, key));
}

}  // namespace

std::vector<ArgSpec> parse_args(const Message& request) {
  std::size_t n = to_u64(request.require("nargs"), "nargs");
  std::vector<ArgSpec> specs(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::string p = fmt::format("a{}.", i);
    ArgSpec& s = specs[i];
    std::string kind = request.require(p + "kind");
    if (kind == "in" || kind == "out") {
      s.kind = kind == "in" ? ArgSpec::Kind::input : ArgSpec::Kind::output;
      auto dt = dtype_from_label(request.require(p + "dtype"));
      if (!dt) throw OperatorError(fmt::format("worker request: unknown dtype for argument {}", i));
      s.dtype = *dt;
      s.count = to_u64(request.require(p + "count"), p + "count");
      s.file = request.require(p + "file");
      s.offset = to_u64(request.get_or(p + "offset", "0"), p + "offset");
    } else if (kind == "i32" || kind == "i64") {
      s.kind = kind == "i32" ? ArgSpec::Kind::i32 : ArgSpec::Kind::i64;
      s.int_value = std::stoll(request.require(p + "value"));
    } else if (kind == "f32" || kind == "f64") {
      s.kind = kind == "f32" ? ArgSpec::Kind::f32 : ArgSpec::Kind::f64;
      s.float_value = std::stod(request.require(p + "value"));
    } else if (kind == "stream") {
      s.kind = ArgSpec::Kind::stream;
    } else {
      throw OperatorError(fmt::format("worker request: unknown argument kind '{}'", kind));
    }
  }
  return specs;
}

PreparedCall::PreparedCall(Backend& backend, std::vector<ArgSpec> specs)
    : backend_(backend), specs_(std::move(specs)) {
  std::size_t n = specs_.size();
  pointers_.assign(n, nullptr);
  i32_.assign(n, 0);
  i64_.assign(n, 0);
  f32_.assign(n, 0);
  f64_.assign(n, 0);
  argv_.assign(n, nullptr);
  buffer_of_.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    ArgSpec& s = specs_[i];
    switch (s.kind) {
      case ArgSpec::Kind::input:
      case ArgSpec::Kind::output:
        buffers_.emplace_back(backend_, s.count * element_bytes(s.dtype), true);
        buffer_of_[i] = static_cast<int>(buffers_.size() - 1);
        pointers_[i] = buffers_.back().get();
        argv_[i] = &pointers_[i];
        break;
      case ArgSpec::Kind::i32: i32_[i] = static_cast<std::int32_t>(s.int_value); argv_[i] = &i32_[i]; break;
      case ArgSpec::Kind::i64: i64_[i] = s.int_value; argv_[i] = &i64_[i]; break;
      case ArgSpec::Kind::f32: f32_[i] = static_cast<float>(s.float_value); argv_[i] = &f32_[i]; break;
      case ArgSpec::Kind::f64: f64_[i] = s.float_value; argv_[i] = &f64_[i]; break;
      case ArgSpec::Kind::stream: pointers_[i] = backend_.stream_handle(); argv_[i] = &pointers_[i]; break;
    }
  }
  upload_inputs();
  poison_outputs();
}

void PreparedCall::upload_inputs() {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ArgSpec& s = specs_[i];
    if (s.kind != ArgSpec::Kind::input) continue;
    std::size_t bytes = s.count * element_bytes(s.dtype);
    MappedInput in(s.file, s.offset, bytes);
    if (bytes) backend_.upload(buffers_[buffer_of_[i]].get(), in.data(), bytes);
  }
}

std::uint64_t poison_bits(tensor::DType t, int pattern) {
  if (pattern == 0) return poison_pattern(t);
  // The same NaN with its sign flipped: still no value, but other bits.
  if (is_floating(t)) return poison_pattern(t) | (std::uint64_t{1} << (8 * element_bytes(t) - 1));
  return 0;
}

void PreparedCall::poison_outputs(int pattern) {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ArgSpec& s = specs_[i];
    if (s.kind != ArgSpec::Kind::output) continue;
    backend_.fill_pattern(buffers_[buffer_of_[i]].get(), s.count, element_bytes(s.dtype), poison_bits(s.dtype, pattern));
  }
}

void PreparedCall::keep_pristine_inputs() {
  pristine_.clear();
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ArgSpec& s = specs_[i];
    if (s.kind != ArgSpec::Kind::input) continue;
    std::size_t bytes = s.count * element_bytes(s.dtype);
    pristine_.emplace_back(backend_, bytes);
    if (bytes) backend_.copy(pristine_.back().get(), buffers_[buffer_of_[i]].get(), bytes);
  }
}

void PreparedCall::restore_inputs() {
  if (pristine_.empty()) return;
  std::size_t k = 0;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ArgSpec& s = specs_[i];
    if (s.kind != ArgSpec::Kind::input) continue;
    std::size_t bytes = s.count * element_bytes(s.dtype);
    if (bytes) backend_.copy(buffers_[buffer_of_[i]].get(), pristine_[k].get(), bytes);
    ++k;
  }
}

std::string PreparedCall::guard_damage() {
  std::string out;
  std::size_t in = 0, outn = 0;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ArgSpec& s = specs_[i];
    if (s.kind != ArgSpec::Kind::input && s.kind != ArgSpec::Kind::output) continue;
    bool is_out = s.kind == ArgSpec::Kind::output;
    std::size_t k = is_out ? outn++ : in++;
    std::size_t damaged = backend_.check_guard(buffers_[buffer_of_[i]].get());
    if (damaged)
      out += fmt::format("{}{} {} (argument {}): {} bytes written outside the tensor", out.empty() ? "" : "; ",
                         is_out ? "output" : "input", k, i + 1, damaged);
  }
  return out;
}

void* PreparedCall::output_buffer(std::size_t k) {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].kind == ArgSpec::Kind::output && k-- == 0) return buffers_[buffer_of_[i]].get();
  return nullptr;
}

void PreparedCall::randomize_inputs(std::uint64_t seed) {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ArgSpec& s = specs_[i];
    if (s.kind != ArgSpec::Kind::input) continue;
    backend_.fill_random(buffers_[buffer_of_[i]].get(), s.dtype, s.count, math::splitmix64(seed) + i);
  }
}

std::vector<std::vector<unsigned char>> PreparedCall::download_outputs() {
  std::vector<std::vector<unsigned char>> out;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ArgSpec& s = specs_[i];
    if (s.kind != ArgSpec::Kind::output) continue;
    out.emplace_back(s.count * element_bytes(s.dtype));
    if (!out.back().empty()) backend_.download(out.back().data(), buffers_[buffer_of_[i]].get(), out.back().size());
  }
  return out;
}

void PreparedCall::write_outputs() {
  auto outputs = download_outputs();
  std::size_t k = 0;
  for (const ArgSpec& s : specs_)
    if (s.kind == ArgSpec::Kind::output) {
      write_output(s.file, outputs[k].data(), outputs[k].size());
      ++k;
    }
}

}  // namespace rubric::cuda::worker
