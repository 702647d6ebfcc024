#include "operators/cuda/worker_client.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "operators/error.hpp"

#ifndef RUBRIC_GPU_WORKER_PATH
#define RUBRIC_GPU_WORKER_PATH ""
#endif

namespace rubric::cuda {

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGXCPU: return "SIGXCPU";
    case SIGPIPE: return "SIGPIPE";
    case SIGSYS: return "SIGSYS";
    default: return fmt::format("signal {}", sig);
  }
}

std::string find_worker_executable() {
  if (const char* env = std::getenv("RUBRIC_GPU_WORKER"); env && *env) return env;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto beside = self.parent_path() / "rubric-gpu-worker";
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return RUBRIC_GPU_WORKER_PATH;
}

WorkerClient::WorkerClient(std::string executable, std::string backend, std::string log_path)
    : executable_(std::move(executable)), backend_(std::move(backend)), log_path_(std::move(log_path)) {}

WorkerClient::~WorkerClient() { stop(); }

void WorkerClient::start() {
  if (executable_.empty() || ::access(executable_.c_str(), X_OK) != 0)
    throw OperatorError(fmt::format("the GPU worker '{}' is missing or not executable (set RUBRIC_GPU_WORKER)",
                                    executable_));
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw OperatorError(fmt::format("cannot create the worker channel: {}", std::strerror(errno)));
  int log = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    if (log >= 0) ::close(log);
    throw OperatorError(fmt::format("cannot start the GPU worker: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(devnull, 0);
    ::dup2(log >= 0 ? log : devnull, 1);
    ::dup2(log >= 0 ? log : devnull, 2);
    if (sv[1] == 3) ::fcntl(3, F_SETFD, 0);
    else ::dup2(sv[1], 3);
    const char* args[] = {executable_.c_str(), "--backend", backend_.c_str(), "--fd", "3", nullptr};
    ::execv(args[0], const_cast<char* const*>(args));
    dprintf(2, "cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  ::close(sv[1]);
  if (log >= 0) ::close(log);
  pid_ = pid;
  fd_ = sv[0];
  reader_ = std::make_unique<MessageReader>(fd_);
}

std::string WorkerClient::reap(bool kill_first) {
  if (pid_ <= 0) return "worker not running";
  if (kill_first) ::kill(-pid_, SIGKILL);
  int status = 0;
  // A worker that closed its end is exiting; give it a moment before forcing it.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  pid_t r;
  while ((r = ::waitpid(pid_, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (r == 0) {
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
  }
  ::kill(-pid_, SIGKILL);  // anything the worker left behind in its group
  ::close(fd_);
  fd_ = -1;
  pid_ = -1;
  reader_.reset();
  if (WIFSIGNALED(status)) return fmt::format("worker killed by {}", signal_name(WTERMSIG(status)));
  if (WIFEXITED(status)) return fmt::format("worker exited with code {}", WEXITSTATUS(status));
  return "worker ended";
}

void WorkerClient::stop() {
  if (pid_ <= 0) return;
  write_message(fd_, Message().set("op", "quit"));
  reap(false);
}

WorkerReply WorkerClient::request(const Message& m, double timeout_s, const ProgressHandler& on_progress) {
  if (pid_ <= 0) start();
  WorkerReply reply;
  auto after = [](double s) {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
  };
  auto deadline = after(timeout_s);
  double budget = timeout_s;
  Message answer;
  ReadStatus st = write_message(fd_, m) ? reader_->read(answer, deadline) : ReadStatus::closed;
  while (st == ReadStatus::ok && answer.get_or("status", "") == "progress") {
    if (on_progress) {
      budget = on_progress(answer);
      deadline = after(budget);
    }
    answer = Message();
    st = reader_->read(answer, deadline);
  }
  timeout_s = budget;
  switch (st) {
    case ReadStatus::ok:
      reply.message = answer;
      reply.ok = answer.get_or("status", "") == "ok";
      reply.grader_environment = answer.get_or("blame", "") == "environment";
      if (!reply.ok) reply.failure = answer.get_or("reason", "the worker reported a failure without a reason");
      if (answer.get_or("fatal", "0") == "1") {
        reap(false);
        reply.worker_lost = true;
      }
      return reply;
    case ReadStatus::timed_out:
      reap(true);
      reply.failure = fmt::format("timed out after {:g} s", timeout_s);
      reply.worker_lost = true;
      return reply;
    case ReadStatus::malformed:
      reap(true);
      reply.failure = "the worker sent a malformed reply";
      reply.worker_lost = true;
      return reply;
    case ReadStatus::closed:
      reply.failure = reap(false);
      reply.worker_lost = true;
      return reply;
  }
  return reply;
}

}  // namespace rubric::cuda
