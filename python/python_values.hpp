#pragma once
// A grader's Python values as rubric values: an object with the buffer protocol (a numpy array)
// becomes a tensor over the same memory, no copy; a dict or list becomes what `json(...)` of the
// same JSON gives; str, bool, int, float and None become a string, bool, number and null.
// Called with the GIL held.
#include <string>

#include <pybind11/pybind11.h>

#include "interpreter/value.hpp"

namespace rubric::python {

// `name` names the value in messages ("input 'logits'"). Throws py::type_error for what has no
// rubric value (a uint16 array, a set, an object json cannot write).
Value value_from_python(const pybind11::handle& object, const std::string& name);

}  // namespace rubric::python
