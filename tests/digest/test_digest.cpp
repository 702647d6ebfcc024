// operators/digest: XXH3-128 (content: file provenance, the GPU module cache) and SHA-256 (keys a
// submission must not forge), each checked against published values and the command-line tools.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "operators/digest/content_digest.hpp"
#include "operators/digest/pass_digest.hpp"
#include "operators/digest/sha256.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric::digest;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "rubric-digest-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& rel, const std::string& content) const {
    std::string p = path + "/" + rel;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
};

}  // namespace

TEST_CASE("file digests are XXH3-128 as xxhsum -H2 writes them, streamed or at once") {
  CHECK(content_digest_hex("") == "99aa06d3014798d86001c324468d497f");
  CHECK(content_digest_hex("abc") == "06b05ab6733a618578af5f94892f3950");
  TempDir t;
  std::string content;
  for (int i = 0; i < 5'000'000; ++i) content += static_cast<char>(i * 7 + (i >> 5));
  std::string p = t.write("blob.bin", content);
  ContentDigest streamed;
  for (std::size_t at = 0; at < content.size(); at += 65537) streamed.update(std::string_view(content).substr(at, 65537));
  CHECK(streamed.hex() == content_digest_hex(content));
  std::uint64_t bytes = 0;
  CHECK(content_digest_file(p, &bytes) == content_digest_hex(content));
  CHECK(bytes == content.size());
  CHECK_FALSE(content_digest_file(t.path + "/missing"));
  // Large enough for the background thread: the same digest.
  auto owner = std::make_shared<std::string>(content);
  auto pending = digest_in_background(owner, reinterpret_cast<const std::byte*>(owner->data()), owner->size());
  CHECK(pending.get() == content_digest_hex(content));
  if (std::system("command -v xxhsum > /dev/null 2>&1") != 0) return;  // the xxhash package (make deps) brings it
  std::string cmd = "xxhsum -H2 " + rubric::test::shell_quote(p);
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  REQUIRE(pipe);
  char buf[33] = {0};
  REQUIRE(std::fread(buf, 1, 32, pipe.get()) == 32);
  CHECK(std::string(buf) == content_digest_hex(content));
}

TEST_CASE("sha256 (for grade's keys) matches known digests") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  TempDir t;
  std::string content(1'000'003, 'x');
  std::uint64_t bytes = 0;
  auto digest = sha256_file(t.write("blob.bin", content), &bytes);
  REQUIRE(digest);
  CHECK(bytes == content.size());
  CHECK(*digest == sha256_hex(content));
}

TEST_CASE("a composite key's parts are length-prefixed, so moving a boundary changes it") {
  ContentDigest ab_c, a_bc, same;
  ab_c.add_part("ab").add_part("c");
  a_bc.add_part("a").add_part("bc");
  same.add_part("ab").add_part("c");
  CHECK(ab_c.hex() != a_bc.hex());
  CHECK(ab_c.hex() == same.hex());
  CHECK(ab_c.hex().size() == 32);
}

TEST_CASE("a pass digest is the file's digest whether a pass fed it, fed part of it, or nobody claimed it") {
  std::string content;
  for (int i = 0; i < 3'000'000; ++i) content += static_cast<char>(i * 13 + (i >> 7));
  auto owner = std::make_shared<std::string>(content);
  const auto* data = reinterpret_cast<const std::byte*>(owner->data());
  const std::string expected = content_digest_hex(content);
  {  // fed in stripes, a header first, the tail left to finish()
    auto job = std::make_shared<PassDigest>(owner, data, owner->size(), nullptr, -1);
    auto digest = job->future(job);
    REQUIRE(job->claim());
    CHECK_FALSE(job->claim());  // one pass at a time
    for (std::size_t at = 128; at < 2'000'000; at += 262144) job->feed_until(at);
    job->feed_until(1000);  // behind: nothing to do
    job->finish();
    CHECK(digest.get() == expected);
  }
  {  // fed from copies of stripes (as a pass that read them out of the file), the header from the data
    auto job = std::make_shared<PassDigest>(owner, data, owner->size(), nullptr, -1);
    auto digest = job->future(job);
    REQUIRE(job->claim());
    for (std::size_t from = 128; from < 2'000'000; from += 262144) {
      const std::size_t to = std::min<std::size_t>(from + 262144, 2'000'000);
      const std::string copy = content.substr(from, to - from);
      job->feed(to, reinterpret_cast<const std::byte*>(copy.data()), copy.size());
    }
    const std::string again = content.substr(1'500'000, 600'000);  // partly hashed already
    job->feed(2'100'000, reinterpret_cast<const std::byte*>(again.data()), again.size());
    job->feed(2'200'000, nullptr, 0);  // a stretch read through the mapping
    job->finish();
    CHECK(digest.get() == expected);
  }
  {  // nobody claimed it: the one who asks computes it
    auto job = std::make_shared<PassDigest>(owner, data, owner->size(), nullptr, -1);
    CHECK(job->future(job).get() == expected);
    CHECK_FALSE(job->claim());
  }
  {  // a file that shrank while it was hashed has no digest
    auto job = std::make_shared<PassDigest>(owner, data, owner->size(), [] { return false; }, -1);
    REQUIRE(job->claim());
    job->finish();
    CHECK(job->future(job).get().empty());
  }
}
