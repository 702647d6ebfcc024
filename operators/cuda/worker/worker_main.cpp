// rubric-gpu-worker: the only process that loads candidate modules and holds a CUDA context.
//   rubric-gpu-worker --backend cuda|cpu --fd N
// Requests arrive on file descriptor N (a socket pair from the client); stdout is redirected to
// stderr so a candidate's printf cannot corrupt the protocol. A sticky device error is answered
// with fatal=1 and ends the process: the client starts a fresh worker for the next request. A
// fault of the grading machine (no device, no kernel image, old driver) is answered with fatal=1
// and blame=environment, and ends the process too, so nothing about it is cached.
#include <unistd.h>

#include <cerrno>
#include <vector>

#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "operators/cuda/protocol.hpp"
#include "operators/cuda/worker/request_handler.hpp"

#ifndef RUBRIC_CUDA_BIN_DIR
#define RUBRIC_CUDA_BIN_DIR ""
#endif

namespace {

// RUBRIC_GPU_MEMCHECK=1: the worker runs itself under compute-sanitizer's memcheck, so every
// out-of-bounds or misaligned access of a candidate's kernel destroys the context (a sticky
// fault: the request FAILs) and is described in the worker's log. Slow: a pass for suspects.
// Empty when not asked or already under the sanitizer; else why it could not start.
std::string run_under_memcheck(int argc, char** argv) {
  const char* asked = std::getenv("RUBRIC_GPU_MEMCHECK");
  if (!asked || std::strcmp(asked, "1") != 0 || std::getenv("RUBRIC_GPU_MEMCHECK_ACTIVE")) return {};
  std::string tool;
  if (const char* t = std::getenv("RUBRIC_COMPUTE_SANITIZER"); t && *t) tool = t;
  else if (*RUBRIC_CUDA_BIN_DIR) tool = std::string(RUBRIC_CUDA_BIN_DIR) + "/compute-sanitizer";
  if (tool.empty() || ::access(tool.c_str(), X_OK) != 0)
    return fmt::format("RUBRIC_GPU_MEMCHECK=1 but compute-sanitizer is not at '{}' (set RUBRIC_COMPUTE_SANITIZER)", tool);
  ::setenv("RUBRIC_GPU_MEMCHECK_ACTIVE", "1", 1);
  std::vector<const char*> args{tool.c_str(), "--tool", "memcheck", "--print-limit", "20", "--error-exitcode", "86"};
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  ::execv(tool.c_str(), const_cast<char* const*>(args.data()));  // fd 3 stays open across exec
  return fmt::format("cannot run {}: {}", tool, std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend = "cuda";
  int fd = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--backend") == 0) backend = argv[i + 1];
    else if (std::strcmp(argv[i], "--fd") == 0) fd = std::atoi(argv[i + 1]);
  }
  if (fd < 0 || (backend != "cuda" && backend != "cpu")) {
    fmt::print(stderr, "usage: rubric-gpu-worker --backend cuda|cpu --fd N\n");
    return 2;
  }
  ::dup2(2, 1);
  std::string memcheck_problem = backend == "cuda" ? run_under_memcheck(argc, argv) : "";
  // Kernels load with their module (inside the `load` request's budget), not at a call's first
  // launch; the driver JIT-compiles PTX there too.
  ::setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  rubric::cuda::MessageReader reader(fd);
  // Every message answering a request starts with that request's nonce (docs/gpu.md, "Replies
  // the grader does not take on trust"): lines candidate code writes to this channel lack it.
  std::string nonce;
  auto reply = [&](const rubric::cuda::Message& m) {
    rubric::cuda::Message stamped;
    stamped.set("nonce", nonce);
    for (const auto& [k, v] : m.fields()) stamped.set(k, v);
    return rubric::cuda::write_message(fd, stamped);
  };
  rubric::cuda::worker::RequestHandler handler(backend, [&](const rubric::cuda::Message& m) { reply(m); });
  rubric::cuda::Message request;
  while (true) {
    rubric::cuda::ReadStatus st = reader.read(request);
    if (st != rubric::cuda::ReadStatus::ok) return st == rubric::cuda::ReadStatus::closed ? 0 : 3;
    if (request.get_or("op", "") == "quit") return 0;
    nonce = request.get_or("nonce", "");
    if (!memcheck_problem.empty()) {
      rubric::cuda::Message m;
      m.set("status", "fail").set("fatal", "1").set("blame", "environment").set("reason", memcheck_problem);
      reply(m);
      return 5;
    }
    try {
      if (!reply(handler.handle(request))) return 0;
    } catch (const rubric::cuda::worker::DeviceFault& e) {
      rubric::cuda::Message m;
      m.set("status", "fail").set("fatal", "1").set("reason", e.what());
      reply(m);
      std::_Exit(4);  // skip destructors: the context is unusable
    } catch (const rubric::cuda::worker::EnvironmentFault& e) {
      rubric::cuda::Message m;
      m.set("status", "fail").set("fatal", "1").set("blame", "environment").set("reason", e.what());
      reply(m);
      std::_Exit(5);
    }
  }
}
