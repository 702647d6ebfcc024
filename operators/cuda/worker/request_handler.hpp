#pragma once
// Dispatches one protocol request to the backend and builds the response. Loaded modules stay
// loaded for the worker's life (a candidate's static state persists across calls, as it would
// in the candidate's own program: caching between calls is then visible to the grader).
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "operators/cuda/protocol.hpp"
#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

class RequestHandler {
 public:
  // `send` delivers an interim message ahead of the reply (time's "first_call_s", from which the
  // client sizes the rest of the request's budget).
  using Send = std::function<void(const Message&)>;
  RequestHandler(std::string backend_name, Send send = {})
      : backend_name_(std::move(backend_name)), send_(std::move(send)) {}
  // Throws DeviceFault or EnvironmentFault (the worker must answer, then exit); other failures
  // become responses.
  Message handle(const Message& request);

 private:
  using Entry = void (*)(void**);
  Backend& backend();
  Entry load(const std::string& module_path);
  Message call(const Message& request);
  Message time(const Message& request);
  Message compare(const Message& request);

  std::string backend_name_;
  Send send_;
  std::unique_ptr<Backend> backend_;
  std::map<std::string, Entry> modules_;
};

}  // namespace rubric::cuda::worker
