// Opening and mapping submission files: special files are refused by kind (never a hang), sizes
// are capped before reading, and a mapped file that shrinks does not kill the reader.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>

#include "helpers.hpp"
#include "operators/files/bus_guard.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/tensor/mapped_file.hpp"
#include "operators/tensor/npy.hpp"

using rubric::test::TempDir;
namespace rf = rubric::files;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const rubric::OperatorError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("open_regular refuses a FIFO, a socket, a device and a directory by name, without blocking") {
  TempDir t;
  const std::string fifo = t.path + "/answer.md";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  CHECK(error_of([&] { rf::open_regular(fifo, "submission/answer.md"); }) ==
        "submission/answer.md: is a named pipe (FIFO), not a regular file");
  CHECK(error_of([&] { rf::read_capped(fifo, "a", 100, "text"); }).find("named pipe") != std::string::npos);
  CHECK(error_of([&] { rubric::json::read_file(fifo); }).find("named pipe (FIFO)") != std::string::npos);
  CHECK(error_of([&] { rubric::tensor::load_npy(fifo); }).find("named pipe (FIFO)") != std::string::npos);

  const std::string sock = t.path + "/s";
  int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, sock.c_str(), sizeof addr.sun_path - 1);
  REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  CHECK(error_of([&] { rf::open_regular(sock, "s"); }) == "s: is a socket, not a regular file");
  ::close(s);
  CHECK(error_of([&] { rf::open_regular("/dev/zero", "z"); }) == "z: is a character device, not a regular file");
  CHECK(error_of([&] { rf::open_regular(t.path, "d"); }) == "d: is a directory, not a regular file");
  CHECK(error_of([&] { rf::open_regular(t.path + "/none", "n"); }).find("n: cannot be read") == 0);
}

TEST_CASE("read_capped reads a file up to its cap and refuses a larger one before reading") {
  TempDir t;
  t.write("small.txt", "hello");
  t.write("big.txt", std::string(3 << 20, 'x'));
  CHECK(rf::read_capped(t.path + "/small.txt", "small.txt", 5, "text") == "hello");
  CHECK(error_of([&] { rf::read_capped(t.path + "/small.txt", "small.txt", 4, "text"); }) ==
        "small.txt: 5 bytes is more than the 4 bytes limit for text");
  CHECK(error_of([&] { rf::read_capped(t.path + "/big.txt", "big.txt", 2 << 20, "text"); }) ==
        "big.txt: 3 MiB is more than the 2 MiB limit for text");
  CHECK(rf::read_capped(t.path + "/big.txt", "big.txt", 3 << 20, "text").size() == std::size_t(3 << 20));
  auto f = rf::open_regular(t.path + "/big.txt", "big.txt");
  CHECK(rf::read_at(f, (3 << 20) - 2, 10, "big.txt") == "xx");
}

TEST_CASE("a mapping whose file is truncated reads zeros and says so instead of dying of SIGBUS") {
  TempDir t;
  const std::size_t size = 1 << 20;
  const std::string path = t.write("out.bin", std::string(size, '\x7f'));
  auto file = rubric::tensor::MappedFile::open(path);
  CHECK(file->size() == size);
  CHECK(std::to_integer<int>(file->data()[size - 1]) == 0x7f);
  REQUIRE(::truncate(path.c_str(), 4096) == 0);
  long sum = 0;
  for (std::size_t i = 0; i < size; i += 512) sum += std::to_integer<int>(file->data()[i]);
  CHECK(sum == 8 * 0x7f);  // the first page is intact, the rest reads as zeros
  CHECK(file->damaged());
  auto again = rubric::tensor::MappedFile::open(path);
  CHECK(again->size() == 4096);
  CHECK_FALSE(again->damaged());
}
