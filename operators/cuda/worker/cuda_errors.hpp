#pragma once
// What a CUDA runtime error means for the verdict and for the worker, by its numeric code (the
// values of cudaError_t, so this builds and is tested without the toolkit):
//   request      the call failed (bad launch configuration, out of memory); the context is fine
//   sticky       the candidate broke the context (illegal address, trap, unknown fault); the
//                worker answers and exits, the next request starts a fresh one
//   environment  the grading machine cannot serve the request (no device, old driver, no kernel
//                image for this device, MPS down, ECC or NVLink failure); the worker exits and the
//                failure is blamed on the grading environment, never on the submission
#include <string_view>

namespace rubric::cuda::worker {

enum class ErrorClass { request, sticky, environment };

ErrorClass classify_cuda_error(int code);
std::string_view error_class_name(ErrorClass c);

}  // namespace rubric::cuda::worker
