# Type stubs of the `rubric` package (python/rubric/__init__.py); the native part, rubric._engine,
# is private.
import os
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Union

__version__: str
PathLike = Union[str, os.PathLike[str]]

class Diagnostic(NamedTuple):
    severity: str
    file: str
    line: int
    column: int
    message: str
    notes: List[str]
    text: str

class RubricError(Exception):
    diagnostics: List[Diagnostic]
    def __init__(self, message: str, diagnostics: Sequence[Any] = ...) -> None: ...
    @property
    def errors(self) -> List[Diagnostic]: ...

class Literal:
    text: str
    def __init__(self, text: str) -> None: ...

def literal(text: str) -> Literal: ...

class Check:
    source: str
    location: str
    label: str
    verdict: str
    blame: str
    evidence: List[str]
    explanation: str
    message: str
    review: str
    seconds: float

class Criterion:
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
    criteria: List[Criterion]
    seconds: float

class Report:
    @property
    def verdict(self) -> str: ...
    @property
    def exit_code(self) -> int: ...
    @property
    def passed(self) -> bool: ...
    @property
    def timed_out(self) -> bool: ...
    @property
    def score(self) -> Optional[float]: ...
    @property
    def pass_mark(self) -> float: ...
    @property
    def title(self) -> str: ...
    @property
    def criteria(self) -> List[Criterion]: ...
    @property
    def warnings(self) -> List[Dict[str, Any]]: ...
    @property
    def provenance(self) -> Dict[str, Any]: ...
    def criterion(self, id: str) -> Criterion: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def text(self, *, colour: bool = ..., verbose: bool = ...) -> str: ...
    def markdown(self) -> str: ...
    def html(self) -> str: ...
    def junit(self) -> str: ...

class Rubric:
    @property
    def path(self) -> str: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def input_names(self) -> List[str]: ...
    def check(self, submission: PathLike, reference: Optional[PathLike] = ..., *,
              params: Optional[Mapping[str, Any]] = ..., inputs: Optional[Mapping[str, Any]] = ...,
              timeout: Optional[float] = ...) -> Report: ...

class Calibration:
    exit_code: int
    result: Dict[str, Any]
    text: str
    @property
    def agrees(self) -> bool: ...

def load(path: PathLike, *, include: Iterable[PathLike] = ..., params: Optional[Mapping[str, Any]] = ...,
         inputs: Optional[Mapping[str, Any]] = ...) -> Rubric: ...
def lint(path: PathLike, *, include: Iterable[PathLike] = ...) -> List[Diagnostic]: ...
def doc(module: str = ..., *, include: Iterable[PathLike] = ...) -> str: ...
def grade(rubric: Union[PathLike, Rubric], submissions: Iterable[PathLike], out: PathLike = ..., *,
          reference: Optional[PathLike] = ..., jobs: Optional[int] = ..., params: Optional[Mapping[str, Any]] = ...,
          include: Iterable[PathLike] = ..., seed: Optional[int] = ..., timeout: Optional[float] = ...,
          regrade: bool = ..., retry_errors: bool = ..., quiet: bool = ...) -> Dict[str, Any]: ...
def test(rubric: Union[PathLike, Rubric], cases: Optional[PathLike] = ..., *, include: Iterable[PathLike] = ...,
         params: Optional[Mapping[str, Any]] = ..., seed: Optional[int] = ...) -> Calibration: ...
