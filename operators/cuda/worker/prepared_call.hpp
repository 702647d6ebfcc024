#pragma once
// A call request's arguments made real on a backend: fresh buffers for every tensor, inputs
// uploaded, outputs poisoned, and the argv array the trampoline's rubric_call expects.
#include <cstdint>
#include <string>
#include <vector>

#include "operators/cuda/protocol.hpp"
#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

struct ArgSpec {
  enum class Kind { input, output, i32, i64, f32, f64, stream } kind = Kind::i32;
  tensor::DType dtype = tensor::DType::f32;
  std::size_t count = 0;       // elements, for tensors
  std::string file;            // input: read from; output: written to
  std::uint64_t offset = 0;    // input: first byte in file
  std::int64_t int_value = 0;
  double float_value = 0;
};

// Parses a<i>.* fields; throws OperatorError for malformed requests.
std::vector<ArgSpec> parse_args(const Message& request);

class PreparedCall {
 public:
  PreparedCall(Backend& backend, std::vector<ArgSpec> specs);
  void** argv() { return argv_.data(); }
  void poison_outputs();
  void upload_inputs();                              // (again) from the request's files
  void randomize_inputs(std::uint64_t seed);         // fresh device-generated inputs
  std::vector<std::vector<unsigned char>> download_outputs();
  void write_outputs();                              // to the request's output files
  const std::vector<ArgSpec>& specs() const { return specs_; }

 private:
  Backend& backend_;
  std::vector<ArgSpec> specs_;
  std::vector<DeviceBuffer> buffers_;  // one per tensor argument, in order
  std::vector<int> buffer_of_;         // arg index → buffers_ index (-1 for scalars)
  // Storage the argv entries point at; sized once so the addresses stay valid.
  std::vector<void*> pointers_;
  std::vector<std::int32_t> i32_;
  std::vector<std::int64_t> i64_;
  std::vector<float> f32_;
  std::vector<double> f64_;
  std::vector<void*> argv_;
};

}  // namespace rubric::cuda::worker
