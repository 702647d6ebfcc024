// Real child programs under run_isolated(): each outcome, its reason, and nothing left behind.
#include "operators/process/run_isolated.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "operators/error.hpp"
#include "test_support.hpp"

using rubric::process::RunResult;
using rubric::process::RunSpec;
using rubric::process::run_isolated;
namespace t = rubric::process::testing;

namespace {

// Full isolation (PID namespace, no network) and the fallback (subreaper supervisor only).
RunSpec in_mode(RunSpec spec, bool namespaces) {
  spec.isolation.pid_namespace = namespaces;
  spec.isolation.no_network = namespaces;
  return spec;
}

std::string unique_marker(const char* what) {
  static int counter = 0;
  return fmt::format("rubric-marker-{}-{}-{}", what, ::getpid(), ++counter);
}

}  // namespace

TEST_CASE("a program that exits non-zero gives its code and stderr") {
  RunSpec spec = RunSpec::shell("echo out; echo 'something broke' >&2; exit 3");
  RunResult r = run_isolated(spec);
  CHECK(r.exited);
  CHECK(r.exit_code == 3);
  CHECK_FALSE(r.succeeded());
  CHECK(r.stdout_text == "out\n");
  CHECK(r.stderr_text == "something broke\n");
  CHECK(r.status_text() == "exit code 3");
  CHECK(r.isolation.process_group);
  CHECK(r.isolation.rlimits);
}

TEST_CASE("a crashing program is reported with the signal's name") {
  for (bool ns : {true, false}) {
    RunSpec spec;
    spec.argv = {t::programs_dir() + "/segfault"};
    RunResult r = run_isolated(in_mode(spec, ns));
    CHECK_FALSE(r.exited);
    CHECK(r.signal == SIGSEGV);
    CHECK(r.signal_name == "SIGSEGV");
    CHECK(r.status_text() == "killed by SIGSEGV (signal 11)");
  }
}

TEST_CASE("a hanging program is killed at the timeout, with the sleeper it forked") {
  for (bool ns : {true, false}) {
    const std::string marker = unique_marker("hang");
    RunSpec spec = in_mode(RunSpec::shell(fmt::format("sh -c 'sleep 1000; : {0}' & sleep 1000; : {0}", marker)), ns);
    spec.timeout_seconds = 0.5;
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = run_isolated(spec);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(r.timed_out);
    CHECK_FALSE(r.succeeded());
    CHECK(r.status_text() == "timed out after 0.5 s (killed)");
    CHECK(r.signal_name == "SIGKILL");
    CHECK(took >= 0.5);
    // Killed at the timeout, not when the sleepers would end (1000 s). Starting and killing the run
    // took up to 0.7 s beyond its time on a loaded machine (ctest -j8 beside CPU hogs on 2 cores):
    // the bound leaves ten times that.
    CHECK(took < 8.0);
    CHECK(t::count_processes_with(marker) == 0);
  }
}

TEST_CASE("a program that exits but leaves a forked sleeper behind: the sleeper is killed") {
  for (bool ns : {true, false}) {
    const std::string marker = unique_marker("sleeper");
    RunSpec spec = in_mode(RunSpec::shell(fmt::format("sh -c 'sleep 1000; : {}' & echo started", marker)), ns);
    RunResult r = run_isolated(spec);
    CHECK(r.succeeded());
    CHECK(r.stdout_text == "started\n");
    CHECK(r.wall_seconds < 8.0);  // the run ends when the program does, not when the sleeper would (1000 s)
    CHECK(t::count_processes_with(marker) == 0);
  }
}

TEST_CASE("a daemon (setsid and double fork) does not outlive the run") {
  for (bool ns : {true, false}) {
    const std::string shared = t::make_temp_dir();
    const std::string pid_file = shared + "/" + unique_marker("daemon");
    RunSpec spec;
    spec.argv = {t::programs_dir() + "/daemonize", pid_file};
    spec.isolation.read_write_paths = {shared};
    RunResult r = run_isolated(in_mode(spec, ns));
    CHECK(r.succeeded());
    const std::string written = t::read_file(pid_file);
    REQUIRE_FALSE(written.empty());  // the daemon did start
    // The pid file's name is in the daemon's command line: no live process may carry it.
    CHECK(t::count_processes_with(pid_file) == 0);
    if (!ns) {
      // Without a PID namespace the daemon wrote its host pid: it must be gone.
      const int pid = std::atoi(written.c_str());
      bool gone = false;
      for (int i = 0; i < 200 && !gone; ++i) {
        gone = ::kill(pid, 0) != 0;
        if (!gone) ::usleep(10000);
      }
      CHECK(gone);
    }
  }
}

