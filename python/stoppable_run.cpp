#include "python/stoppable_run.hpp"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace rubric::python {

void kill_children_of_thread(int tid) {
  if (tid <= 0) return;
  std::ifstream in(fmt::format("/proc/self/task/{}/children", tid));
  for (pid_t child; in >> child;) {
    // A supervisor leads its own process group; the candidate's processes go with it.
    ::kill(-child, SIGKILL);
    ::kill(child, SIGKILL);
  }
}

RunEnd run_stoppable(const std::function<void()>& work, StopRequest& stop, std::optional<double> timeout_seconds) {
  std::atomic<int> tid{0};
  std::exception_ptr failure;
  std::promise<void> ended;
  std::future<void> ended_future = ended.get_future();
  std::thread worker([&] {
    tid = static_cast<int>(::syscall(SYS_gettid));
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    ended.set_value();
  });

  RunEnd end = RunEnd::finished;
  std::unique_ptr<py::error_already_set> raised;
  const auto start = std::chrono::steady_clock::now();
  {
    py::gil_scoped_release nogil;
    while (ended_future.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
      if (!stop.requested()) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (timeout_seconds && elapsed > *timeout_seconds) {
          stop.request(fmt::format("stopped: the check ran past its timeout of {} s", *timeout_seconds));
          end = RunEnd::timed_out;
        } else {
          py::gil_scoped_acquire gil;
          if (PyErr_CheckSignals() != 0) {  // only the main thread runs handlers; elsewhere always 0
            raised = std::make_unique<py::error_already_set>();
            stop.request("stopped: interrupted (KeyboardInterrupt)");
          }
        }
      }
      // Again at every turn: a benchmark loop starts a new run after its last one was killed.
      if (stop.requested()) kill_children_of_thread(tid);
    }
  }
  worker.join();
  if (raised) throw *raised;
  if (failure) std::rethrow_exception(failure);
  return end;
}

}  // namespace rubric::python
