// Built when rubric is configured without the CUDA toolkit: the worker still serves the CPU
// stand-in, and every CUDA request fails with this reason.
#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

std::unique_ptr<Backend> make_cuda_backend() { throw EnvironmentFault("rubric was built without CUDA"); }

void describe_device(std::function<void(const std::string&, const std::string&)> put) {
  put("available", "0");
  put("reason", "rubric was built without CUDA");
}

}  // namespace rubric::cuda::worker