TEST_CASE("a fork bomb is bounded by the process-count limit and cleaned up") {
  for (bool ns : {true, false}) {
    RunSpec spec;
    spec.argv = {t::programs_dir() + "/fork_many"};
    spec.limits.processes = 24;
    spec.timeout_seconds = 20;
    // RLIMIT_NPROC counts every process of the candidate's uid on the machine. As root the run would
    // drop to uid 65534, which the sandboxed runs of every test beside this one share (and any
    // daemon running as nobody): they could use up the 24 before this program forks once. A uid no
    // other process has makes the count this run's own. (Unprivileged, the run keeps the suite's uid;
    // run_unprivileged.py gives each such suite a uid of its own.)
    if (::geteuid() == 0) spec.isolation.uid = spec.isolation.gid = 2100000000u + unsigned(::getpid());
    RunResult r = run_isolated(in_mode(spec, ns));
    CHECK(r.exited);
    CHECK(r.exit_code == 3);
    CHECK(r.stdout_text.find("fork refused after") == 0);
    CHECK(r.isolation.unprivileged);
    CHECK(t::count_processes_with(t::programs_dir() + "/fork_many") == 0);
  }
}

TEST_CASE("a run holding its whole process limit refuses no fork of a run beside it") {
  // Every candidate runs as uid 65534 when rubric is root, and RLIMIT_NPROC counts the processes
  // of a uid: one run's fork storm made the programs of every run beside it (rubric grade --jobs)
  // fail with "Cannot fork". A pids cgroup per run counts only that run's processes.
  const std::string shared = t::make_temp_dir();
  const std::string full = shared + "/full", done = shared + "/done";
  RunSpec hog;
  hog.argv = {"python3", "-c",
              "import os, sys, time\n"
              "kids = []\n"
              "while True:\n"
              "    try: pid = os.fork()\n"
              "    except OSError: break\n"
              "    if pid == 0:\n"
              "        time.sleep(60); os._exit(0)\n"
              "    kids.append(pid)\n"
                            "open(sys.argv[1], 'w').write(str(len(kids)))\n"
              "for i in range(3000):\n"
              "    if os.path.exists(sys.argv[2]): break\n"
              "    time.sleep(0.01)\n",
              full, done};
  hog.cwd = t::make_temp_dir();  // not the folder holding `shared`, whose words would name the copy
  hog.limits.processes = 16;
  hog.timeout_seconds = 60;
  hog.isolation.read_write_paths = {shared};
  RunResult hog_result;
  std::thread holder([&] { hog_result = run_isolated(hog); });
  bool holding = false;
  for (int i = 0; i < 3000 && !holding; ++i) {
    holding = !t::read_file(full).empty();
    if (!holding) ::usleep(10000);
  }
  RunSpec beside = RunSpec::shell("for i in 1 2 3 4 5 6 7 8; do sleep 0.2 & done; wait; echo forked");
  beside.cwd = hog.cwd;
  beside.limits.processes = 16;
  RunResult r = run_isolated(beside);
  t::write_file(done, "");
  holder.join();
  INFO("the hog: ", hog_result.status_text(), "; ", hog_result.stderr_text);
  REQUIRE(holding);
  INFO("the hog held ", t::read_file(full), " processes; ", hog_result.isolation.describe());
  if (hog_result.isolation.process_limit.find("RLIMIT_NPROC") != std::string::npos) {
    // No pids cgroup here (not root, or no controller): the limit is the uid's, shared, and the
    // report says so.
    MESSAGE("no pids cgroup on this machine: ", hog_result.isolation.process_limit);
    return;
  }
  CHECK(hog_result.isolation.process_limit.find("processes 16 (cgroup") == 0);
  CHECK(r.succeeded());
  CHECK(r.stdout_text == "forked\n");
  CHECK(r.stderr_text == "");
}

