"""Grade answers to systems-engineering problems with a rubric, from Python.

The same engine as the ``rubric`` command line, in this process::

    import rubric
    r = rubric.load("kv_cache.rubric", params={"context": 16384})
    report = r.check("answers/42", "reference/")
    print(report.verdict, report.score)        # FAIL 0.6
    for c in report.criteria:
        print(c.id, c.verdict, c.checks[0].evidence)

``load``, ``Rubric.check``, ``lint``, ``doc``, ``grade`` and ``test`` mirror the verbs of the
command line; ``Report.to_json()`` is what ``rubric check --format json`` prints. A grader's
values in memory reach a rubric as named inputs: a numpy array is a tensor over the array's own
memory, a dict or list what ``json(...)`` would give for the same JSON.
"""
from __future__ import annotations

import json
import math
import os
import pathlib
import time
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Union

from . import _engine

__version__: str = _engine.version
__all__ = [
    "load", "lint", "doc", "grade", "test", "literal",
    "Rubric", "Report", "Criterion", "Check", "Diagnostic", "Calibration", "Literal", "RubricError",
]

PathLike = Union[str, "os.PathLike[str]"]


def _locate_helpers() -> None:
    # Sandboxed runs exec rubric-run-init and GPU checks start rubric-gpu-worker; the CLI finds them
    # beside its own executable, which here is python. An installed prefix has them in bin/.
    here = pathlib.Path(__file__).resolve().parent
    for prefix in list(here.parents)[:5]:
        for variable, name in (("RUBRIC_RUN_INIT", "rubric-run-init"), ("RUBRIC_GPU_WORKER", "rubric-gpu-worker")):
            candidate = prefix / "bin" / name
            if variable not in os.environ and candidate.is_file() and os.access(candidate, os.X_OK):
                os.environ[variable] = str(candidate)


_locate_helpers()


class Diagnostic(NamedTuple):
    """A message about a place in a rubric: ``file:line:column: severity: message``."""

    severity: str  # "error", "warning" or "note"
    file: str  # "" when about no file
    line: int  # 0 when unknown
    column: int
    message: str
    notes: List[str]
    text: str  # as the command line prints it, with the source line and a caret

    def __str__(self) -> str:
        return self.text.rstrip("\n")


def _diagnostics(raw: Iterable[Mapping[str, Any]]) -> List[Diagnostic]:
    return [Diagnostic(d["severity"], d["file"], d["line"], d["column"], d["message"], list(d["notes"]), d["text"])
            for d in raw]


class RubricError(Exception):
    """A rubric that does not load: ``diagnostics`` holds every diagnostic, errors and warnings."""

    def __init__(self, message: str, diagnostics: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.diagnostics: List[Diagnostic] = [d if isinstance(d, Diagnostic) else _diagnostics([d])[0]
                                              for d in diagnostics]

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


_engine._set_rubric_error(RubricError)


class Literal:
    """A param value written as rubric source: ``literal("5 ms")``, ``literal("16Ki")``, ``literal("5%")``."""

    def __init__(self, text: str) -> None:
        self.text = str(text)

    def __repr__(self) -> str:
        return f"literal({self.text!r})"


def literal(text: str) -> Literal:
    """A param value given as a rubric literal (a number with its unit, ``"5 ms"``), passed as written."""
    return Literal(text)


def _quote(text: str) -> str:
    out = []
    for ch in text:
        if ch in '\\"{}':
            out.append("\\" + ch)
        elif ch in "\n\t\r":
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            raise ValueError(f"a rubric string cannot hold the control character {ch!r}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _literal_text(value: Any, name: str) -> str:
    """A Python value as the rubric literal ``--set NAME=VALUE`` would take."""
    if isinstance(value, Literal):
        return value.text
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"param '{name}': {value} has no rubric literal")
        return repr(value)
    if isinstance(value, (str, os.PathLike)):
        return _quote(os.fspath(value))
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_quote(str(k))}: {_literal_text(v, name)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal_text(v, name) for v in value) + "]"
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # a numpy scalar
        return _literal_text(value.item(), name)
    raise TypeError(f"param '{name}': a {type(value).__name__} has no rubric literal "
                    "(numbers, strings, bools, lists, dicts, rubric.literal(\"5 ms\"); "
                    "arrays go in as inputs=)")


