#include "python/python_values.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/builtins/json_value.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/tensor/tensor.hpp"

namespace py = pybind11;

namespace rubric::python {
namespace {

// The struct-module format of a buffer ("<f4" as numpy gives "f" or "<f") as a rubric dtype.
std::optional<tensor::DType> dtype_of(std::string format, py::ssize_t itemsize, bool* big_endian) {
  *big_endian = false;
  if (!format.empty() && (format[0] == '<' || format[0] == '>' || format[0] == '!' || format[0] == '=' || format[0] == '@')) {
    *big_endian = format[0] == '>' || format[0] == '!';
    format.erase(0, 1);
  }
  if (format.size() != 1) return std::nullopt;
  switch (format[0]) {
    case 'd': return tensor::DType::f64;
    case 'f': return tensor::DType::f32;
    case 'e': return tensor::DType::f16;
    case '?': return tensor::DType::boolean;
    case 'B': return itemsize == 1 ? std::optional(tensor::DType::u8) : std::nullopt;
    case 'H': case 'I': case 'L': case 'Q': return itemsize == 8 ? std::optional(tensor::DType::u64) : std::nullopt;
    case 'b': case 'h': case 'i': case 'l': case 'q':
      switch (itemsize) {
        case 1: return tensor::DType::i8;
        case 2: return tensor::DType::i16;
        case 4: return tensor::DType::i32;
        case 8: return tensor::DType::i64;
      }
  }
  return std::nullopt;
}

Value tensor_from_buffer(const py::buffer& buffer, const std::string& name) {
  // The view holds the exporter (the array) until the last tensor over it is gone; releasing it
  // needs the GIL, which the thread dropping it may not hold.
  auto* info = new py::buffer_info(buffer.request());
  std::shared_ptr<const py::buffer_info> owner(info, [](const py::buffer_info* b) {
    py::gil_scoped_acquire gil;
    delete b;
  });
  bool big_endian = false;
  const auto dtype = dtype_of(info->format, info->itemsize, &big_endian);
  if (!dtype)
    throw py::type_error(fmt::format("{}: an array of element format '{}' ({} bytes) has no rubric dtype (f64, f32, f16, "
                                     "i64, u64, i32, i16, i8, u8, bool): convert it with .astype(...)",
                                     name, info->format, info->itemsize));
  tensor::Shape shape(info->shape.begin(), info->shape.end());
  std::vector<std::int64_t> strides(info->strides.begin(), info->strides.end());
  const auto* data = static_cast<const std::byte*>(info->ptr);
  auto t = std::make_shared<const tensor::Tensor>(*dtype, std::move(shape), data, std::move(strides), big_endian,
                                                  std::shared_ptr<const void>(owner, info->ptr), name);
  return Value::tensor(std::move(t));
}

}  // namespace

Value value_from_python(const py::handle& object, const std::string& name) {
  if (object.is_none()) return Value::null();
  if (py::isinstance<py::bool_>(object)) return Value::boolean(object.cast<bool>());
  if (py::isinstance<py::int_>(object) || py::isinstance<py::float_>(object)) return Value::number(object.cast<double>());
  if (py::isinstance<py::str>(object)) return Value::string(object.cast<std::string>());
  // numpy's scalars (np.float32(1), np.int64(2)) are numbers, not 0-d tensors.
  if (!PyObject_CheckBuffer(object.ptr()) || !py::hasattr(object, "shape") || py::len(object.attr("shape")) == 0) {
    const py::module_ numbers = py::module_::import("numbers");
    if (py::isinstance(object, numbers.attr("Real"))) return Value::number(PyFloat_AsDouble(object.ptr()));
  }
  if (py::hasattr(object, "__fspath__")) return Value::string(py::str(py::module_::import("os").attr("fspath")(object)).cast<std::string>());
  if (py::isinstance<py::dict>(object) || py::isinstance<py::list>(object) || py::isinstance<py::tuple>(object)) {
    std::string text;
    try {
      text = py::module_::import("json").attr("dumps")(object).cast<std::string>();
    } catch (py::error_already_set& e) {
      throw py::type_error(fmt::format("{}: not writable as JSON: {}", name, e.what()));
    }
    return builtins::value_from_json(json::parse(text, name), name);
  }
  if (PyObject_CheckBuffer(object.ptr())) return tensor_from_buffer(py::reinterpret_borrow<py::buffer>(object), name);
  throw py::type_error(fmt::format("{}: a {} has no rubric value (give a numpy array, a dict or list, a str, a number, "
                                   "a bool or None)",
                                   name, py::str(py::type::handle_of(object).attr("__name__")).cast<std::string>()));
}

}  // namespace rubric::python
