#pragma once
// Tensors cross between rubric and a sandboxed GPU worker as raw files in the worker's exchange
// folder, which the worker (and the candidate code it loads) can write. So every file the grader
// makes there gets an unguessable name and is created exclusively without following links, and
// every file it reads back is opened without following links, checked to be a regular file of the
// expected size, and read with pread (never mapped: a file truncated under a map is SIGBUS).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "operators/error.hpp"

namespace rubric::cuda {

// What the worker's side did to a file the grader reads back (a link, a FIFO, the wrong size):
// the candidate's doing, reported as its failure.
struct ExchangeError : OperatorError {
  using OperatorError::OperatorError;
};

// "<dir>/<stem>-<random hex>.bin": a name a process in the folder cannot predict.
std::string exchange_name(const std::string& dir, std::string_view stem);

// Creates `path` (O_EXCL, O_NOFOLLOW) with `bytes` of `data`. ExchangeError when something is
// already there; OperatorError when the disk refuses.
void write_exchange_file(const std::string& path, const void* data, std::size_t bytes);

// Creates `path` holding bytes [offset, offset + bytes) of the grader's file `source`
// (copy_file_range, which reflinks where the filesystem can). ExchangeError naming `source` when
// it is shorter (a failure of the request, as the worker would report it); FileError when it is
// not a readable regular file.
void copy_into_exchange(const std::string& path, const std::string& source, std::uint64_t offset, std::size_t bytes);

// The `expected` bytes of a file the worker wrote; ExchangeError when it is not a regular file
// (a link, a FIFO, a directory) or does not hold exactly `expected` bytes.
std::vector<unsigned char> read_exchange_file(const std::string& path, std::size_t expected, std::string_view shown);

}  // namespace rubric::cuda