TEST_CASE("a run that cannot be set up is the machine's failure, a program that cannot start the submission's") {
  // A launch that fails before the program's exec (here: the sandbox's own start refused by a
  // process limit of one, the supervisor itself) must not read as the candidate's FAIL.
  RunSpec one = RunSpec::shell("true");
  one.limits.processes = 1;
  RunResult r = run_isolated(one);
  if (r.isolation.process_limit.find("RLIMIT_NPROC") != std::string::npos) {
    MESSAGE("no pids cgroup on this machine: ", r.isolation.process_limit);
  } else {
    CAPTURE(r.launch_error);
    CHECK(r.launch_failed);
    CHECK(r.setup_failed);
    CHECK(r.launch_error == "could not start the candidate process: Resource temporarily unavailable");
  }
  RunSpec missing;
  missing.argv = {"./no-such-program"};
  missing.cwd = t::make_temp_dir();
  RunResult m = run_isolated(missing);
  CHECK(m.launch_failed);
  CHECK_FALSE(m.setup_failed);
  RunSpec not_a_program;
  not_a_program.cwd = t::make_temp_dir();
  t::write_file(not_a_program.cwd + "/data.txt", "not a program");
  ::chmod((not_a_program.cwd + "/data.txt").c_str(), 0755);
  not_a_program.argv = {"./data.txt"};
  RunResult n = run_isolated(not_a_program);
  CAPTURE(n.launch_error);
  CHECK(n.launch_failed);
  CHECK_FALSE(n.setup_failed);
}

TEST_CASE("a program that closes its output and hangs still times out") {
  for (bool ns : {true, false}) {
    const std::string marker = unique_marker("closed");
    RunSpec spec = in_mode(RunSpec::shell(fmt::format("echo bye; exec >&- 2>&-; sleep 1000; : {}", marker)), ns);
    spec.timeout_seconds = 0.5;
    RunResult r = run_isolated(spec);
    CHECK(r.timed_out);
    CHECK(r.stdout_text == "bye\n");
    CHECK(t::count_processes_with(marker) == 0);
  }
}

TEST_CASE("flooding stdout is capped, flagged, and never blocks the child") {
  RunSpec spec = RunSpec::shell("head -c 20000000 /dev/zero | tr '\\0' x; echo done >&2");
  spec.output_cap_bytes = 1 << 20;
  spec.timeout_seconds = 30;
  RunResult r = run_isolated(spec);
  CHECK(r.succeeded());
  CHECK(r.stdout_truncated);
  CHECK(r.stdout_text.size() == std::size_t(1 << 20));
  CHECK(r.stdout_text.find_first_not_of('x') == std::string::npos);
  CHECK_FALSE(r.stderr_truncated);
  CHECK(r.stderr_text == "done\n");
}

TEST_CASE("the environment is scrubbed and the caller's variables are added") {
  ::setenv("RUBRIC_HOST_SECRET", "leaked", 1);
  RunSpec spec = RunSpec::shell("env | sort");
  spec.env = {{"FOO", "bar"}, {"LANG", "en_US.UTF-8"}};
  RunResult r = run_isolated(spec);
  REQUIRE(r.succeeded());
  CHECK(r.stdout_text.find("RUBRIC_HOST_SECRET") == std::string::npos);
  CHECK(r.stdout_text.find("FOO=bar\n") != std::string::npos);
  CHECK(r.stdout_text.find("LANG=en_US.UTF-8\n") != std::string::npos);
  CHECK(r.stdout_text.find("PATH=/usr/local/sbin:") != std::string::npos);
  CHECK(r.stdout_text.find("TMPDIR=/") != std::string::npos);
  CHECK(r.stdout_text.find("HOME=/") != std::string::npos);
}

TEST_CASE("stdin is /dev/null: a program reading stdin gets EOF at once") {
  RunSpec spec = RunSpec::shell("cat; echo eof");
  spec.timeout_seconds = 5;
  RunResult r = run_isolated(spec);
  CHECK(r.succeeded());
  CHECK(r.stdout_text == "eof\n");
}

TEST_CASE("writes go to a scratch copy, the original directory is untouched") {
  const std::string dir = t::make_temp_dir();
  t::write_file(dir + "/input.txt", "original\n");
  RunSpec spec = RunSpec::shell("cat input.txt; echo changed > input.txt; echo new > created.txt; cat input.txt; pwd");
  spec.cwd = dir;
  RunResult r = run_isolated(spec);
  REQUIRE(r.succeeded());
  CHECK(r.stdout_text.rfind("original\nchanged\n", 0) == 0);
  CHECK(r.stdout_text.find(dir + "\n") == std::string::npos);  // it ran elsewhere
  CHECK(t::read_file(dir + "/input.txt") == "original\n");
  struct stat st;
  CHECK(::stat((dir + "/created.txt").c_str(), &st) != 0);
  CHECK(r.isolation.scratch_copy);
}

