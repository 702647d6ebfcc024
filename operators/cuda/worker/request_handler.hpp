#pragma once
// Dispatches one protocol request to the backend and builds the response. Loaded modules stay
// loaded for the worker's life (a candidate's static state persists across calls, as it would
// in the candidate's own program: caching between calls is then visible to the grader).
#include <map>
#include <memory>
#include <string>

#include "operators/cuda/protocol.hpp"
#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

class RequestHandler {
 public:
  explicit RequestHandler(std::string backend_name) : backend_name_(std::move(backend_name)) {}
  // Throws DeviceFault (the worker must answer, then exit); other failures become responses.
  Message handle(const Message& request);

 private:
  using Entry = void (*)(void**);
  Backend& backend();
  Entry load(const std::string& module_path);
  Message call(const Message& request);
  Message time(const Message& request);
  Message compare(const Message& request);

  std::string backend_name_;
  std::unique_ptr<Backend> backend_;
  std::string backend_error_;
  std::map<std::string, Entry> modules_;
};

}  // namespace rubric::cuda::worker
