#pragma once
// What the report's provenance says about the machine that graded: the host and the compiler that
// built `rubric`. The CUDA driver and runtime come from the device record when it was queried.
#include <map>
#include <string>

namespace rubric::machine {

// {"name": hostname, "os": "Debian GNU/Linux 13 (trixie)", "kernel": "Linux 6.8.0-1024-aws",
//  "arch": "x86_64", "cpus": "16"}; a field that cannot be found is left out.
std::map<std::string, std::string> describe_host();

// The C++ compiler that built this binary: "GCC 14.2.0", "Clang 19.1.7".
std::string describe_compiler();

// {"driver": "13.0", "runtime": "13.0"} from a device record as printed; versions the record does
// not know (no driver, no CUDA build) are left out.
std::map<std::string, std::string> cuda_versions(const std::map<std::string, std::string>& device);

}  // namespace rubric::machine