TEST_CASE("a hidden path (the reference root) cannot be read") {
  const std::string reference = t::make_temp_dir();
  t::write_file(reference + "/secret.txt", "expected answer\n");
  ::chmod((reference + "/secret.txt").c_str(), 0644);
  RunSpec spec = RunSpec::shell(fmt::format("cat {}/secret.txt", reference));
  // Visible without hiding (and without the whitelist, which shows nothing of the machine),
  // so the test below means something. A private /tmp would cover the folder by itself where the
  // temporary folders live under /tmp: only hiding is under test.
  spec.isolation.whitelist = false;
  spec.isolation.private_tmp = false;
  RunResult visible = run_isolated(spec);
  CHECK(visible.stdout_text == "expected answer\n");
  spec.isolation.hidden_paths = {reference};
  RunResult r = run_isolated(spec);
  if (!t::machine_isolation().private_tmp) {
    // No mount namespace: nothing can be covered, and the report says so instead of claiming it.
    MESSAGE("no mount namespace here: hidden paths are not available (rest skipped)");
    CHECK_FALSE(r.isolation.hidden_paths);
    CHECK(r.isolation.describe().find("not available:") != std::string::npos);
    return;
  }
  CHECK_FALSE(r.succeeded());
  CHECK(r.stdout_text.empty());
  CHECK(r.isolation.hidden_paths);
  CHECK(r.isolation.describe().find("hidden paths") != std::string::npos);
  // With the whitelist it is not there at all.
  spec.isolation.whitelist = true;
  spec.isolation.hidden_paths.clear();
  RunResult w = run_isolated(spec);
  CAPTURE(w.isolation.describe());
  CAPTURE(w.stderr_text);
  CHECK_FALSE(w.succeeded());
  CHECK(w.stdout_text.empty());
  // The host still sees it: the mount stayed inside the run.
  CHECK(t::read_file(reference + "/secret.txt") == "expected answer\n");
}

TEST_CASE("each run gets its own empty /tmp: nothing read from the host, nothing left for the next run") {
  const std::string host_file = fmt::format("/tmp/rubric-host-file-{}", ::getpid());
  t::write_file(host_file, "host\n");
  // Named per test process: the suite may run beside its unprivileged run, which (with namespaces
  // refused) writes to the host's /tmp.
  const std::string result = fmt::format("/tmp/rubric-result-{}.txt", ::getpid());
  RunSpec first = RunSpec::shell(fmt::format("ls {} 2>&1; echo cached > {}; ls /tmp | wc -l", host_file, result));
  RunResult r = run_isolated(first);
  REQUIRE(r.succeeded());
  if (!t::machine_isolation().private_tmp) {
    MESSAGE("no mount namespace here: no private /tmp (rest skipped)");
    std::remove(result.c_str());
    CHECK_FALSE(r.isolation.private_tmp);
    CHECK(r.isolation.describe().find("private tmp (no mount namespace") != std::string::npos);
    std::remove(host_file.c_str());
    return;
  }
  CHECK(r.stdout_text.find("No such file or directory") != std::string::npos);
  CHECK(r.isolation.private_tmp);
  CHECK(r.isolation.describe().find("private tmp") != std::string::npos);
  RunResult second = run_isolated(RunSpec::shell("cat " + result));
  CHECK_FALSE(second.succeeded());
  CHECK(t::read_file(result).empty());
  std::remove(host_file.c_str());
}

