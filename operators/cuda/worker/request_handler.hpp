#pragma once
// Dispatches one protocol request to the backend and builds the response. Loaded modules stay
// loaded for the worker's life (a candidate's static state persists across calls, as it would
// in the candidate's own program: caching between calls is then visible to the grader).
#include <functional>
#include <map>
#include <set>
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
  // After candidate code ran (the request's buffers still held): a refused allocation, or more
  // device memory in use than when the worker started by over the limit. "" when within it.
  std::string memory_problem();
  std::string libraries_brought_in();  // comma-separated short names
  // Every process the candidate code started (it runs in the worker's own PID namespace): ended
  // after each request, so nothing it forks outlives the call.
  void end_strays();

  std::string backend_name_;
  Send send_;
  std::unique_ptr<Backend> backend_;
  std::map<std::string, Entry> modules_;
  std::set<std::string> module_paths_;  // the candidate modules, as the loader lists them
  std::set<std::string> own_libraries_;  // what the worker holds itself (after start, device queries)
  std::uint64_t baseline_used_ = 0;
  bool end_strays_ = false;
};

}  // namespace rubric::cuda::worker
