#include <doctest/doctest.h>

#include "operators/cuda/signature.hpp"
#include "operators/cuda/trampoline.hpp"
#include "operators/error.hpp"

using rubric::OperatorError;
using rubric::cuda::ParamKind;
using rubric::cuda::parse_signature;
using rubric::tensor::DType;

TEST_CASE("a softmax launcher signature parses into pointers, scalars and a stream") {
  auto sig = parse_signature("void(const float*, float*, int, int, cudaStream_t)");
  REQUIRE(sig.params.size() == 5);
  CHECK(sig.params[0].kind == ParamKind::pointer);
  CHECK(sig.params[0].is_const);
  CHECK(sig.params[0].dtype == DType::f32);
  CHECK_FALSE(sig.params[1].is_const);
  CHECK(sig.params[2].kind == ParamKind::int32);
  CHECK(sig.params[4].kind == ParamKind::stream);
  CHECK(sig.caller_arity() == 4);
  CHECK(sig.text == "void(const float*, float*, int, int, cudaStream_t)");
}

TEST_CASE("every tensor dtype is accepted behind a pointer") {
  auto sig = parse_signature(
      "void(const double*, __half*, half*, __nv_bfloat16*, __nv_fp8_e4m3*, __nv_fp8_e5m2*, int64_t*, int32_t*, int*, "
      "int16_t*, int8_t*, uint8_t*, bool*, uint64_t*, const unsigned long long*, unsigned long*)");
  DType expected[] = {DType::f64, DType::f16, DType::f16, DType::bf16, DType::f8e4m3, DType::f8e5m2, DType::i64,
                      DType::i32, DType::i32, DType::i16, DType::i8, DType::u8, DType::boolean, DType::u64,
                      DType::u64, DType::u64};
  REQUIRE(sig.params.size() == 16);
  for (std::size_t i = 0; i < 16; ++i) CHECK(sig.params[i].dtype == expected[i]);
  // A uint64_t by value is refused (no unsigned scalar argument), with the reason.
  CHECK_THROWS_WITH_AS(parse_signature("void(uint64_t n)"), doctest::Contains("only behind a pointer"), rubric::OperatorError);
}

TEST_CASE("scalars, parameter names, restrict and odd spacing") {
  auto sig = parse_signature("  void ( const float * __restrict__ x , float *y, int64_t n, double eps, float alpha,cudaStream_t s )");
  REQUIRE(sig.params.size() == 6);
  CHECK(sig.params[0].c_type == "const float*");
  CHECK(sig.params[2].kind == ParamKind::int64);
  CHECK(sig.params[3].kind == ParamKind::float64);
  CHECK(sig.params[4].kind == ParamKind::float32);
  CHECK(sig.params[5].kind == ParamKind::stream);
  CHECK(parse_signature("void()").params.empty());
  CHECK(parse_signature("void(void)").params.empty());
}

TEST_CASE("bad signatures are rejected with the offending part named") {
  auto message = [](const char* s) {
    try {
      parse_signature(s);
    } catch (const OperatorError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message("int(float*)").find("return type must be void") != std::string::npos);
  CHECK(message("void(long double*)").find("parameter 1 'long double*'") != std::string::npos);
  CHECK(message("void(float**, int)").find("pointers to pointers") != std::string::npos);
  CHECK(message("void(__half)").find("only behind a pointer") != std::string::npos);
  CHECK(message("void(cudaStream_t*, int)").find("by value") != std::string::npos);
  CHECK(message("void(float*, , int)").find("parameter 2 is empty") != std::string::npos);
  CHECK(message("float*, int").find("expected the form") != std::string::npos);
  CHECK(message("void(cudaStream_t, cudaStream_t)").find("at most one") != std::string::npos);
}

TEST_CASE("the trampoline includes the source, pins the entry type and exports rubric_call") {
  auto sig = parse_signature("void(const float*, float*, int, cudaStream_t)");
  std::string t = rubric::cuda::generate_trampoline(sig, "launch", "/x/y.cu", rubric::cuda::ModuleKind::cuda);
  CHECK(t.find("#include \"/x/y.cu\"") != std::string::npos);
  CHECK(t.find("using rubric_entry_type = void(const float*, float*, int, cudaStream_t);") != std::string::npos);
  CHECK(t.find("rubric_entry_type* const rubric_entry_pointer = &launch;") != std::string::npos);
  CHECK(t.find("extern \"C\"") != std::string::npos);
  CHECK(t.find("*static_cast<cudaStream_t const*>(args[3])") != std::string::npos);
  CHECK_THROWS_AS(rubric::cuda::generate_trampoline(sig, "launch; system(\"x\")", "/x/y.cu",
                                                    rubric::cuda::ModuleKind::cuda),
                  OperatorError);
  CHECK_NOTHROW(rubric::cuda::generate_trampoline(sig, "ns::launch", "/x/y.cu", rubric::cuda::ModuleKind::cuda));
}