TEST_CASE("a run directory and program under /tmp stay reachable with a private /tmp") {
  char pattern[] = "/tmp/rubric-in-tmp-XXXXXX";
  const std::string dir = ::mkdtemp(pattern);
  ::chmod(dir.c_str(), 0777);
  t::write_file(dir + "/prog.sh", "#!/bin/sh\necho ran in $(pwd)\n");
  ::chmod((dir + "/prog.sh").c_str(), 0755);
  t::write_file(dir + "/neighbour.txt", "x");
  RunSpec spec;
  spec.argv = {dir + "/prog.sh"};
  spec.cwd = dir;
  spec.isolation.scratch_copy = false;
  RunResult r = run_isolated(spec);
  CHECK(r.succeeded());
  CHECK(r.stdout_text == "ran in " + dir + "\n");
  CHECK(r.isolation.private_tmp == t::machine_isolation().private_tmp);
  std::remove((dir + "/prog.sh").c_str());
  std::remove((dir + "/neighbour.txt").c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("no network: only loopback exists, and it is up") {
  RunSpec spec = RunSpec::shell("cat /proc/net/dev");
  RunResult r = run_isolated(spec);
  REQUIRE(r.succeeded());
  if (!t::machine_isolation().no_network) {
    MESSAGE("no network namespace here (rest skipped)");
    CHECK(r.isolation.describe().find("no network (no network namespace)") != std::string::npos);
    return;
  }
  CHECK(r.isolation.no_network);
  CHECK(r.stdout_text.find("lo:") != std::string::npos);
  int interfaces = 0;
  for (std::size_t pos = 0; (pos = r.stdout_text.find(':', pos)) != std::string::npos; ++pos) ++interfaces;
  CHECK(interfaces == 1);
}

TEST_CASE("the isolation each run had is reported") {
  RunResult full = run_isolated(RunSpec::shell("true"));
  if (t::machine_isolation().pid_namespace) {
    CHECK(full.isolation.pid_namespace);
    CHECK(full.isolation.describe().find("process group, rlimits, pid namespace, no network") == 0);
  } else {
    // Namespaces refused: a subreaper holds the run's processes, and the report names the refusal.
    CHECK(full.succeeded());
    CHECK(full.isolation.subreaper);
    CHECK(full.isolation.describe().find("process group, rlimits, subreaper") == 0);
    CHECK(full.isolation.describe().find("not available: namespaces (clone: ") != std::string::npos);
  }
  RunSpec plain = RunSpec::shell("true");
  plain.isolation.pid_namespace = false;
  plain.isolation.no_network = false;
  plain.isolation.scratch_copy = false;
  RunResult fallback = run_isolated(plain);
  CHECK(fallback.succeeded());
  CHECK_FALSE(fallback.isolation.pid_namespace);
  CHECK(fallback.isolation.subreaper);
  CHECK_FALSE(fallback.isolation.scratch_copy);
}

TEST_CASE("probe_isolation says what this machine grants") {
  auto iso = rubric::process::probe_isolation();
  CHECK(iso.process_group);
  CHECK(iso.rlimits);
  CHECK((iso.pid_namespace || iso.subreaper));
  if (::geteuid() == 0) CHECK(iso.pid_namespace);  // this project's machines allow namespaces to root
}

TEST_CASE("resource limits: file size and address space") {
  RunSpec big_file = RunSpec::shell("exec head -c 2000000 /dev/zero > big.bin");
  big_file.limits.file_size_bytes = 100000;
  RunResult r = run_isolated(big_file);
  CHECK_FALSE(r.succeeded());
  // head gets SIGXFSZ when it writes past the limit.
  CHECK(r.signal_name == "SIGXFSZ");

  RunSpec memory = RunSpec::shell("exec /usr/bin/python3 -c 'x = bytearray(400 * 1024 * 1024)'");
  memory.limits.address_space_bytes = 200ull << 20;
  RunResult m = run_isolated(memory);
  CHECK_FALSE(m.succeeded());
  CHECK(m.stderr_text.find("MemoryError") != std::string::npos);
}

TEST_CASE("wall time and CPU time are measured") {
  RunResult r = run_isolated(RunSpec::shell("sleep 0.2"));
  CHECK(r.wall_seconds >= 0.2);
  // Seconds, not milliseconds (200): the margin is for a loaded machine, where starting a run
  // took up to 0.7 s.
  CHECK(r.wall_seconds < 8.0);
  RunResult busy = run_isolated(RunSpec::shell("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"));
  CHECK(busy.user_cpu_seconds + busy.system_cpu_seconds > 0.01);
}

TEST_CASE("programs that cannot start say why") {
  RunSpec missing;
  missing.argv = {"/nonexistent/prog"};
  RunResult r = run_isolated(missing);
  CHECK(r.launch_failed);
  CHECK(r.launch_error == "cannot execute '/nonexistent/prog': No such file or directory");
  CHECK(r.status_text().rfind("could not start: ", 0) == 0);

  RunSpec not_in_path;
  not_in_path.argv = {"no-such-program-rubric"};
  RunResult p = run_isolated(not_in_path);
  CHECK(p.launch_failed);
  CHECK(p.launch_error == "cannot execute 'no-such-program-rubric': not found in PATH");
}

TEST_CASE("a bad spec is an OperatorError naming what is wrong") {
  RunSpec empty;
  CHECK_THROWS_WITH_AS(run_isolated(empty), "run: the command is empty", rubric::OperatorError);
  RunSpec bad_dir = RunSpec::shell("true");
  bad_dir.cwd = "/nonexistent/dir";
  CHECK_THROWS_WITH_AS(run_isolated(bad_dir), "run: directory /nonexistent/dir does not exist or is not a directory",
                       rubric::OperatorError);
}