def _param_texts(params: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    return {str(k): _literal_text(v, str(k)) for k, v in (params or {}).items()}


def _paths(items: Iterable[PathLike]) -> List[str]:
    if isinstance(items, (str, os.PathLike)):
        return [os.fspath(items)]
    return [os.fspath(p) for p in items]


@dataclass(frozen=True)
class Check:
    """One ``expect``: its source, verdict and the evidence lines the report prints under it."""

    source: str
    location: str  # "file:line:column"
    label: str
    verdict: str  # PASS, FAIL, INCONCLUSIVE, SKIP or ERROR
    blame: str  # none, submission, rubric, grader_environment
    evidence: List[str]
    explanation: str
    message: str
    review: str
    seconds: float


@dataclass(frozen=True)
class Criterion:
    """A criterion (or group, ``kind == "group"``) of a report, with its checks and children."""

    id: str
    kind: str
    title: str
    verdict: str
    score: Optional[float]
    weight: float
    required: bool
    penalty: Optional[float]
    reason: str
    notes: List[str]
    checks: List[Check]
    criteria: List["Criterion"] = field(default_factory=list)
    seconds: float = 0.0


def _location(loc: Optional[Mapping[str, Any]]) -> str:
    if not loc:
        return ""
    return f"{loc['file']}:{loc['line']}:{loc['column']}"


def _criterion(c: Mapping[str, Any]) -> Criterion:
    checks = [Check(k["source"], _location(k["location"]), k["label"], k["verdict"], k["blame"], list(k["evidence"]),
                    k["explanation"], k["message"], k["review"], k["seconds"]) for k in c["checks"]]
    return Criterion(c["id"], c["kind"], c["title"], c["verdict"], c["score"], c["weight"], c["required"],
                     c["penalty"], c["reason"], list(c["notes"]), checks, [_criterion(g) for g in c.get("criteria", [])],
                     c["seconds"])


class Report:
    """The result of ``Rubric.check``: a verdict per criterion with its evidence, and the provenance.

    ``to_json()`` is ``rubric check --format json`` (docs/report-json.md); ``text()``,
    ``markdown()``, ``html()`` and ``junit()`` are the other formats of the command line.
    """

    def __init__(self, handle: Any) -> None:
        self._handle = handle
        self._dict: Optional[Dict[str, Any]] = None

    @property
    def verdict(self) -> str:
        """PASS, FAIL, ERROR or INCOMPLETE."""
        return self._handle.verdict

    @property
    def exit_code(self) -> int:
        """``rubric check``'s exit code for this verdict: 0 PASS, 1 FAIL, 2 ERROR, 3 INCOMPLETE."""
        return self._handle.exit_code

    @property
    def passed(self) -> bool:
        return self.verdict == "PASS"

    @property
    def timed_out(self) -> bool:
        """The check ran past its ``timeout`` and was stopped (the verdict is then ERROR)."""
        return self._handle.timed_out

    def to_dict(self) -> Dict[str, Any]:
        """The JSON report as Python values (a fresh copy each call)."""
        return json.loads(self.to_json())

    def _data(self) -> Dict[str, Any]:
        if self._dict is None:
            self._dict = self.to_dict()
        return self._dict

    @property
    def score(self) -> Optional[float]:
        """The weighted score in [0, 1]; None when nothing was decided."""
        return self._data()["score"]

    @property
    def pass_mark(self) -> float:
        return self._data()["pass_mark"]

    @property
    def title(self) -> str:
        return self._data()["title"]

    @property
    def criteria(self) -> List[Criterion]:
        """Top-level criteria and groups, in file order."""
        return [_criterion(c) for c in self._data()["criteria"]]

    @property
    def warnings(self) -> List[Dict[str, Any]]:
        return self._data()["warnings"]

    @property
    def provenance(self) -> Dict[str, Any]:
        """What was graded, with what, when: files and their digests, runs, params, the machine."""
        return self._data()["provenance"]

    def criterion(self, id: str) -> Criterion:
        """The criterion or group with this id, at any depth; KeyError when there is none."""
        stack = list(self.criteria)
        while stack:
            c = stack.pop(0)
            if c.id == id:
                return c
            stack.extend(c.criteria)
        raise KeyError(id)

    def to_json(self) -> str:
        """``rubric check --format json``, byte for byte but for timings."""
        return self._handle.to_json()

    def text(self, *, colour: bool = False, verbose: bool = False) -> str:
        """The text report, as ``rubric check`` prints it."""
        return self._handle.text(colour, verbose)

    def markdown(self) -> str:
        return self._handle.markdown()

    def html(self) -> str:
        """One self-contained page (``--format html``)."""
        return self._handle.html()

    def junit(self) -> str:
        return self._handle.junit()

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        score = "none" if self.score is None else f"{self.score:.0%}"
        return f"<rubric.Report {self.verdict} score {score}>"


class Rubric:
    """A loaded rubric: parsed and checked once, then checked against any number of submissions.

    ``check`` may be called from several threads at once; it releases the GIL while evaluating.
    """

    def __init__(self, loaded: Any, include: List[str], params: Dict[str, str]) -> None:
        self._loaded = loaded
        self._include = include
        self._params = params

    @property
    def path(self) -> str:
        return self._loaded.path

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """Warnings and notes of the load (a load with errors raises RubricError instead)."""
        return _diagnostics(self._loaded.diagnostics)

    @property
    def input_names(self) -> List[str]:
        return list(self._loaded.input_names)

    def check(self, submission: PathLike, reference: Optional[PathLike] = None, *,
              params: Optional[Mapping[str, Any]] = None, inputs: Optional[Mapping[str, Any]] = None,
              timeout: Optional[float] = None) -> Report:
        """Evaluates the rubric against one submission folder, as ``rubric check`` does.

        submission: the folder graded (``--submission``).
        reference:  reference files (``--reference``); None: the rubric's own folder.
        params:     values for the rubric's ``param``s for this check, over those given to load
                    (``--set``): numbers, strings, bools, lists, dicts, ``rubric.literal("5 ms")``.
        inputs:     new values for names given to ``load(inputs=...)``: numpy arrays (tensors,
                    no copy), dicts and lists (as JSON), strings, numbers.
        timeout:    seconds; past it the evaluation is stopped, its candidate programs killed,
                    and the report is an ERROR (``Report.timed_out``).

        Ctrl-C (KeyboardInterrupt) stops the evaluation and kills the candidate programs it
        started, then raises. Raises RubricError when ``params`` do not fit the rubric, ValueError
        for a missing folder or an input name the load did not bind.
        """
        handle = self._loaded.check(os.fspath(submission), "" if reference is None else os.fspath(reference),
                                    _param_texts(params), dict(inputs or {}), timeout)
        return Report(handle)

    def __repr__(self) -> str:
        return f"<rubric.Rubric {self.path!r}>"


def load(path: PathLike, *, include: Iterable[PathLike] = (), params: Optional[Mapping[str, Any]] = None,
         inputs: Optional[Mapping[str, Any]] = None) -> Rubric:
    """Parses and checks a rubric once, ready to check submissions (``rubric lint`` plus a load).

    path:    the .rubric file.
    include: module search folders, searched before RUBRIC_PATH for ``use a.b`` (``-I``).
    params:  values for the rubric's ``param``s (``--set NAME=VALUE``): numbers, strings, bools,
             lists, dicts, or ``rubric.literal("16Ki")`` for a value with a unit.
    inputs:  global names the rubric reads, bound to values from memory: a numpy array (or any
             object with the buffer protocol) is a tensor over the same memory, a dict or list
             the value ``json(...)`` gives for the same JSON. ``Rubric.check(inputs=...)``
             replaces their values for one check.

    Raises RubricError, carrying every diagnostic (file, line, column, message), when the rubric
    does not parse or check; ValueError when the file does not exist.
    """
    include_dirs = _paths(include)
    param_texts = _param_texts(params)
    loaded = _engine.LoadedRubric(os.fspath(path), include_dirs, param_texts, dict(inputs or {}))
    return Rubric(loaded, include_dirs, param_texts)


def lint(path: PathLike, *, include: Iterable[PathLike] = ()) -> List[Diagnostic]:
    """Parses and checks a rubric or module without evaluating anything (``rubric lint``).

    Returns every diagnostic, notes on what grading it needs (a judge, a GPU) included; the
    rubric is sound when none has severity "error".
    """
    return _diagnostics(_engine.lint(os.fspath(path), _paths(include)))


def doc(module: str = "", *, include: Iterable[PathLike] = ()) -> str:
    """Builtins and standard library with signatures and docs (``rubric doc [MODULE]``).

    module: "" for the builtins and the list of modules; a module (``std.numerics``), a builtin
    or a name a standard module declares. LookupError when nothing has that name.
    """
    text, found = _engine.doc(module, _paths(include))
    if not found:
        raise LookupError(text.strip())
    return text


def _rubric_args(rubric: Union[PathLike, Rubric], include: Iterable[PathLike],
                 params: Optional[Mapping[str, Any]]) -> tuple:
    if isinstance(rubric, Rubric):
        if rubric.input_names:
            raise ValueError("a rubric loaded with inputs= reads them from this process; grade and test "
                             "run it from its file")
        return rubric.path, rubric._include + _paths(include), {**rubric._params, **_param_texts(params)}
    return os.fspath(rubric), _paths(include), _param_texts(params)


def grade(rubric: Union[PathLike, Rubric], submissions: Iterable[PathLike], out: PathLike = "rubric-results", *,
          reference: Optional[PathLike] = None, jobs: Optional[int] = None, params: Optional[Mapping[str, Any]] = None,
          include: Iterable[PathLike] = (), seed: Optional[int] = None, timeout: Optional[float] = None,
          regrade: bool = False, retry_errors: bool = False, quiet: bool = True) -> Dict[str, Any]:
    """Grades a corpus of submission folders into ``out`` (``rubric grade``) and returns its summary.

    Writes out/results.jsonl (one line per submission) and out/summary.json, which is returned as
    a dict (verdict counts, pass rates, score distribution, slowest submissions, provenance).
    Running it again grades only what is new or changed. ``jobs``: submissions graded at once
    (default: the CPUs); ``timeout``: seconds per submission, past it that submission is an
    ERROR; ``quiet=False`` prints progress and the table as the command line does.
    Ctrl-C stops the batch (results so far are kept) and raises KeyboardInterrupt.
    """
    path, include_dirs, param_texts = _rubric_args(rubric, include, params)
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs={jobs} must be at least 1")
    out_dir = os.fspath(out)
    started = time.time()
    status = _engine.grade(path, _paths(submissions), out_dir, "" if reference is None else os.fspath(reference),
                           jobs or 0, param_texts, include_dirs, seed, timeout or 0.0, regrade, retry_errors, quiet)
    if status > 128:
        raise KeyboardInterrupt(f"rubric grade was interrupted; the results so far are in {out_dir}")
    summary = pathlib.Path(out_dir) / "summary.json"
    if not summary.is_file() or summary.stat().st_mtime < started - 1:
        problems = [d for d in lint(path, include=include_dirs) if d.severity == "error"]
        if problems:
            raise RubricError("\n".join(str(d) for d in problems), problems)
        raise RuntimeError(f"rubric grade wrote no summary in {out_dir} (exit status {status})")
    return json.loads(summary.read_text())


@dataclass(frozen=True)
class Calibration:
    """The result of ``test``: how the rubric's verdicts agree with the graders' labels."""

    exit_code: int  # 0 every case agrees, 1 some case disagrees, 3 none disagrees but some undecided here
    result: Dict[str, Any]  # ``rubric test --format json`` (docs/calibration.md)
    text: str  # as ``rubric test`` prints it

    @property
    def agrees(self) -> bool:
        return self.exit_code == 0


def test(rubric: Union[PathLike, Rubric], cases: Optional[PathLike] = None, *, include: Iterable[PathLike] = (),
         params: Optional[Mapping[str, Any]] = None, seed: Optional[int] = None) -> Calibration:
    """Grades the labelled submissions of a cases file and compares the verdicts (``rubric test``).

    cases: the cases file; None: RUBRIC's <name>.cases.json, else cases.json, beside it.
    Raises ValueError for a broken cases file, RubricError for a rubric that does not load.
    """
    path, include_dirs, param_texts = _rubric_args(rubric, include, params)
    json_text, text, code = _engine.calibrate(path, "" if cases is None else os.fspath(cases), include_dirs,
                                              param_texts, seed)
    return Calibration(code, json.loads(json_text), text)


test.__test__ = False  # type: ignore[attr-defined]  # not a test for pytest's collector
