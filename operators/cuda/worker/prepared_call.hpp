#pragma once
// A call request's arguments made real on a backend: fresh buffers for every tensor (each against
// a guard page), inputs uploaded, outputs poisoned, and the argv array the trampoline's
// rubric_call expects. Keeps a pristine device copy of the inputs on request, so a kernel that
// writes its inputs (in place, or through a cast-away const) is always timed and re-checked on
// the inputs the rubric gave.
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

// The bits an output element holds before a call poisoned with `pattern` (0 or 1): NaN for floats
// (the sign differs between the patterns), 0xFF bytes or zero bytes for integers and bools.
std::uint64_t poison_bits(tensor::DType t, int pattern);

class PreparedCall {
 public:
  PreparedCall(Backend& backend, std::vector<ArgSpec> specs);
  void** argv() { return argv_.data(); }
  // See poison_bits: an element that holds pattern 0's bits after one call and pattern 1's after
  // another was never written.
  void poison_outputs(int pattern = 0);
  void upload_inputs();                              // (again) from the request's files
  void randomize_inputs(std::uint64_t seed);         // fresh device-generated inputs
  void keep_pristine_inputs();                       // device copies of the current inputs
  void restore_inputs();                             // from those copies (no-op without them)
  std::vector<std::vector<unsigned char>> download_outputs();
  void write_outputs();                              // to the request's output files
  // Empty when every tensor's canaries are intact; else "output 0: 12 bytes written outside the
  // tensor" for each damaged one.
  std::string guard_damage();
  const std::vector<ArgSpec>& specs() const { return specs_; }
  // Output k's device buffer (k counts outputs only).
  void* output_buffer(std::size_t k);

 private:
  Backend& backend_;
  std::vector<ArgSpec> specs_;
  std::vector<DeviceBuffer> buffers_;  // one per tensor argument, in order
  std::vector<DeviceBuffer> pristine_; // one per input, in order (after keep_pristine_inputs)
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
